CREATE TRIGGER companies_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
FOR EACH STATEMENT EXECUTE FUNCTION jobsd_bump_version();

--bun:split

CREATE TRIGGER jobs_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON jobs
FOR EACH STATEMENT EXECUTE FUNCTION jobsd_bump_version();

--bun:split

DROP TRIGGER job_changes_advance ON job_changes;

--bun:split

DROP FUNCTION jobsd_feed_advance();

--bun:split

ALTER TABLE jobsd_feed DROP COLUMN instance;

--bun:split

ALTER TABLE jobsd_feed DROP COLUMN last_seq;
