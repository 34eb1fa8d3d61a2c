package store

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"
)

// ScanBinary exposes scanBinary to the store_test package.
var ScanBinary = scanBinary

// BinaryResults exposes binaryResults to the store_test package.
var BinaryResults = binaryResults

// SetPassHook makes fn run at the start of every background loop's pass
// until the test ends.
func SetPassHook(t testing.TB, fn func(loop string)) {
	passHook.Store(&fn)
	t.Cleanup(func() { passHook.Store(nil) })
}

// SetCountedHook makes fn run between the count and the page of every list
// answered in SQL until the test ends.
func SetCountedHook(t testing.TB, fn func()) {
	countedHook.Store(&fn)
	t.Cleanup(func() { countedHook.Store(nil) })
}

// SetPanicBackoff sets the pause after a panicked pass until the test ends.
func SetPanicBackoff(t testing.TB, d time.Duration) {
	first, last := firstPanicBackoff, lastPanicBackoff
	firstPanicBackoff, lastPanicBackoff = d, d
	t.Cleanup(func() { firstPanicBackoff, lastPanicBackoff = first, last })
}

// StartRebuild exposes startRebuild: a base built in the background, as a
// catch-up too far behind starts one.
func (x *Indexer) StartRebuild(ctx context.Context) { x.startRebuild(ctx) }

// ImportDB is the transaction of an import, for tests to look into.
func ImportDB(im *Import) bun.IDB { return im.tx }

// IndexTextsNoWait is IndexTexts returning ErrImporting rather than waiting
// for an import.
func (s *Store) IndexTextsNoWait(ctx context.Context) (int, error) {
	return s.indexTexts(ctx, 1, false, nil)
}

// ErrImporting exposes errImporting.
var ErrImporting = errImporting

// PruneCache exposes pruneCache and its ages to the store_test package.
var (
	PruneCache  = func(dir string, now time.Time) int { return pruneCache(dir, "", now) }
	CacheMaxAge = IndexCacheBounds.MaxAge
	TempMaxAge  = tempMaxAge
)

// JobStateColumns exposes jobStateColumns to the store_test package.
var JobStateColumns = jobStateColumns
