package cachedir_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/cachedir"
)

func TestPrune(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	write := func(name string, size int, age time.Duration) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, make([]byte, size), 0o644))
		require.NoError(t, os.Chtimes(path, now.Add(-age), now.Add(-age)))
		return path
	}
	day := 24 * time.Hour
	write("a.bin", 100, 20*day)         // unused too long
	write("b.bin", 100, 3*day)          // the least lately used of the rest
	write("c.bin", 100, 2*day)          // within the size once b is gone
	keep := write("d.bin", 100, 40*day) // old, but the one in use
	write("e.bin", 100, time.Hour)
	write("f.bin.123.tmp", 10, 2*time.Hour) // a dead write's
	write("g.bin.456.tmp", 10, time.Minute) // a write under way
	write("notes.txt", 1000, 100*day)       // not the cache's

	removed := cachedir.Prune(dir, []string{"*.bin"}, []string{"*.tmp"}, cachedir.Bounds{MaxAge: 14 * day, MaxBytes: 300},
		time.Hour, keep, now)
	assert.Equal(t, 3, removed)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	assert.Equal(t, []string{"c.bin", "d.bin", "e.bin", "g.bin.456.tmp", "notes.txt"}, names)

	cachedir.Touch(filepath.Join(dir, "c.bin"), now.Add(time.Minute))
	removed = cachedir.Prune(dir, []string{"*.bin"}, nil, cachedir.Bounds{MaxAge: 14 * day, MaxBytes: 200}, time.Hour, keep, now.Add(time.Minute))
	assert.Equal(t, 1, removed, "e.bin, used before c.bin was touched")
	_, err = os.Stat(filepath.Join(dir, "e.bin"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	assert.Zero(t, cachedir.Prune(filepath.Join(dir, "none"), []string{"*.bin"}, nil, cachedir.Bounds{MaxBytes: 1}, time.Hour, "", now))
}
