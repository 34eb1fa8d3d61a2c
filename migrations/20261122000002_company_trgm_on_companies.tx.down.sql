DROP INDEX IF EXISTS companies_name_trgm;

--bun:split

CREATE INDEX jobs_company_trgm ON jobs USING gin (company gin_trgm_ops);
