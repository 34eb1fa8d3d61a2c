-- The columns the up migration set to lz4 go back to the default; the
-- two long texts (description, description_raw) and given, lz4 since
-- they were made, stay as they are.
DO $$
DECLARE
    col text;
BEGIN
    FOR col IN
        SELECT a.attname FROM pg_attribute AS a
        WHERE a.attrelid = 'jobs'::regclass AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attcompression = 'l' AND a.attname NOT IN ('description', 'description_raw', 'given')
    LOOP
        EXECUTE format('ALTER TABLE jobs ALTER COLUMN %I SET COMPRESSION default', col);
    END LOOP;
END
$$;
