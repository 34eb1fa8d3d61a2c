-- A company's slug names its page (GET /api/v1/companies/{slug}): its name
-- folded to lower-case ASCII words joined by '-'. Imports write it; jobsd
-- migrate and serve fill it for companies stored before this column.
ALTER TABLE companies ADD COLUMN slug text NOT NULL DEFAULT '';

--bun:split

CREATE INDEX companies_slug ON companies (slug);
