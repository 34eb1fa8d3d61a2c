package store_test

import (
	"context"
	"testing"
)

// BenchmarkJobByID reads whole generated jobs (about 6.7 KB each) one at a
// time from a real database, as GET /api/v1/jobs/{id} does: the time is
// mostly PostgreSQL's and the round trip's, the allocations the store's.
// Run with: go test -run '^$' -bench JobByID -benchmem ./store
func BenchmarkJobByID(b *testing.B) {
	ctx := context.Background()
	st, _, _, ids := seeded(b, 200)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		job, err := st.JobByID(ctx, ids[i%len(ids)])
		if err != nil || job == nil {
			b.Fatalf("job %s: %v", ids[i%len(ids)], err)
		}
		i++
	}
}
