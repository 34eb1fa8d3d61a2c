package seed_test

import (
	"bytes"
	"encoding/json"
	"testing"

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
