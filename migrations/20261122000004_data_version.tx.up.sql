-- The data version: one row whose version every write to jobs or companies
-- advances (a statement-level trigger, so that no writer can forget it).
-- A server keeps in-process structures (its count and facet index) per
-- version, and checks in the statement that fetches a page that the
-- version is still the one they were built from.
CREATE TABLE jobsd_dataset (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    version bigint  NOT NULL DEFAULT 1
);

--bun:split

INSERT INTO jobsd_dataset DEFAULT VALUES;

--bun:split

CREATE FUNCTION jobsd_bump_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE jobsd_dataset SET version = version + 1;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER jobs_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON jobs
FOR EACH STATEMENT EXECUTE FUNCTION jobsd_bump_version();

--bun:split

CREATE TRIGGER companies_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
FOR EACH STATEMENT EXECUTE FUNCTION jobsd_bump_version();
