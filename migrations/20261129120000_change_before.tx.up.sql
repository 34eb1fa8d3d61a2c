-- What a change found: each change that replaced or closed an open
-- posting keeps the posting as it was just before (the columns the
-- in-memory index and a card read), so that a reader that comes after
-- several changes of one posting still judges each change by the states
-- just before and just after it (contract section 15), and sends the card
-- of each. store.jobStateColumns lists the attributes in this order.
CREATE TYPE job_state AS (
    id                      text COLLATE "C",
    company_id              bigint,
    title                   text,
    company                 text,
    company_logo            text,
    posted_at               timestamptz,
    posted_sort             timestamptz,
    location_city           text[],
    location_state          text[],
    location_country        text[],
    location_full           text,
    work_arrangement        text,
    employment_type         text,
    salary_min              double precision,
    salary_max              double precision,
    salary_currency         text,
    salary_period           text,
    salary_annual_min       double precision,
    salary_annual_max       double precision,
    summary                 text,
    skills                  text[],
    education_levels        text[],
    visa_sponsorship        text[],
    security_clearances     text[],
    category_field          text,
    category_role           text,
    category_specialization text,
    filter_keys             text[]
);

--bun:split

-- Null for an opening (nothing was open), and for the changes written
-- before this column.
ALTER TABLE job_changes ADD COLUMN before job_state;
