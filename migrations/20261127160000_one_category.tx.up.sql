-- One category per job: the title intent and similar jobs match the
-- category a job shows (category_*), so the category of the title alone
-- is no longer kept. The postings stay; jobsd renormalize drops the
-- title_* keys from their filter keys (serve warns until it has run).
ALTER TABLE jobs DROP COLUMN title_field, DROP COLUMN title_role, DROP COLUMN title_specialization;
