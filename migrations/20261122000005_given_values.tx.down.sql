DROP TABLE jobsd_vocabulary;

--bun:split

ALTER TABLE jobs DROP COLUMN given;
