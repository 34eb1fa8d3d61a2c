DROP TRIGGER jobs_truncate_texts ON jobs;

--bun:split

DROP FUNCTION jobsd_drop_job_texts();

--bun:split

DROP TRIGGER jobs_drop_text ON jobs;

--bun:split

DROP FUNCTION jobsd_drop_job_text();

--bun:split

DELETE FROM job_texts t WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = t.job_id);

--bun:split

ALTER TABLE job_texts ADD CONSTRAINT job_texts_job_id_fkey FOREIGN KEY (job_id) REFERENCES jobs (id) ON DELETE CASCADE;

--bun:split

ALTER TABLE job_texts DROP COLUMN stale;
