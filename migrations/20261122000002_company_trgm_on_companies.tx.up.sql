-- The company filter is a substring match on the company name. Jobs
-- repeat a few thousand names across all their rows, so the trigram index
-- moves to companies (one row a name): imports stop maintaining a GIN entry
-- per job, and the filter scans the small table, then the jobs of the
-- matching companies.
DROP INDEX IF EXISTS jobs_company_trgm;

--bun:split

CREATE INDEX companies_name_trgm ON companies USING gin (name gin_trgm_ops);
