-- Every other column of jobs that PostgreSQL compresses (the lists, the
-- keys, the search documents, the summary) compresses with lz4 too: an
-- import spent a tenth of the database's processor time in pglz. Rows
-- already written keep their compression until they are written again.
-- Servers built without lz4 keep the default.
DO $$
DECLARE
    col text;
BEGIN
    FOR col IN
        SELECT a.attname FROM pg_attribute AS a
        WHERE a.attrelid = 'jobs'::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attstorage IN ('x', 'm') AND a.attcompression = ''
    LOOP
        EXECUTE format('ALTER TABLE jobs ALTER COLUMN %I SET COMPRESSION lz4', col);
    END LOOP;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available; the columns keep the default compression';
END
$$;
