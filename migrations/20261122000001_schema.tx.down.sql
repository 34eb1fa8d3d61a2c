DROP TABLE IF EXISTS api_keys;

--bun:split

DROP TABLE IF EXISTS jobs;

--bun:split

DROP TABLE IF EXISTS companies;

--bun:split

DROP FUNCTION IF EXISTS jobsd_join(text[]);
