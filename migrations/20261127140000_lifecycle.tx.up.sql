-- The lifecycle of postings (open, changed, closed) and the change feed.
--
-- jobs holds the open postings only, so that every read of jobs (lists,
-- totals, facets, company counts, similar jobs) sees open postings without
-- a condition of its own. Closing a posting moves it to jobs_closed, which
-- keeps what reopening, the 410 answer and a snapshot's scope need until
-- it is purged.
ALTER TABLE jobs ADD COLUMN valid_through timestamptz;

--bun:split

-- The SHA-256 of the row as written (store.jobRow.contentHash): a record
-- written again as it was is unchanged, and neither rewritten nor fed.
ALTER TABLE jobs ADD COLUMN content_hash bytea;

--bun:split

CREATE INDEX jobs_valid_through ON jobs (valid_through) WHERE valid_through IS NOT NULL;

--bun:split

CREATE INDEX jobs_source ON jobs (source, company_id);

--bun:split

-- Ids sort as bytes everywhere (the tie-break of every order), so that the
-- server's in-memory index orders ids as the database does.
ALTER TABLE jobs ALTER COLUMN id TYPE text COLLATE "C";

--bun:split

ALTER TABLE job_texts ALTER COLUMN job_id TYPE text COLLATE "C";

--bun:split

CREATE TABLE jobs_closed (
    id         text COLLATE "C" PRIMARY KEY,
    closed_at  timestamptz NOT NULL,
    source     text,
    company_id bigint
);

--bun:split

CREATE INDEX jobs_closed_at ON jobs_closed (closed_at);

--bun:split

-- The change feed: what happened to which posting, in commit order. Every
-- writer appends under the import lock (store.lockImports), taking its
-- numbers from job_changes_seq only while it holds it, so that a change
-- numbered n is visible to any reader that sees a change numbered above n:
-- readers page by seq without gaps.
CREATE SEQUENCE job_changes_seq;

--bun:split

CREATE TABLE job_changes (
    seq    bigint PRIMARY KEY,
    job_id text COLLATE "C" NOT NULL,
    change text NOT NULL CHECK (change IN ('opened', 'updated', 'closed')),
    at     timestamptz NOT NULL
);

--bun:split

CREATE INDEX job_changes_job ON job_changes (job_id, seq);

--bun:split

-- A purge removes changes (those of purged postings, and superseded old
-- ones) and starts a new epoch; horizon is the last change removed. A
-- cursor of an older epoch from before the horizon is answered gone.
CREATE TABLE jobsd_feed (
    id      boolean PRIMARY KEY DEFAULT true CHECK (id),
    horizon bigint  NOT NULL DEFAULT 0,
    epoch   bigint  NOT NULL DEFAULT 0
);

--bun:split

INSERT INTO jobsd_feed DEFAULT VALUES;

--bun:split

-- The postings stored before the feed existed open it, oldest import
-- first, so that replaying the feed from its start gives the open set.
INSERT INTO job_changes (seq, job_id, change, at)
SELECT nextval('job_changes_seq'), id, 'opened', imported_at
FROM (SELECT id, imported_at FROM jobs ORDER BY imported_at, id) AS j;
