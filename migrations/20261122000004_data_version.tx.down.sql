DROP TRIGGER companies_data_version ON companies;

--bun:split

DROP TRIGGER jobs_data_version ON jobs;

--bun:split

DROP FUNCTION jobsd_bump_version();

--bun:split

DROP TABLE jobsd_dataset;
