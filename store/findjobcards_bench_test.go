package store_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// BenchmarkFindJobCardsSQL lists a page of 25 generated jobs matching a
// keyword (q), which the in-process index cannot answer: the total and the
// page are counted and read in SQL, in one read-only snapshot.
// Run with: go test -run '^$' -bench FindJobCardsSQL -benchmem ./store
func BenchmarkFindJobCardsSQL(b *testing.B) {
	ctx := context.Background()
	norm, err := normalize.New()
	require.NoError(b, err)
	db := pgtest.NewDB(b)
	st := store.New(db)
	var buf bytes.Buffer
	require.NoError(b, seed.Write(&buf, seed.Options{N: 2000, Seed: 1}))
	_, err = importer.NDJSON(ctx, &buf, norm, st, importer.Options{})
	require.NoError(b, err)
	_, err = db.ExecContext(ctx, "VACUUM ANALYZE")
	require.NoError(b, err)
	q := "engineer"
	query, err := norm.JobQuery(&domain.JobFilter{Q: &q}, new(25), nil, nil, nil)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		cards, total, _, err := st.FindJobCards(ctx, query)
		if err != nil || len(cards) == 0 || total < len(cards) {
			b.Fatalf("%d cards of %d: %v", len(cards), total, err)
		}
	}
}
