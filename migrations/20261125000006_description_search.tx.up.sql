-- Keyword search (q) over descriptions. Stemming a description costs more
-- than the rest of an import (about 0.2 ms a posting), so it is no
-- generated column of jobs: jobsd serve (or jobsd textindex) fills this
-- table in the background, outside imports. tsv is the whole document of
-- a job, jobs.search_tsv (title, company, skills, summary, weighted) and
-- its description (weight D); a replaced or deleted job loses its row with
-- the job, and is searched by search_tsv alone until it is indexed again.
CREATE TABLE job_texts (
    job_id text     PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    tsv    tsvector NOT NULL
);

--bun:split

ALTER TABLE job_texts ALTER COLUMN tsv SET COMPRESSION lz4;

--bun:split

CREATE INDEX job_texts_tsv ON job_texts USING gin (tsv);
