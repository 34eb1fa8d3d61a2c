package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/sync/errgroup"
)

// textIndexBatch is how many jobs one IndexTexts transaction indexes: about
// a tenth of a second of stemming, the longest an import waits for it.
const textIndexBatch = 500

// maxIndexedDescription is how much of a description keyword search reads:
// a tsvector holds at most 1 MB, and one description over it would stop
// the indexing of every job after it.
const maxIndexedDescription = 100_000

// errImporting says that a text-index batch did not start because an
// import holds the import lock or waits for it.
var errImporting = errors.New("an import is running")

// IndexTexts indexes for keyword search the descriptions of the jobs that
// have no row in job_texts yet, or a stale one, a batch at a time, until
// none is left or ctx ends, and returns how many it indexed. workers (at
// least 1) index disjoint parts of the jobs side by side. While an import
// runs, it waits for it. progress, when not nil, is told the running count
// (from any worker).
//
// Several indexers, in this process or others, may run at once: a batch
// claims its jobs with FOR UPDATE SKIP LOCKED, so that no two batches
// stem the same job, and writes with ON CONFLICT, so that a job another
// indexer has just indexed is neither an error nor counted twice.
func (s *Store) IndexTexts(ctx context.Context, workers int, progress func(indexed int)) (int, error) {
	return s.indexTexts(ctx, workers, true, progress)
}

// indexTexts is IndexTexts; with wait false, it returns errImporting
// instead of waiting for an import.
func (s *Store) indexTexts(ctx context.Context, workers int, wait bool, progress func(indexed int)) (int, error) {
	workers = max(workers, 1)
	var total atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for part := range workers {
		g.Go(func() (err error) {
			// errgroup does not recover a worker's panic: it would end the
			// process. It becomes the pass's error instead.
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("index job texts: panic: %v\n%s", r, debug.Stack())
				}
			}()
			last := ""
			for {
				b, err := s.indexTextBatch(ctx, wait, last, part, workers)
				if err != nil || b.claimed == 0 {
					return err
				}
				last = b.last
				if t := total.Add(int64(b.written)); progress != nil {
					progress(int(t))
				}
			}
		})
	}
	err := g.Wait()
	return int(total.Load()), err
}

// textBatch is what one text-index batch did.
type textBatch struct {
	claimed int    // jobs the batch claimed
	written int    // documents it wrote (not those another indexer had)
	last    string // the greatest id it claimed
}

// indexTextBatch indexes the next batch of part's (of parts, by a hash of
// the id) unindexed or stale jobs after the id last, in id order.
//
// Each batch holds the import lock shared, so that no import replaces a
// job between the read of its text and the write of its document, while
// batches of other workers go on. With wait, it waits for an import under
// way (no statement timeout ends the wait); without, it returns
// errImporting at once, also when an import waits for the lock, which
// keeps indexers from starving an import.
func (s *Store) indexTextBatch(ctx context.Context, wait bool, last string, part, parts int) (textBatch, error) {
	var b textBatch
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if wait {
			if err := waitForLock(ctx, tx, "SELECT pg_advisory_xact_lock_shared(?)", importLockID); err != nil {
				return err
			}
		} else {
			var got bool
			if err := tx.NewRaw("SELECT pg_try_advisory_xact_lock_shared(?)", importLockID).Scan(ctx, &got); err != nil {
				return err
			}
			if !got {
				return errImporting
			}
		}
		// The claim locks ids only: the stemming reads the claimed jobs
		// again, so that it is never spent on a job another batch holds.
		return tx.NewRaw(`WITH batch AS (
    SELECT j.id
    FROM jobs AS j LEFT JOIN job_texts AS t ON t.job_id = j.id
    WHERE j.id > ? AND (? = 1 OR abs(hashtext(j.id) % ?) = ?)
      AND (t.job_id IS NULL OR t.stale)
    ORDER BY j.id
    LIMIT ?
    FOR UPDATE OF j SKIP LOCKED
), written AS (
    INSERT INTO job_texts AS t (job_id, tsv)
    SELECT j.id, j.search_tsv || to_tsvector('english', left(coalesce(j.description, ''), ?))
    FROM batch JOIN jobs AS j ON j.id = batch.id
    ON CONFLICT (job_id) DO UPDATE SET tsv = EXCLUDED.tsv, stale = false WHERE t.stale
    RETURNING t.job_id
)
SELECT (SELECT count(*) FROM batch), (SELECT coalesce(max(id), '') FROM batch), (SELECT count(*) FROM written)`,
			last, parts, parts, part, textIndexBatch, maxIndexedDescription).Scan(ctx, &b.claimed, &b.last, &b.written)
	})
	if errors.Is(err, errImporting) {
		return b, err
	}
	if err != nil {
		return textBatch{}, wrap(err, "index job texts")
	}
	return b, nil
}

// RunTextIndexer indexes new descriptions until ctx ends: a pass whenever
// the change feed moves (checked every poll), and one at start. A pass
// that finds an import running is put off to the next poll; a pass that
// panics is logged with its stack and the indexer goes on after a backoff.
func (s *Store) RunTextIndexer(ctx context.Context, poll time.Duration, log *slog.Logger) {
	var seen int64 = -1
	var backoff panicBackoff
	for {
		panicked := guard(log, "text indexer", func() {
			version, err := feedLast(ctx, s.readPrimary)
			if err != nil || version == seen {
				return
			}
			start := time.Now()
			n, err := s.indexTexts(ctx, 1, false, nil)
			switch {
			case errors.Is(err, errImporting):
				// The import's end moves the feed: the next poll sees it.
			case err != nil && ctx.Err() == nil:
				log.Warn("indexing descriptions for keyword search failed; retrying", "err", err, "indexed", n)
			case err == nil:
				seen = version
				if n > 0 {
					log.Info("indexed descriptions for keyword search", "jobs", n, "took", time.Since(start).Round(time.Millisecond))
				}
			}
		})
		wait := poll
		if panicked {
			wait = max(wait, backoff.next())
		} else {
			backoff.reset()
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
