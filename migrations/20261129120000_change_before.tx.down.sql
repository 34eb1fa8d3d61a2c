ALTER TABLE job_changes DROP COLUMN before;

--bun:split

DROP TYPE job_state;
