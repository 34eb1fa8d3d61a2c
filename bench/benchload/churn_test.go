package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestChurnFile: the churn's import writes the seed's first postings with
// their seed ids, then tombstones of as many other open postings as asked,
// none of them a replaced one.
func TestChurnFile(t *testing.T) {
	ctx := context.Background()
	db, err := pgx.Connect(ctx, pgtest.NewLoadedURL(t))
	require.NoError(t, err)
	defer db.Close(ctx)

	var buf bytes.Buffer
	require.NoError(t, writeChurn(ctx, db, &buf, 4, 3))
	var written, tombstones []string
	for dec := json.NewDecoder(&buf); dec.More(); {
		var line struct {
			ID     string
			Title  string
			Closed bool
		}
		require.NoError(t, dec.Decode(&line))
		if line.Closed {
			tombstones = append(tombstones, line.ID)
			continue
		}
		assert.Empty(t, tombstones, "the postings come before the tombstones")
		assert.NotEmpty(t, line.Title)
		written = append(written, line.ID)
	}
	assert.Len(t, written, 4)
	require.Len(t, tombstones, 3)
	for _, id := range tombstones {
		assert.NotContains(t, written, id)
		var open bool
		require.NoError(t, db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM jobs WHERE id = $1)`, id).Scan(&open))
		assert.True(t, open, "%s is an open posting", id)
	}

	var all int
	require.NoError(t, db.QueryRow(ctx, `SELECT count(*) FROM jobs`).Scan(&all))
	assert.ErrorContains(t, writeChurn(ctx, db, &bytes.Buffer{}, 1, all+1), "to close")
}

// TestChurnReport: the memory targets apply from N = 1,000,000, where a
// miss is named; a problem is listed at any N.
func TestChurnReport(t *testing.T) {
	r := &churnResult{Config: churnConfig{N: 1000000, Replace: 100000, Close: 50000, Conns: 4, Settle: time.Minute, Commit: "abc1234",
		Database: "a copy"}, Before: 300 << 20, Peak: 590 << 20, Settled: 330 << 20, Total: 950000, SQLTotal: 950000}
	assert.Empty(t, r.targetMisses())
	md := r.markdown()
	assert.Contains(t, md, churnBeginMarker(1000000))
	assert.Contains(t, md, "| peak (VmHWM, from the import's start until jobsd was idle again) | 590 | ≤ 600 MiB |")
	assert.Contains(t, md, "Targets met.")
	assert.Contains(t, md, churnEndMarker+"\n")

	r.Peak, r.Settled = 622<<20, 410<<20
	assert.Equal(t, []string{"peak RSS 622 MiB > 600 MiB", "settled RSS 410 MiB > 400 MiB"}, r.targetMisses())
	assert.Contains(t, r.markdown(), "Targets missed: peak RSS 622 MiB > 600 MiB; settled RSS 410 MiB > 400 MiB.")

	r.Config.N = 200000
	assert.Empty(t, r.targetMisses())
	assert.Contains(t, r.markdown(), "— (set at N = 1,000,000)")
	r.Problems = []string{"jobsd's total 1, SQL's 2"}
	assert.Contains(t, r.markdown(), "- PROBLEM: jobsd's total 1, SQL's 2")
}
