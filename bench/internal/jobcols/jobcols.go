// Package jobcols names the columns of jobs that jobsd reads a whole job
// from (its job-by-id statement), for the tools that measure that
// statement without jobsd: benchload's yardsticks and benchfloor.
//
// The tools read them from PostgreSQL's catalog rather than from package
// store, so that the service exports nothing for them: every stored
// column of jobs in table order except the generated ones (posted_sort,
// title_tsv, search_tsv) and those jobsd keeps for itself and never
// returns (content_hash, filter_keys, given, imported_at). This is the column list of
// store's jobByIDSQL, the columns the import writes but its own three; the
// tools' tests check the rule on a migrated database.
package jobcols

// Query answers one text: the columns, comma-and-space separated, in the
// table's order; "" when there is no such column (an error when there is
// no table jobs).
const Query = `SELECT coalesce(string_agg(attname, ', ' ORDER BY attnum), '') FROM pg_attribute
WHERE attrelid = 'jobs'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
  AND attname NOT IN ('content_hash', 'filter_keys', 'given', 'imported_at')`
