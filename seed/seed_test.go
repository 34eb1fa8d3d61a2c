package seed_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
)

// TestNormalized checks that Normalized gives Write's postings, in order,
// each as the normalizer makes it of the posting read back.
func TestNormalized(t *testing.T) {
	norm, err := normalize.New()
	require.NoError(t, err)
	opts := seed.Options{N: 20, Seed: 7}
	jobs, err := seed.Normalized(opts, norm)
	require.NoError(t, err)
	require.Len(t, jobs, opts.N)

	var buf bytes.Buffer
	require.NoError(t, seed.Write(&buf, opts))
	dec := json.NewDecoder(&buf)
	for i := range jobs {
		var j domain.Job
		require.NoError(t, dec.Decode(&j))
		want, err := norm.Job(j)
		require.NoError(t, err)
		assert.Equal(t, want.Job, jobs[i], "posting %d", i)
		assert.NotEqual(t, j, jobs[i], "posting %d is normalized", i)
	}
	assert.False(t, dec.More())
}

// TestLifecycle: with Lifecycle, some postings expire within two weeks of
// it and some are closed by tombstones after the postings; without it the
// postings are the same, with neither.
func TestLifecycle(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var plain, life bytes.Buffer
	require.NoError(t, seed.Write(&plain, seed.Options{N: 600, Seed: 3}))
	require.NoError(t, seed.Write(&life, seed.Options{N: 600, Seed: 3, Lifecycle: at}))
	assert.NotContains(t, plain.String(), "valid_through")
	assert.NotContains(t, plain.String(), `"closed"`)
	lines := strings.Split(strings.TrimSpace(life.String()), "\n")
	require.Len(t, lines, 600+600/seed.ClosedEvery)
	expiring := 0
	for i, line := range lines[:600] {
		var p struct {
			ValidThrough *time.Time `json:"valid_through"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &p))
		if p.ValidThrough != nil {
			expiring++
			assert.True(t, p.ValidThrough.After(at) && p.ValidThrough.Before(at.Add(15*24*time.Hour)), "posting %d", i)
		}
	}
	assert.Equal(t, 600/seed.ExpiringEvery, expiring)
	for _, line := range lines[600:] {
		assert.Contains(t, line, `"closed":true`)
	}
	assert.Equal(t, strings.Split(strings.TrimSpace(plain.String()), "\n")[0], lines[0], "the postings are the same otherwise")
}
