-- Closed postings are dropped with their table; the open ones stay.
DROP TABLE jobsd_feed;

--bun:split

DROP TABLE job_changes;

--bun:split

DROP SEQUENCE job_changes_seq;

--bun:split

DROP TABLE jobs_closed;

--bun:split

ALTER TABLE job_texts ALTER COLUMN job_id TYPE text COLLATE "default";

--bun:split

ALTER TABLE jobs ALTER COLUMN id TYPE text COLLATE "default";

--bun:split

DROP INDEX jobs_source;

--bun:split

DROP INDEX jobs_valid_through;

--bun:split

ALTER TABLE jobs DROP COLUMN content_hash;

--bun:split

ALTER TABLE jobs DROP COLUMN valid_through;
