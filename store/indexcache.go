// The index cache: a built base saved to a file, loaded at the next start and brought up to date from the feed.

package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/jobsd-dev/jobsd/index"
	"github.com/jobsd-dev/jobsd/internal/cachedir"
)

// feedPlace names a database's feed and a place in it: an index saved at
// change Last of epoch Epoch of feed Instance in the database of OID
// Database may be brought up to date by the changes after Last while the
// feed's epoch is still Epoch (a purge starts a new epoch, and may remove
// changes after Last). The OID tells apart a copy of the database (CREATE
// DATABASE … TEMPLATE copies the feed's instance with the data).
type feedPlace struct {
	Instance string
	Database int64
	Epoch    int64
	Last     int64
}

// readFeedPlace reads where the feed is, in tx's snapshot.
func readFeedPlace(ctx context.Context, tx pgx.Tx) (feedPlace, error) {
	var p feedPlace
	err := tx.QueryRow(ctx, `SELECT instance::text, (SELECT oid::bigint FROM pg_database WHERE datname = current_database()),
    epoch, last_seq FROM jobsd_feed`).Scan(&p.Instance, &p.Database, &p.Epoch, &p.Last)
	if err != nil {
		return p, fmt.Errorf("read the feed: %w", err)
	}
	return p, nil
}

// The names of the cache's files, as os.CreateTemp and filepath.Match
// read them: a saved index (cacheFile) and the temporary file of a save
// (writeIndexFile). pruneCache removes only files of these names.
const (
	savedPattern = "index-*.bin"
	tempPattern  = ".index-*.tmp"
)

// cacheFile is the file of the index of a feed's epoch (savedPattern).
func (x *Indexer) cacheFile(p feedPlace) string {
	return filepath.Join(x.cacheDir, fmt.Sprintf("index-%s-%d-%d.bin", p.Instance, p.Database, p.Epoch))
}

// loadCached returns the index saved for the database's feed at its
// current epoch, or nil when there is none (or it cannot be read: it is
// then removed).
func (x *Indexer) loadCached(ctx context.Context) *index.Index {
	if x.cacheDir == "" {
		return nil
	}
	var place feedPlace
	if err := readOnly(ctx, x.tail, func(tx pgx.Tx) error {
		var err error
		place, err = readFeedPlace(ctx, tx)
		return err
	}); err != nil {
		x.log.Warn("the saved index is not used", "err", err)
		return nil
	}
	path := x.cacheFile(place)
	f, err := os.Open(path)
	if err != nil {
		if !os.IsNotExist(err) {
			x.log.Warn("the saved index is not used", "path", path, "err", err)
		}
		return nil
	}
	defer f.Close()
	start := time.Now()
	// The file itself, not a buffered reader of it: ReadIndex reads a
	// reader that tells its size in one allocation of that size.
	ix, err := index.ReadIndex(f)
	if err == nil && ix.Version() > place.Last {
		err = fmt.Errorf("it is of change %d, past the feed's last (%d)", ix.Version(), place.Last)
	}
	if err == nil && !ix.UseRates(x.rates()) {
		err = errors.New("its salaries are converted at other currency rates")
	}
	if err != nil {
		x.log.Warn("the saved index cannot be used; it is removed", "path", path, "err", err)
		_ = os.Remove(path)
		return nil
	}
	// Loading counts as use: pruneCache keeps the files used lately.
	cachedir.Touch(path, time.Now())
	x.log.Info("index loaded", "path", path, "version", ix.Version(), "jobs", ix.Len(),
		"took", time.Since(start).Round(time.Millisecond).String())
	return ix
}

// save writes a base index built at place to the cache, replacing the
// feed's older ones. It is written to a temporary file renamed into place,
// so that a reader never sees half of one.
func (x *Indexer) save(ix *index.Index, place feedPlace) {
	if x.cacheDir == "" {
		return
	}
	start := time.Now()
	path := x.cacheFile(place)
	if err := writeIndexFile(x.cacheDir, path, ix); err != nil {
		x.log.Warn("the index is not saved; the next start builds it", "err", err)
		return
	}
	old, _ := filepath.Glob(filepath.Join(x.cacheDir, fmt.Sprintf("index-%s-%d-*.bin", place.Instance, place.Database)))
	for _, p := range old {
		if p != path {
			_ = os.Remove(p)
		}
	}
	if n := pruneCache(x.cacheDir, path, time.Now()); n > 0 {
		x.log.Info("saved indexes removed: unused for long, or the least lately used over the size bound",
			"files", n, "unused_for", IndexCacheBounds.MaxAge.String(), "bound_bytes", IndexCacheBounds.MaxBytes)
	}
	x.log.Info("index saved", "path", path, "version", ix.Version(), "took", time.Since(start).Round(time.Millisecond).String())
}

// tempMaxAge is the age past which a temporary file of a save is taken to
// be left by a process that died while writing it.
const tempMaxAge = time.Hour

// IndexCacheBounds bound the saved indexes: one unused (neither written
// nor loaded) for 14 days is removed, and the least lately used while they
// take more than 2 GiB (a million postings' index is about 165 MB). A
// removed file costs its server one build at its next start.
var IndexCacheBounds = cachedir.Bounds{MaxAge: 14 * 24 * time.Hour, MaxBytes: 2 << 30}

// pruneCache removes from dir the saved indexes out of IndexCacheBounds
// (never keep, the one just saved) and the temporary files of saves older
// than tempMaxAge, and returns how many files it removed. Other files are
// left alone.
func pruneCache(dir, keep string, now time.Time) int {
	return cachedir.Prune(dir, []string{savedPattern}, []string{tempPattern}, IndexCacheBounds, tempMaxAge, keep, now)
}

func writeIndexFile(dir, path string, ix *index.Index) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	w := bufio.NewWriterSize(tmp, 1<<20)
	if _, err := ix.WriteTo(w); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if saved, _ := filepath.Match(savedPattern, filepath.Base(path)); !saved {
		return fmt.Errorf("not an index file name: %s", path)
	}
	return os.Rename(tmp.Name(), path)
}
