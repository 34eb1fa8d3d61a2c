-- The number of the feed's last change, kept by a trigger so that no
-- writer can forget it: a server's index is of one change, and the
-- statement that reads a page's rows checks that the database (a replica,
-- perhaps) has reached it. It replaces the data version, which any write
-- advanced and which made the index be built again.
ALTER TABLE jobsd_feed ADD COLUMN last_seq bigint NOT NULL DEFAULT 0;

--bun:split

UPDATE jobsd_feed SET last_seq = coalesce((SELECT max(seq) FROM job_changes), 0);

--bun:split

-- Names this database's feed, for an index a server saved to a file: it
-- may be loaded only where it was made.
ALTER TABLE jobsd_feed ADD COLUMN instance uuid NOT NULL DEFAULT gen_random_uuid();

--bun:split

CREATE FUNCTION jobsd_feed_advance() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE jobsd_feed SET last_seq = greatest(last_seq, (SELECT max(seq) FROM new_changes));
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER job_changes_advance AFTER INSERT ON job_changes
REFERENCING NEW TABLE AS new_changes
FOR EACH STATEMENT EXECUTE FUNCTION jobsd_feed_advance();

--bun:split

DROP TRIGGER jobs_data_version ON jobs;

--bun:split

DROP TRIGGER companies_data_version ON companies;
