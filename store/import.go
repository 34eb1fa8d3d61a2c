package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// Import writes jobs in one transaction: nothing is visible until Commit,
// and Rollback leaves the database as it was. Writing a job whose id exists
// replaces it. Commit recounts the jobs of every company an import touched,
// so company job counts stay exact, and numbers the import's changes into
// the feed (feedPending).
type Import struct {
	conn      bun.Conn
	tx        bun.Tx
	companies map[string]int64 // name_key → id
	touched   map[int64]bool   // companies whose job count may have changed
	written   int
	counts    domain.ImportCounts
	seen      map[string]struct{} // ids a snapshot lists: written, or kept (Keep)
	// scope, when set, makes the import a snapshot of it (SetSnapshot).
	scope           *domain.Scope
	allowMassClose  bool
	scopeOpenBefore int // the scope's open postings when SetSnapshot was called
	// vocabulary is the digest of the vocabularies the written jobs were
	// normalized with; onlyVocabulary says it replaces those recorded.
	vocabulary     string
	onlyVocabulary bool
}

// BeginImport starts an import on a connection of its own, so that rows can
// be streamed to PostgreSQL with COPY inside the import's transaction.
// Imports run one at a time: while another import (or a renormalization)
// runs, BeginImport logs that it waits and waits for it to end, for as
// long as that takes; only ctx ends the wait, never a statement or lock
// timeout.
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
	im := &Import{conn: conn, tx: tx, companies: map[string]int64{}, touched: map[int64]bool{}, seen: map[string]struct{}{}}
	// One import at a time: the recount at commit must see every job of
	// the companies it counts, including jobs another import is moving.
	if err := lockImports(ctx, tx, s.logger()); err != nil {
		_ = im.Rollback()
		return nil, wrap(err, "begin import: take the import lock")
	}
	for _, stmt := range []string{
		// GIN indexes take new entries into a pending list first; a larger
		// list merges them in fewer, larger passes.
		"SET LOCAL gin_pending_list_limit = '64MB'",
		// The import keeps job_texts exact itself (see Write): deleting a
		// job leaves its keyword-search document.
		"SET LOCAL jobsd.keep_texts = 'on'",
		// The replaced jobs that had a keyword-search document, between a
		// batch's delete and its copy (see Write).
		`CREATE TEMP TABLE jobsd_kept_texts (
    job_id           text PRIMARY KEY,
    description_hash bytea NOT NULL,
    search_tsv       tsvector NOT NULL
) ON COMMIT DROP`,
		pendingChangesTable,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			_ = im.Rollback()
			return nil, wrap(err, "begin import")
		}
	}
	return im, nil
}

// lockImports takes the import lock (exclusive) for the rest of tx. When
// another import holds it, it logs that it waits; a text-index batch,
// which holds it shared for a fraction of a second, is waited for
// silently.
func lockImports(ctx context.Context, tx bun.Tx, log *slog.Logger) error {
	var got bool
	if err := tx.NewRaw("SELECT pg_try_advisory_xact_lock(?)", importLockID).Scan(ctx, &got); err != nil {
		return err
	}
	if got {
		return nil
	}
	var importing bool
	err := tx.NewRaw(`SELECT EXISTS (SELECT 1 FROM pg_locks
    WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid = ? AND objid = ? AND objsubid = 1 AND mode = 'ExclusiveLock')`,
		importLockID>>32, importLockID&0xffffffff).Scan(ctx, &importing)
	if err != nil {
		return err
	}
	start := time.Now()
	if importing {
		log.Info("waiting for another import to finish")
	}
	if err := waitForLock(ctx, tx, "SELECT pg_advisory_xact_lock(?)", importLockID); err != nil {
		return err
	}
	if importing {
		log.Info("the other import finished; this one starts", "waited", time.Since(start).Round(time.Millisecond).String())
	}
	return nil
}

// waitForLock runs lock, a statement that waits for a lock, in tx with
// no statement or lock timeout, and then restores both for the rest of tx:
// a wait for an import lasts as long as the import, and only ctx ends it.
func waitForLock(ctx context.Context, tx bun.Tx, lock string, args ...any) error {
	var statementTimeout, lockTimeout string
	if err := tx.NewRaw("SELECT current_setting('statement_timeout'), current_setting('lock_timeout')").
		Scan(ctx, &statementTimeout, &lockTimeout); err != nil {
		return err
	}
	for _, stmt := range []string{"SET LOCAL statement_timeout = 0", "SET LOCAL lock_timeout = 0"} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, lock, args...); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "SELECT set_config('statement_timeout', ?, true), set_config('lock_timeout', ?, true)",
		statementTimeout, lockTimeout)
	return err
}

// importLockID names the advisory lock that serializes imports.
const importLockID = 0x6a6f627364 // "jobsd"

// Written returns the number of jobs written so far (a record repeated in
// one batch counts once).
func (im *Import) Written() int { return im.written }

// Write upserts a batch of normalized records. A later record with the
// same id as an earlier one replaces it. Each record opens its posting
// (new, or closed before), updates it (open, with other content) or leaves
// it unchanged (open, the same content: not written again); a record whose
// valid_through has passed closes its posting at that instant instead.
func (im *Import) Write(ctx context.Context, recs []domain.JobRecord) error {
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
		row.ContentHash = row.contentHash()
		if k, dup := byID[row.ID]; dup {
			rows[k] = row
			continue
		}
		byID[row.ID] = len(rows)
		rows = append(rows, row)
	}
	im.written += len(rows)
	now := time.Now()
	var live, gone []jobRow
	for _, r := range rows {
		if im.scope != nil {
			im.seen[r.ID] = struct{}{} // a million ids of a plain import would be 100+ MB
		}
		if expired(r.ValidThrough, now) {
			gone = append(gone, r)
		} else {
			live = append(live, r)
		}
	}
	if err := im.writeLive(ctx, live); err != nil {
		return err
	}
	return im.writeExpired(ctx, gone)
}

// writeLive writes the records of open postings: those unchanged are
// left as they are, the others deleted and copied anew, and their
// changes fed.
func (im *Import) writeLive(ctx context.Context, rows []jobRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var stored []struct {
		ID   string `bun:"id"`
		Hash []byte `bun:"content_hash"`
	}
	if err := im.tx.NewRaw("SELECT id, content_hash FROM jobs WHERE id = ANY(?)", pgdialect.Array(ids)).
		Scan(ctx, &stored); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return wrap(err, "read the stored jobs")
	}
	hashes := make(map[string][]byte, len(stored))
	for _, st := range stored {
		hashes[st.ID] = st.Hash
	}
	write := rows[:0:0]
	for _, r := range rows {
		if hash, open := hashes[r.ID]; open && bytes.Equal(hash, r.ContentHash) {
			im.counts.Unchanged++
			continue
		}
		write = append(write, r)
		im.touched[r.CompanyID] = true
	}
	if len(write) == 0 {
		return nil
	}
	ids = ids[:0]
	for _, r := range write {
		ids = append(ids, r.ID)
	}
	// Replacing a job is deleting it and writing it anew, in this
	// transaction: set-based, and the rows then stream straight into jobs
	// with COPY. The companies of the replaced jobs lose a job. Each job
	// is fed in the order written: updated, with what it replaced, when
	// the delete finds it open, and opened otherwise (the expiry sweep may
	// have closed it since its hash was read).
	//
	// The delete leaves the replaced jobs' keyword-search documents
	// (job_texts) in place (jobsd.keep_texts): after the copy, restoreTexts
	// drops those whose description changed and keeps the others, so that
	// keyword search finds a re-imported job by its description all along
	// and the text indexer has nothing to redo for it.
	var replaced []closedJob
	if err := im.tx.NewRaw(`WITH w AS (
    SELECT * FROM unnest(?::text[]) WITH ORDINALITY AS w(id, n)
), gone AS (
    DELETE FROM jobs AS j USING w WHERE j.id = w.id
    RETURNING j.id, j.company_id, `+indexedDescriptionHash("j")+` AS description_hash, j.search_tsv, `+jobState("j")+` AS before
), kept AS (
    INSERT INTO pg_temp.jobsd_kept_texts (job_id, description_hash, search_tsv)
    SELECT g.id, g.description_hash, g.search_tsv FROM gone AS g JOIN job_texts AS t ON t.job_id = g.id
), fed AS (
    `+feedPending.insert("c.id", "CASE WHEN (c.before).id IS NULL THEN 'opened' ELSE 'updated' END", "statement_timestamp()", "c.before",
		"w LEFT JOIN gone AS g USING (id)", "w.n")+`
)
SELECT id, company_id FROM gone`, pgdialect.Array(ids)).Scan(ctx, &replaced); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return wrap(err, "replace jobs")
	}
	wasOpen := make(map[string]bool, len(replaced))
	for _, r := range replaced {
		wasOpen[r.ID] = true
		im.touched[r.CompanyID] = true
	}
	for _, r := range write {
		if wasOpen[r.ID] {
			im.counts.Updated++
		} else {
			im.counts.Opened++
		}
	}
	// Opening a closed posting takes it out of jobs_closed.
	if _, err := im.tx.NewRaw("DELETE FROM jobs_closed WHERE id = ANY(?)", pgdialect.Array(ids)).Exec(ctx); err != nil {
		return wrap(err, "reopen jobs")
	}
	if err := im.copyRows(ctx, write); err != nil {
		return err
	}
	return im.restoreTexts(ctx)
}

// writeExpired closes the open postings of records whose valid_through
// has passed, at that instant. A posting not open is recorded closed
// (so that its id answers gone), and counted with the ignored closes.
func (im *Import) writeExpired(ctx context.Context, rows []jobRow) error {
	if len(rows) == 0 {
		return nil
	}
	closes := make([]domain.JobClose, len(rows))
	for i, r := range rows {
		closes[i] = domain.JobClose{ID: r.ID, ClosedAt: r.ValidThrough}
	}
	closed, _, err := im.close(ctx, closes)
	if err != nil {
		return err
	}
	done := make(map[string]bool, len(closed))
	for _, c := range closed {
		done[c.ID] = true
	}
	var ids []string
	var sources []*string
	var ats []time.Time
	var companies []int64
	for _, r := range rows {
		if done[r.ID] {
			continue
		}
		im.counts.CloseIgnored++
		ids, sources, ats, companies = append(ids, r.ID), append(sources, r.Source), append(ats, *r.ValidThrough), append(companies, r.CompanyID)
	}
	if len(ids) == 0 {
		return nil
	}
	_, err = im.tx.NewRaw(`INSERT INTO jobs_closed (id, closed_at, source, company_id)
SELECT * FROM unnest(?::text[], ?::timestamptz[], ?::text[], ?::bigint[])
ON CONFLICT (id) DO NOTHING`, pgdialect.Array(ids), pgdialect.Array(ats), pgdialect.Array(sources), pgdialect.Array(companies)).Exec(ctx)
	return wrap(err, "record expired jobs")
}

// indexedDescriptionHash is the SQL of the SHA-256 of the part of the
// description of the job aliased alias that its keyword-search document
// is made from: two descriptions with one hash make one document.
func indexedDescriptionHash(alias string) string {
	return fmt.Sprintf("sha256(convert_to(left(coalesce(%s.description, ''), %d), 'UTF8'))", alias, maxIndexedDescription)
}

// restoreTexts settles the documents of the jobs a batch replaced
// (jobsd_kept_texts), once their new records are copied. Its invariant:
// a job's row of job_texts, when it has one, holds every lexeme of its
// search_tsv and of its description. A document whose description
// changed is dropped (the job waits for the text indexer, found by its
// search_tsv meanwhile). One whose description is unchanged is kept: as
// it is when the rest of the document (search_tsv) is unchanged too, the
// very document the text indexer would make; otherwise joined to the new
// search_tsv, which may then also match words the job no longer has, and
// marked stale for the text indexer to rebuild.
func (im *Import) restoreTexts(ctx context.Context) error {
	_, err := im.tx.ExecContext(ctx, `WITH k AS (
    DELETE FROM pg_temp.jobsd_kept_texts RETURNING *
), settled AS (
    SELECT k.job_id, `+indexedDescriptionHash("j")+` = k.description_hash AS same_text, j.search_tsv = k.search_tsv AS same_rest, j.search_tsv
    FROM k JOIN jobs AS j ON j.id = k.job_id
), dropped AS (
    DELETE FROM job_texts AS t USING settled AS s WHERE t.job_id = s.job_id AND NOT s.same_text
)
UPDATE job_texts AS t SET tsv = s.search_tsv || t.tsv, stale = true
FROM settled AS s WHERE t.job_id = s.job_id AND s.same_text AND NOT s.same_rest`)
	return wrap(err, "keep the search text of unchanged descriptions")
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
	for _, f := range jobRowFields {
		cols = append(cols, f.Name)
	}
	return cols
}()

func companyKey(name string) string {
	return strings.ToLower(name)
}

// ensureCompanies creates the companies of recs that do not exist yet and
// learns their ids; a logo given by a record becomes the company's logo.
func (im *Import) ensureCompanies(ctx context.Context, recs []domain.JobRecord) error {
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
	// A company that exists and stays as it is is only read: an upsert
	// would lock it until the import commits, and the expiry sweep would
	// wait for the import to recount it. One the import writes it
	// recounts itself (touched).
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.NameKey
	}
	var stored []companyRow
	if err := im.tx.NewSelect().Model(&stored).Column("id", "name_key", "logo_url", "slug").
		Where("name_key IN (?)", bun.In(keys)).Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return wrap(err, "read companies")
	}
	byKey := make(map[string]companyRow, len(stored))
	for _, c := range stored {
		byKey[c.NameKey] = c
	}
	write := rows[:0]
	for _, r := range rows {
		c, ok := byKey[r.NameKey]
		if ok && c.Slug == r.Slug && (r.LogoURL == nil || c.LogoURL != nil && *c.LogoURL == *r.LogoURL) {
			im.companies[r.NameKey] = c.ID
			continue
		}
		write = append(write, r)
	}
	if rows = write; len(rows) == 0 {
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
		im.touched[r.ID] = true
	}
	return nil
}

// NormalizedWith records, at Commit, that the written jobs were normalized
// with the vocabularies of digest (normalize.Normalizer.Digest).
func (im *Import) NormalizedWith(digest string) { im.vocabulary = digest }

// Commit closes what a snapshot lacks, records the vocabulary the jobs
// were normalized with, recounts the touched companies' jobs, numbers the
// import's changes into the feed, and commits the import.
func (im *Import) Commit(ctx context.Context) error {
	if err := im.closeUnlisted(ctx); err != nil {
		_ = im.Rollback()
		return err
	}
	if err := im.recordVocabulary(ctx); err != nil {
		_ = im.Rollback()
		return err
	}
	// From here to the commit the import holds the feed lock: the expiry
	// sweep, which may have run all along, waits, and the counts see what
	// it closed.
	for _, step := range []func(context.Context) error{
		func(ctx context.Context) error { return lockFeed(ctx, im.tx) },
		func(ctx context.Context) error { return recountCompanies(ctx, im.tx, im.touched, false) },
		func(ctx context.Context) error { return flushPending(ctx, im.tx) },
	} {
		if err := step(ctx); err != nil {
			_ = im.Rollback()
			return err
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
