package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// seeded returns a store over a fresh database holding n generated jobs
// (seed 1), analyzed, with its normalizer and the jobs' ids.
func seeded(tb testing.TB, n int) (*store.Store, *normalize.Normalizer, *bun.DB, []string) {
	tb.Helper()
	ctx := context.Background()
	norm, err := normalize.New()
	require.NoError(tb, err)
	db := pgtest.NewDB(tb)
	st := store.New(db)
	var buf bytes.Buffer
	require.NoError(tb, seed.Write(&buf, seed.Options{N: n, Seed: 1}))
	var ids []string
	for dec := json.NewDecoder(bytes.NewReader(buf.Bytes())); dec.More(); {
		var j struct{ ID string }
		require.NoError(tb, dec.Decode(&j))
		ids = append(ids, j.ID)
	}
	_, err = importer.NDJSON(ctx, &buf, norm, st, importer.Options{})
	require.NoError(tb, err)
	_, err = db.ExecContext(ctx, "VACUUM ANALYZE")
	require.NoError(tb, err)
	return st, norm, db, ids
}
