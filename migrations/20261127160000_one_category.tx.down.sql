-- The columns come back empty: jobsd renormalize with the earlier binary
-- fills them again.
ALTER TABLE jobs ADD COLUMN title_field text, ADD COLUMN title_role text, ADD COLUMN title_specialization text;
