package store_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/store"
)

// TestPruneCache: a save removes the saved indexes unused for long and the
// temporary files of saves that died, and leaves every other file alone.
func TestPruneCache(t *testing.T) {
	now := time.Now()
	files := []struct {
		name    string
		age     time.Duration
		removed bool
	}{
		{"index-a-1-1.bin", store.CacheMaxAge + time.Hour, true},
		{"index-b-2-1.bin", store.CacheMaxAge - time.Hour, false},
		{"index-c-3-2.bin", time.Minute, false},
		{".index-123.tmp", store.TempMaxAge + time.Minute, true},
		{".index-456.tmp", time.Minute, false},
		{"notes.txt", store.CacheMaxAge * 10, false},
		{"index-d-4-1.bin.bak", store.CacheMaxAge * 10, false},
	}
	dir := t.TempDir()
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		require.NoError(t, os.WriteFile(path, []byte("x"), 0o600))
		at := now.Add(-f.age)
		require.NoError(t, os.Chtimes(path, at, at))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "index-e-5-1.bin"), 0o700)) // not a regular file

	want := 0
	for _, f := range files {
		if f.removed {
			want++
		}
	}
	assert.Equal(t, want, store.PruneCache(dir, now))
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		assert.Equal(t, f.removed, os.IsNotExist(err), f.name)
	}
	assert.DirExists(t, filepath.Join(dir, "index-e-5-1.bin"))
	assert.Zero(t, store.PruneCache(filepath.Join(dir, "missing"), now), "a missing directory prunes nothing")
}
