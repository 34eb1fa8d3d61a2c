-- The values a source gave, where they differ from the normalized ones
-- (a JSON object; NULL when every value was stored as given), so that
-- jobsd renormalize can derive every stored record again after the
-- vocabularies change.
ALTER TABLE jobs ADD COLUMN given jsonb;

--bun:split

ALTER TABLE jobs ALTER COLUMN given SET COMPRESSION lz4;

--bun:split

-- The vocabularies the stored jobs were normalized with, by digest: each
-- import adds its own, jobsd renormalize leaves only its own. serve warns
-- when one differs from the vocabulary it uses.
CREATE TABLE jobsd_vocabulary (
    digest      text        PRIMARY KEY,
    recorded_at timestamptz NOT NULL DEFAULT now()
);
