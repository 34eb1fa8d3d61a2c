package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/store"
)

// BenchmarkFindJobCardsSQL lists a page of 25 generated jobs matching a
// keyword (q), which the in-process index cannot answer: the total and the
// page are counted and read in SQL, in one read-only snapshot.
// Run with: go test -run '^$' -bench FindJobCardsSQL -benchmem ./store
func BenchmarkFindJobCardsSQL(b *testing.B) {
	ctx := context.Background()
	st, norm, _, _ := seeded(b, 2000)
	q := "engineer"
	query, err := search.ReadJobQuery(norm, &domain.JobFilter{Q: &q}, search.Page{Limit: new(25)}, nil)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		cards, total, _, err := st.FindJobCards(ctx, query)
		if err != nil || len(cards) == 0 || total < len(cards) {
			b.Fatalf("%d cards of %d: %v", len(cards), total, err)
		}
	}
}

// BenchmarkFindJobCardsIndex lists the newest page of 25 generated jobs
// through the in-process index (the ids from the index, the cards by id
// in one prepared statement), without and with the cards' list extras
// (GraphQL's postedAt, companyLogo, summary).
// Run with: go test -run '^$' -bench FindJobCardsIndex -benchmem ./store
func BenchmarkFindJobCardsIndex(b *testing.B) {
	ctx := context.Background()
	_, norm, db, _ := seeded(b, 2000)
	st, _ := startIndexed(b, db, store.IndexOptions{Poll: time.Second})
	query, err := search.ReadJobQuery(norm, &domain.JobFilter{}, search.Page{Limit: new(25)}, nil)
	require.NoError(b, err)
	for _, bc := range []struct {
		name   string
		extras bool
	}{{"plain", false}, {"extras", true}} {
		query.CardExtras = bc.extras
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cards, total, _, err := st.FindJobCards(ctx, query)
				if err != nil || len(cards) != 25 || total < len(cards) {
					b.Fatalf("%d cards of %d: %v", len(cards), total, err)
				}
			}
		})
	}
}
