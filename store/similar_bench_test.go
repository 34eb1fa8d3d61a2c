package store_test

import (
	"context"
	"testing"
)

// BenchmarkSimilarJobs reads the 10 postings most similar to one of 5,000
// generated jobs (its role, and its specialization when it shows one), in
// SQL: the job, the peers' count and the page in one read-only snapshot.
// Run with: go test -run '^$' -bench SimilarJobs -benchmem ./store
func BenchmarkSimilarJobs(b *testing.B) {
	ctx := context.Background()
	st, _, _, ids := seeded(b, 5000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		id := ids[i%len(ids)]
		i += 7
		if _, _, err := st.SimilarJobs(ctx, id, 10, false); err != nil {
			b.Fatalf("similar jobs of %s: %v", id, err)
		}
	}
}
