-- A job re-imported with the description it had keeps its row of
-- job_texts: stemming and indexing the description again would cost more
-- than the rest of the import, and keyword search would miss the job by
-- its description meanwhile. job_texts therefore loses its foreign key,
-- whose cascade dropped the row with the replaced record; a trigger drops
-- the rows of deleted jobs instead, except in an import, which sets
-- jobsd.keep_texts and keeps job_texts exact itself (store.Import.Write).
--
-- stale: the row's document is the job's new search_tsv joined to the
-- document of its previous record (same description, other title,
-- company, skills or summary); the text indexer rebuilds it.
ALTER TABLE job_texts ADD COLUMN stale boolean NOT NULL DEFAULT false;

--bun:split

ALTER TABLE job_texts DROP CONSTRAINT job_texts_job_id_fkey;

--bun:split

CREATE FUNCTION jobsd_drop_job_text() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM job_texts WHERE job_id = OLD.id;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER jobs_drop_text AFTER DELETE ON jobs
FOR EACH ROW WHEN (current_setting('jobsd.keep_texts', true) IS DISTINCT FROM 'on')
EXECUTE FUNCTION jobsd_drop_job_text();

--bun:split

CREATE FUNCTION jobsd_drop_job_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE job_texts;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER jobs_truncate_texts AFTER TRUNCATE ON jobs
FOR EACH STATEMENT EXECUTE FUNCTION jobsd_drop_job_texts();
