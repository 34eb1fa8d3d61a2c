package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/graph/model"
)

// Import writes jobs in one transaction: nothing is visible until Commit,
// and Rollback leaves the database as it was. Writing a job whose id exists
// replaces it. Commit recounts the jobs of every company an import touched,
// so company job counts stay exact.
type Import struct {
	conn      bun.Conn
	tx        bun.Tx
	companies map[string]int64 // name_key → id
	touched   map[int64]bool   // companies whose job count may have changed
	written   int
	// vocabulary is the digest of the vocabularies the written jobs were
	// normalized with; onlyVocabulary says it replaces those recorded.
	vocabulary     string
	onlyVocabulary bool
}

// BeginImport starts an import on a connection of its own, so that rows can
// be streamed to PostgreSQL with COPY inside the import's transaction.
func (s *Store) BeginImport(ctx context.Context) (*Import, error) {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return nil, fmt.Errorf("begin import: the store must be over a database, not a transaction")
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, wrap(err, "begin import")
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		_ = conn.Close()
		return nil, wrap(err, "begin import")
	}
	im := &Import{conn: conn, tx: tx, companies: map[string]int64{}, touched: map[int64]bool{}}
	for _, stmt := range []string{
		// One import at a time: the recount at commit must see every job of
		// the companies it counts, including jobs another import is moving.
		fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", importLockID),
		// GIN indexes take new entries into a pending list first; a larger
		// list merges them in fewer, larger passes.
		"SET LOCAL gin_pending_list_limit = '64MB'",
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			_ = im.Rollback()
			return nil, wrap(err, "begin import")
		}
	}
	return im, nil
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
	for _, r := range rows {
		im.touched[r.CompanyID] = true
	}
	// Replacing a job is deleting it and writing it anew, in this
	// transaction: set-based, and the rows then stream straight into jobs
	// with COPY. The companies of the replaced jobs lose a job.
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var previous []int64
	if err := im.tx.NewRaw(`WITH gone AS (DELETE FROM jobs WHERE id = ANY(?) RETURNING company_id)
		SELECT DISTINCT company_id FROM gone`, pgdialect.Array(ids)).Scan(ctx, &previous); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return wrap(err, "replace jobs")
	}
	for _, id := range previous {
		im.touched[id] = true
	}
	if err := im.copyRows(ctx, rows); err != nil {
		return err
	}
	im.written += len(rows)
	return nil
}

// copyRows streams rows into jobs with COPY (pgx's binary protocol), on the
// import's connection and so in its transaction.
func (im *Import) copyRows(ctx context.Context, rows []jobRow) error {
	values := make([][]any, len(rows))
	for i := range rows {
		values[i] = rows[i].copyValues()
	}
	err := im.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("the database driver is %T, not pgx", driverConn)
		}
		_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{"jobs"}, copyColumns, pgx.CopyFromRows(values))
		return err
	})
	return wrap(err, "copy jobs")
}

// copyColumns are the columns COPY writes: jobRow's, in its field order
// (imported_at and the generated columns take their defaults).
var copyColumns = func() []string {
	var cols []string
	for _, f := range bun.NewDB(nil, pgdialect.New()).Table(typeOfJobRow).Fields {
		cols = append(cols, f.Name)
	}
	return cols
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
		rows = append(rows, companyRow{Name: recs[i].Company, NameKey: key, LogoURL: logo, Slug: recs[i].CompanySlug})
	}
	if len(rows) == 0 {
		return nil
	}
	_, err := im.tx.NewInsert().Model(&rows).
		On("CONFLICT (name_key) DO UPDATE").
		Set("logo_url = coalesce(EXCLUDED.logo_url, c.logo_url)").
		Set("slug = EXCLUDED.slug").
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

// NormalizedWith records, at Commit, that the written jobs were normalized
// with the vocabularies of digest (normalize.Normalizer.Digest).
func (im *Import) NormalizedWith(digest string) { im.vocabulary = digest }

// Commit recounts the touched companies' jobs, records the vocabulary the
// jobs were normalized with, and commits the import.
func (im *Import) Commit(ctx context.Context) error {
	if err := im.recordVocabulary(ctx); err != nil {
		_ = im.Rollback()
		return err
	}
	ids := make([]int64, 0, len(im.touched))
	for id := range im.touched {
		ids = append(ids, id)
	}
	if len(ids) > 0 {
		_, err := im.tx.NewRaw(`UPDATE companies c SET job_count = (SELECT count(*) FROM jobs j WHERE j.company_id = c.id)
			WHERE c.id = ANY(?)`, pgdialect.Array(ids)).Exec(ctx)
		if err != nil {
			_ = im.Rollback()
			return wrap(err, "count company jobs")
		}
	}
	err := im.tx.Commit()
	_ = im.conn.Close()
	return wrap(err, "commit import")
}

// recordVocabulary adds the import's vocabulary digest to those the stored
// jobs were normalized with, or makes it the only one (renormalize).
func (im *Import) recordVocabulary(ctx context.Context) error {
	if im.vocabulary == "" {
		return nil
	}
	if im.onlyVocabulary {
		if _, err := im.tx.ExecContext(ctx, "DELETE FROM jobsd_vocabulary"); err != nil {
			return wrap(err, "record vocabulary")
		}
	}
	_, err := im.tx.ExecContext(ctx, `INSERT INTO jobsd_vocabulary (digest) VALUES (?)
		ON CONFLICT (digest) DO UPDATE SET recorded_at = now()`, im.vocabulary)
	return wrap(err, "record vocabulary")
}

// Rollback abandons the import; nothing of it is written.
func (im *Import) Rollback() error {
	err := im.tx.Rollback()
	_ = im.conn.Close()
	return err
}
