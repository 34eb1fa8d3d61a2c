package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/store"
)

// TestIndexCache: a started indexer saves its built index; the next start
// loads it, applies the changes made meanwhile instead of building, and
// answers as SQL does, and marks the file used. A file that cannot be
// read is removed and the index built.
func TestIndexCache(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	dir := t.TempDir()
	start := func() (*store.Store, *store.Indexer, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		st := store.New(e.db)
		x, err := st.StartIndex(ctx, store.IndexOptions{Poll: 20 * time.Millisecond, CacheDir: dir})
		require.NoError(t, err)
		wait, done := context.WithTimeout(ctx, 30*time.Second)
		defer done()
		require.NoError(t, x.WaitReady(wait))
		return st, x, cancel
	}
	saved := func() []string {
		files, err := filepath.Glob(filepath.Join(dir, "index-*.bin"))
		require.NoError(t, err)
		return files
	}

	_, x, stop := start()
	assert.Equal(t, int64(1), x.Stats().Builds)
	require.Eventually(t, func() bool { return len(saved()) == 1 }, 10*time.Second, 10*time.Millisecond, "saved")
	stop()

	// Changes while no server runs: an open, and a close.
	_, err := e.importText(`{"id":"cache-1","title":"Backend Engineer","company":"Cacheco","posted_at":"2031-01-01T00:00:00Z"}`+"\n", importer.Options{})
	require.NoError(t, err)
	var some string
	require.NoError(t, e.db.NewRaw("SELECT id FROM jobs WHERE id <> 'cache-1' ORDER BY id LIMIT 1").Scan(e.ctx, &some))
	im, err := e.st.BeginImport(e.ctx)
	require.NoError(t, err)
	require.NoError(t, im.Close(e.ctx, []domain.JobClose{{ID: some}}))
	require.NoError(t, im.Commit(e.ctx))
	// Loading counts as use (the pruning keeps files used lately).
	aged := time.Now().Add(-72 * time.Hour)
	require.NoError(t, os.Chtimes(saved()[0], aged, aged))

	indexed, x, stop := start()
	defer stop()
	assert.Zero(t, x.Stats().Builds, "loaded, not built")
	info, err := os.Stat(saved()[0])
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), info.ModTime(), time.Minute, "a load marks the file used")
	assert.Equal(t, 2, x.Stats().DeltaJobs, "the changes since were applied")
	q, err := search.ReadJobQuery(e.norm, &domain.JobFilter{}, search.Page{}, nil)
	require.NoError(t, err)
	requireSamePages(t, e, indexed, q, "after a load")
	cards, _, _, err := indexed.FindJobCards(e.ctx, q)
	require.NoError(t, err)
	assert.Equal(t, "cache-1", cards[0].ID)
	stop()

	// A damaged file is removed, and the index built.
	files := saved()
	require.Len(t, files, 1)
	require.NoError(t, os.WriteFile(files[0], []byte("not an index"), 0o600))
	_, x, stop2 := start()
	defer stop2()
	assert.Equal(t, int64(1), x.Stats().Builds)
	// The build is saved again in the background: wait for it, so that
	// the test's directory is not removed under the write.
	require.Eventually(t, func() bool {
		files := saved()
		tmp, _ := filepath.Glob(filepath.Join(dir, ".index-*.tmp"))
		if len(files) != 1 || len(tmp) > 0 {
			return false
		}
		info, err := os.Stat(files[0])
		return err == nil && info.Size() > int64(len("not an index"))
	}, 10*time.Second, 10*time.Millisecond, "saved again")
}
