package store_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
)

// BenchmarkFindJobCardsSQL lists a page of 25 generated jobs matching a
// keyword (q), which the in-process index cannot answer: the total and the
// page are counted and read in SQL, in one read-only snapshot.
// Run with: go test -run '^$' -bench FindJobCardsSQL -benchmem ./store
func BenchmarkFindJobCardsSQL(b *testing.B) {
	ctx := context.Background()
	st, norm, _, _ := seeded(b, 2000)
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
