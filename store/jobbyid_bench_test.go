package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// BenchmarkJobByID reads whole generated jobs (about 6.7 KB each) one at a
// time from a real database, as GET /api/v1/jobs/{id} does: the time is
// mostly PostgreSQL's and the round trip's, the allocations the store's.
// Run with: go test -run '^$' -bench JobByID -benchmem ./store
func BenchmarkJobByID(b *testing.B) {
	ctx := context.Background()
	norm, err := normalize.New()
	require.NoError(b, err)
	db := pgtest.NewDB(b)
	st := store.New(db)
	var buf bytes.Buffer
	require.NoError(b, seed.Write(&buf, seed.Options{N: 200, Seed: 1}))
	var ids []string
	for dec := json.NewDecoder(bytes.NewReader(buf.Bytes())); dec.More(); {
		var j struct{ ID string }
		require.NoError(b, dec.Decode(&j))
		ids = append(ids, j.ID)
	}
	_, err = importer.NDJSON(ctx, &buf, norm, st, importer.Options{})
	require.NoError(b, err)
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
