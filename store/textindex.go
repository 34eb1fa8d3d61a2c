package store

import (
	"context"
	"log/slog"
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

// IndexTexts indexes the descriptions of the jobs that have no row in
// job_texts yet for keyword search, a batch at a time, until none is left
// or ctx ends, and returns how many it indexed. workers (at least 1)
// index disjoint parts of the jobs side by side. Each batch holds the
// import lock shared, so that no import replaces a job between the read of
// its text and the write of its document, while batches of other workers
// go on; an import waits for the batches under way, and they for it.
// progress, when not nil, is told the running count (from any worker).
func (s *Store) IndexTexts(ctx context.Context, workers int, progress func(indexed int)) (int, error) {
	workers = max(workers, 1)
	var total atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for part := range workers {
		g.Go(func() error {
			last := ""
			for {
				n, next, err := s.indexTextBatch(ctx, last, part, workers)
				if err != nil || n == 0 {
					return err
				}
				last = next
				if t := total.Add(int64(n)); progress != nil {
					progress(int(t))
				}
			}
		})
	}
	err := g.Wait()
	return int(total.Load()), err
}

// indexTextBatch indexes the next batch of unindexed jobs of part (of
// parts, by a hash of the id) after the id last, in id order, and returns
// how many it indexed and the last id.
func (s *Store) indexTextBatch(ctx context.Context, last string, part, parts int) (int, string, error) {
	var n int
	var next string
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock_shared(?)", importLockID); err != nil {
			return err
		}
		return tx.NewRaw(`WITH batch AS (
    SELECT j.id, j.search_tsv || to_tsvector('english', left(coalesce(j.description, ''), ?)) AS tsv
    FROM jobs AS j
    WHERE j.id > ? AND (? = 1 OR abs(hashtext(j.id) % ?) = ?)
      AND NOT EXISTS (SELECT 1 FROM job_texts AS t WHERE t.job_id = j.id)
    ORDER BY j.id
    LIMIT ?
), written AS (
    INSERT INTO job_texts (job_id, tsv) SELECT id, tsv FROM batch RETURNING job_id
)
SELECT count(*), coalesce(max(job_id), '') FROM written`, maxIndexedDescription, last, parts, parts, part, textIndexBatch).Scan(ctx, &n, &next)
	})
	if err != nil {
		return 0, "", wrap(err, "index job texts")
	}
	return n, next, nil
}

// RunTextIndexer indexes new descriptions until ctx ends: a pass whenever
// the data version moves (checked every poll), and one at start.
func (s *Store) RunTextIndexer(ctx context.Context, poll time.Duration, log *slog.Logger) {
	var seen int64 = -1
	for {
		var version int64
		err := s.db.NewRaw("SELECT version FROM jobsd_dataset").Scan(ctx, &version)
		if err == nil && version != seen {
			start := time.Now()
			n, err := s.IndexTexts(ctx, 1, nil)
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("indexing descriptions for keyword search failed; retrying", "err", err, "indexed", n)
			case err == nil:
				seen = version
				if n > 0 {
					log.Info("indexed descriptions for keyword search", "jobs", n, "took", time.Since(start).Round(time.Millisecond))
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(poll):
		}
	}
}
