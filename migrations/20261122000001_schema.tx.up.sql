CREATE EXTENSION IF NOT EXISTS pg_trgm;

--bun:split

-- array_to_string is only STABLE; a generated column needs an IMMUTABLE
-- function, and for text[] joining is immutable.
CREATE FUNCTION jobsd_join(text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_to_string($1, ' ') $$;

--bun:split

CREATE TABLE companies (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name      text    NOT NULL,
    -- lower-cased name: one company however sources capitalize it
    name_key  text    NOT NULL UNIQUE,
    logo_url  text,
    -- kept exact by every import
    job_count integer NOT NULL DEFAULT 0 CHECK (job_count >= 0)
);

--bun:split

CREATE INDEX companies_by_job_count ON companies (job_count DESC, name);

--bun:split

CREATE TABLE jobs (
    id                       text PRIMARY KEY,
    company_id               bigint NOT NULL REFERENCES companies (id),
    title                    text NOT NULL,
    company                  text NOT NULL,
    company_logo             text,
    url                      text,
    posted_at                timestamptz,
    -- the default order's key: undated jobs sort as the oldest
    posted_sort              timestamptz GENERATED ALWAYS AS (coalesce(posted_at, '1970-01-01 00:00:00+00')) STORED,
    location_city            text[] NOT NULL DEFAULT '{}',
    location_state           text[] NOT NULL DEFAULT '{}',
    location_country         text[] NOT NULL DEFAULT '{}',
    location_full            text NOT NULL DEFAULT '',
    work_arrangement         text,
    employment_type          text,
    experience_level         text,
    salary_min               double precision,
    salary_max               double precision,
    salary_currency          text,
    salary_period            text,
    -- salary bounds per year (hourly x 2080, daily x 260, weekly x 52, monthly x 12)
    salary_annual_min        double precision,
    salary_annual_max        double precision,
    summary                  text,
    description              text,
    description_raw          text,
    responsibilities         text[] NOT NULL DEFAULT '{}',
    required_qualifications  text[] NOT NULL DEFAULT '{}',
    preferred_qualifications text[] NOT NULL DEFAULT '{}',
    skills                   text[] NOT NULL DEFAULT '{}',
    tools                    text[] NOT NULL DEFAULT '{}',
    soft_skills              text[] NOT NULL DEFAULT '{}',
    technical_skills         text[] NOT NULL DEFAULT '{}',
    benefits                 text[] NOT NULL DEFAULT '{}',
    education                text[] NOT NULL DEFAULT '{}',
    education_levels         text[] NOT NULL DEFAULT '{}',
    education_majors         text[] NOT NULL DEFAULT '{}',
    certifications           text[] NOT NULL DEFAULT '{}',
    visa_sponsorship         text[] NOT NULL DEFAULT '{}',
    visa_requirements        text[] NOT NULL DEFAULT '{}',
    -- NULL when no clearance applies (specification 2.1)
    security_clearances      text[],
    clearance_status         text,
    travel_percent           double precision CHECK (travel_percent BETWEEN 0 AND 100),
    source                   text,
    category_field           text,
    category_role            text,
    category_specialization  text,
    -- the category the normalizer gives the job's own title (title filter)
    title_field              text,
    title_role               text,
    title_specialization     text,
    -- every exact-match filter value as "field:folded value", one GIN index
    -- for all list, location, category and closed-set filters
    filter_keys              text[] NOT NULL DEFAULT '{}',
    title_tsv                tsvector GENERATED ALWAYS AS (to_tsvector('english', title)) STORED,
    -- keyword search (q) over title, company, skills and summary, weighted in
    -- that order; the description is left out: stemming it costs more than
    -- the whole rest of an import (measured: 0.6 ms a posting).
    search_tsv               tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', company), 'B') ||
        setweight(to_tsvector('english', jobsd_join(skills)), 'C') ||
        setweight(to_tsvector('english', coalesce(summary, '')), 'D')
    ) STORED,
    imported_at              timestamptz NOT NULL DEFAULT now(),
    CHECK (salary_min IS NULL OR salary_max IS NULL OR salary_min <= salary_max)
);

--bun:split

-- lz4 compresses the long texts several times faster than the default
-- pglz; servers built without lz4 keep the default.
DO $$
BEGIN
    ALTER TABLE jobs ALTER COLUMN description SET COMPRESSION lz4,
                     ALTER COLUMN description_raw SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available; long texts use the default compression';
END
$$;

--bun:split

CREATE INDEX jobs_newest ON jobs (posted_sort DESC, id);

--bun:split

CREATE INDEX jobs_filter_keys ON jobs USING gin (filter_keys);

--bun:split

CREATE INDEX jobs_company_trgm ON jobs USING gin (company gin_trgm_ops);

--bun:split

CREATE INDEX jobs_company_id ON jobs (company_id);

--bun:split

CREATE INDEX jobs_salary_annual_max ON jobs (salary_annual_max) WHERE salary_annual_max IS NOT NULL;

--bun:split

CREATE INDEX jobs_salary_annual_min ON jobs (salary_annual_min) WHERE salary_annual_min IS NOT NULL;

--bun:split

CREATE INDEX jobs_title_tsv ON jobs USING gin (title_tsv);

--bun:split

CREATE INDEX jobs_search_tsv ON jobs USING gin (search_tsv);

--bun:split

CREATE TABLE api_keys (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name            text NOT NULL,
    -- the first characters of the key, to tell keys apart in listings
    prefix          text NOT NULL,
    -- SHA-256 of the key; the key itself is never stored
    key_hash        bytea NOT NULL UNIQUE,
    rate_per_second double precision,
    burst           integer,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz,
    revoked_at      timestamptz
);

--bun:split

CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;
