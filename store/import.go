package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/graph/model"
)

// Import writes jobs in one transaction: nothing is visible until Commit,
// and Rollback leaves the database as it was. Writing a job whose id exists
// replaces it. Commit recounts the jobs of every company an import touched,
// so company job counts stay exact.
type Import struct {
	tx        bun.Tx
	companies map[string]int64 // name_key → id
	touched   map[int64]bool   // companies whose job count may have changed
	written   int
}

// BeginImport starts an import.
func (s *Store) BeginImport(ctx context.Context) (*Import, error) {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return nil, fmt.Errorf("begin import: the store must be over a database, not a transaction")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap(err, "begin import")
	}
	// One import at a time: the recount at commit must see every job of
	// the companies it counts, including jobs another import is moving.
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", importLockID); err != nil {
		_ = tx.Rollback()
		return nil, wrap(err, "wait for other imports")
	}
	return &Import{tx: tx, companies: map[string]int64{}, touched: map[int64]bool{}}, nil
}

// importLockID names the advisory lock that serializes imports.
const importLockID = 0x6a6f627364 // "jobsd"

// Written returns the number of jobs written so far (a record repeated in
// one batch counts once).
func (im *Import) Written() int { return im.written }

// Write upserts a batch of normalized records. A later record with the
// same id as an earlier one replaces it.
func (im *Import) Write(ctx context.Context, recs []model.JobRecord) error {
	if len(recs) == 0 {
		return nil
	}
	if err := im.ensureCompanies(ctx, recs); err != nil {
		return err
	}
	byID := make(map[string]int, len(recs))
	rows := make([]jobRow, 0, len(recs))
	for i := range recs {
		row := fromRecord(&recs[i], im.companies[companyKey(recs[i].Company)])
		if k, dup := byID[row.ID]; dup {
			rows[k] = row
			continue
		}
		byID[row.ID] = len(rows)
		rows = append(rows, row)
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
		im.touched[r.CompanyID] = true
	}
	var previous []int64
	if err := im.tx.NewSelect().Table("jobs").Column("company_id").Where("id = ANY(?)", pgdialect.Array(ids)).
		Scan(ctx, &previous); err != nil {
		return wrap(err, "find replaced jobs")
	}
	for _, id := range previous {
		im.touched[id] = true
	}
	q := im.tx.NewInsert().Model(&rows).On("CONFLICT (id) DO UPDATE")
	for _, col := range upsertColumns {
		q = q.Set(col + " = EXCLUDED." + col)
	}
	if _, err := q.Exec(ctx); err != nil {
		return wrap(err, "write jobs")
	}
	im.written += len(rows)
	return nil
}

// upsertColumns are the columns a re-imported job replaces: all but the id.
var upsertColumns = func() []string {
	var cols []string
	for _, f := range bun.NewDB(nil, pgdialect.New()).Table(typeOfJobRow).Fields {
		if f.Name != "id" {
			cols = append(cols, f.Name)
		}
	}
	return append(cols, "imported_at")
}()

func companyKey(name string) string {
	return strings.ToLower(name)
}

// ensureCompanies creates the companies of recs that do not exist yet and
// learns their ids; a logo given by a record becomes the company's logo.
func (im *Import) ensureCompanies(ctx context.Context, recs []model.JobRecord) error {
	var rows []companyRow
	seen := map[string]int{}
	for i := range recs {
		key := companyKey(recs[i].Company)
		logo := recs[i].CompanyLogo
		if k, ok := seen[key]; ok {
			if logo != nil {
				rows[k].LogoURL = logo
			}
			continue
		}
		if _, known := im.companies[key]; known && logo == nil {
			continue
		}
		seen[key] = len(rows)
		rows = append(rows, companyRow{Name: recs[i].Company, NameKey: key, LogoURL: logo})
	}
	if len(rows) == 0 {
		return nil
	}
	_, err := im.tx.NewInsert().Model(&rows).
		On("CONFLICT (name_key) DO UPDATE").
		Set("logo_url = coalesce(EXCLUDED.logo_url, c.logo_url)").
		Returning("id, name_key").
		Exec(ctx)
	if err != nil {
		return wrap(err, "write companies")
	}
	for _, r := range rows {
		im.companies[r.NameKey] = r.ID
	}
	return nil
}

// Commit recounts the touched companies' jobs and commits the import.
func (im *Import) Commit(ctx context.Context) error {
	ids := make([]int64, 0, len(im.touched))
	for id := range im.touched {
		ids = append(ids, id)
	}
	if len(ids) > 0 {
		_, err := im.tx.NewRaw(`UPDATE companies c SET job_count = (SELECT count(*) FROM jobs j WHERE j.company_id = c.id)
			WHERE c.id = ANY(?)`, pgdialect.Array(ids)).Exec(ctx)
		if err != nil {
			_ = im.tx.Rollback()
			return wrap(err, "count company jobs")
		}
	}
	if err := im.tx.Commit(); err != nil {
		return wrap(err, "commit import")
	}
	return nil
}

// Rollback abandons the import; nothing of it is written.
func (im *Import) Rollback() error {
	return im.tx.Rollback()
}
