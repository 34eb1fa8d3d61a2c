package store

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/sameval"
)

// Vocabularies returns the digests of the vocabularies the stored jobs
// were normalized with (normalize.Normalizer.Digest), and whether any job
// is stored. A job whose import recorded no digest adds none.
func (s *Store) Vocabularies(ctx context.Context) (digests []string, anyJob bool, err error) {
	if err := s.db.NewRaw("SELECT digest FROM jobsd_vocabulary ORDER BY recorded_at, digest").Scan(ctx, &digests); err != nil {
		return nil, false, wrap(err, "read vocabularies")
	}
	if err := s.db.NewRaw("SELECT EXISTS (SELECT 1 FROM jobs)").Scan(ctx, &anyJob); err != nil {
		return nil, false, wrap(err, "read vocabularies")
	}
	return digests, anyJob, nil
}

// Rederive normalizes a stored job again from the values its source gave
// (the stored job with given laid over it).
type Rederive func(stored domain.Job, given []byte) (domain.JobRecord, error)

// RenormalizeResult counts what Renormalize did.
type RenormalizeResult struct {
	Jobs    int // jobs read
	Changed int // jobs whose normalized values changed, and were rewritten
}

// renormalizeBatch is how many jobs Renormalize reads at a time.
const renormalizeBatch = 2000

// Renormalize derives every stored job again with rederive and rewrites
// those that come out different, in one transaction (as an import, under
// its lock): the data is either wholly renormalized or left as it was.
// digest then becomes the only vocabulary recorded; progress, when not
// nil, is told how many jobs have been read.
func (s *Store) Renormalize(ctx context.Context, digest string, rederive Rederive, progress func(read int)) (RenormalizeResult, error) {
	var res RenormalizeResult
	im, err := s.BeginImport(ctx)
	if err != nil {
		return res, err
	}
	im.vocabulary, im.onlyVocabulary = digest, true
	last := ""
	for {
		var rows []jobRow
		// Rewritten jobs keep their ids, which are behind the keyset, so
		// no job is read twice.
		err := im.tx.NewSelect().Model(&rows).Where("j.id > ?", last).Order("j.id").Limit(renormalizeBatch).Scan(ctx)
		if err != nil {
			_ = im.Rollback()
			return res, wrap(err, "renormalize: read jobs")
		}
		if len(rows) == 0 {
			break
		}
		var changed []domain.JobRecord
		for i := range rows {
			row := &rows[i]
			rec, err := rederive(*row.toJob(), row.Given)
			if err != nil {
				_ = im.Rollback()
				return res, fmt.Errorf("renormalize job %q: %w", row.ID, err)
			}
			rec.ValidThrough = row.ValidThrough // not a value normalization derives
			if !sameRow(row, fromRecord(&rec, row.CompanyID)) {
				changed = append(changed, rec)
			}
		}
		if err := im.Write(ctx, changed); err != nil {
			_ = im.Rollback()
			return res, fmt.Errorf("renormalize: %w", err)
		}
		res.Jobs += len(rows)
		res.Changed += len(changed)
		last = rows[len(rows)-1].ID
		if progress != nil {
			progress(res.Jobs)
		}
	}
	if err := im.Commit(ctx); err != nil {
		return res, fmt.Errorf("renormalize: %w", err)
	}
	return res, nil
}

// sameRow reports whether a stored row and a row derived anew hold the same
// values: times compared as instants, given values as JSON values, an
// empty list equal to none. A difference this misses only costs a rewrite.
func sameRow(stored *jobRow, derived jobRow) bool {
	a, b := *stored, derived
	if (a.PostedAt == nil) != (b.PostedAt == nil) || (a.PostedAt != nil && !a.PostedAt.Equal(*b.PostedAt)) {
		return false
	}
	if (a.ValidThrough == nil) != (b.ValidThrough == nil) || (a.ValidThrough != nil && !a.ValidThrough.Equal(*b.ValidThrough)) {
		return false
	}
	if !sameJSON(a.Given, b.Given) {
		return false
	}
	a.PostedAt, b.PostedAt, a.ValidThrough, b.ValidThrough, a.Given, b.Given = nil, nil, nil, nil, nil, nil
	a.ContentHash, b.ContentHash = nil, nil // the stored row's own
	return sameval.Equal(reflect.ValueOf(a), reflect.ValueOf(b))
}

func sameJSON(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// DropCompanyLogos sets to null, in one transaction, the logo_url of the
// companies whose logo keep refuses, and returns how many it dropped. An
// import keeps a company's logo when its jobs give none, so an unsafe logo
// already stored (one normalize.SafeURL refuses) leaves only this way;
// jobsd renormalize calls it after Renormalize.
func (s *Store) DropCompanyLogos(ctx context.Context, keep func(logo string) bool) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap(err, "drop company logos")
	}
	defer func() { _ = tx.Rollback() }()
	var rows []struct {
		ID   int64  `bun:"id"`
		Logo string `bun:"logo_url"`
	}
	if err := tx.NewRaw("SELECT id, logo_url FROM companies WHERE logo_url IS NOT NULL FOR UPDATE").Scan(ctx, &rows); err != nil {
		return 0, wrap(err, "drop company logos: read")
	}
	var drop []int64
	for _, r := range rows {
		if !keep(r.Logo) {
			drop = append(drop, r.ID)
		}
	}
	if len(drop) == 0 {
		return 0, nil
	}
	if _, err := tx.NewRaw("UPDATE companies SET logo_url = NULL WHERE id = ANY(?)", pgdialect.Array(drop)).Exec(ctx); err != nil {
		return 0, wrap(err, "drop company logos")
	}
	return len(drop), wrap(tx.Commit(), "drop company logos: commit")
}
