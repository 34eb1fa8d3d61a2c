// Lifecycle: closing postings (tombstones, snapshots, expiry), purging them, and the change feed.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// feedSink is where a writer's changes go. The feed numbers its changes
// in commit order: a writer numbers them (nextval of job_changes_seq)
// while it holds the feed lock (feedLockID) until it commits, so that a
// reader past a number never sees a lower one appear. The expiry sweep
// writes to the feed itself (feedDirect); an import, which lasts long,
// keeps its changes aside (feedPending) and numbers them all at its
// commit (flushPending), taking the feed lock only then, so that expiry
// never waits for an import to finish.
type feedSink struct {
	// into is the table and columns the changes go into; number is the
	// value of the first column, the change's number, when into has one.
	into, number string
}

var (
	feedDirect  = feedSink{into: "job_changes (seq, job_id, change, at, before)", number: "nextval('job_changes_seq'), "}
	feedPending = feedSink{into: "pg_temp.jobsd_pending_changes (job_id, change, at, before)"}
)

// insert is the SQL that appends the rows of from (ordered by ord) to the
// sink: id, change, at and before are the SQL of their columns.
func (f feedSink) insert(id, change, at, before, from, ord string) string {
	return "INSERT INTO " + f.into + "\nSELECT " + f.number + id + ", " + change + ", " + at + ", " + before +
		" FROM (SELECT * FROM " + from + " ORDER BY " + ord + ") AS c"
}

// jobStateColumns are the attributes of the type job_state, in order:
// what a change keeps of the open posting it replaced or closed (its
// column before), the columns of the index's docs and of cards.
var jobStateColumns = []string{
	"id", "company_id", "title", "company", "company_logo", "posted_at", "posted_sort",
	"location_city", "location_state", "location_country", "location_full",
	"work_arrangement", "employment_type", "salary_min", "salary_max", "salary_currency", "salary_period",
	"salary_annual_min", "salary_annual_max", "summary", "skills", "education_levels", "visa_sponsorship",
	"security_clearances", "category_field", "category_role", "category_specialization", "filter_keys",
}

// jobState is the SQL of the job_state of the jobs row alias: the value
// of a change's before.
func jobState(alias string) string {
	return "ROW(" + alias + "." + strings.Join(jobStateColumns, ", "+alias+".") + ")::job_state"
}

// pendingChangesTable is the SQL of the temporary table of an import's
// changes waiting for their numbers (feedPending), in the order written.
const pendingChangesTable = `CREATE TEMP TABLE jobsd_pending_changes (
    n      bigserial PRIMARY KEY,
    job_id text NOT NULL,
    change text NOT NULL,
    at     timestamptz NOT NULL,
    before job_state
) ON COMMIT DROP`

// flushPending numbers an import's pending changes (feedPending) into
// the feed, in the order they were written. The caller holds the feed
// lock.
func flushPending(ctx context.Context, db bun.IDB) error {
	_, err := db.ExecContext(ctx, feedDirect.insert("c.job_id", "c.change", "c.at", "c.before", "pg_temp.jobsd_pending_changes", "n"))
	return wrap(err, "feed the import's changes")
}

// feedLockID names the advisory lock a writer of the feed holds from
// numbering its changes until it commits (feedSink).
const feedLockID = 0x6a6f627366 // "jobsf"

// lockFeed takes the feed lock for the rest of tx, waiting as long as it
// takes: its holders hold it briefly (an import only while it commits).
func lockFeed(ctx context.Context, tx bun.Tx) error {
	return wrap(waitForLock(ctx, tx, "SELECT pg_advisory_xact_lock(?)", feedLockID), "take the feed lock")
}

// closedJob is a posting closeJobs closed.
type closedJob struct {
	ID        string `bun:"id"`
	CompanyID int64  `bun:"company_id"`
}

// closeJobs closes the open postings among closes (a later close of an id
// wins) at their instants (now when nil): they move from jobs to
// jobs_closed, lose their keyword-search documents, and are fed as
// closed to sink. It returns those it closed; ids not open are left
// alone. The caller recounts the closed jobs' companies. It also returns
// how many distinct ids closes names.
func closeJobs(ctx context.Context, db bun.IDB, sink feedSink, closes []domain.JobClose) ([]closedJob, int, error) {
	if len(closes) == 0 {
		return nil, 0, nil
	}
	last := make(map[string]int, len(closes))
	for i, c := range closes {
		last[c.ID] = i
	}
	ids := make([]string, 0, len(last))
	ats := make([]*time.Time, 0, len(last))
	for i, c := range closes {
		if last[c.ID] == i {
			ids, ats = append(ids, c.ID), append(ats, c.ClosedAt)
		}
	}
	var closed []closedJob
	err := db.NewRaw(`WITH c AS (
    SELECT c.id, coalesce(c.at, statement_timestamp()) AS at, c.n
    FROM unnest(?::text[], ?::timestamptz[]) WITH ORDINALITY AS c(id, at, n)
), gone AS (
    DELETE FROM jobs AS j USING c WHERE j.id = c.id
    RETURNING j.id, j.company_id, j.source, c.at, c.n, `+jobState("j")+` AS before
), texts AS (
    DELETE FROM job_texts AS t USING gone AS g WHERE t.job_id = g.id
), kept AS (
    INSERT INTO jobs_closed (id, closed_at, source, company_id)
    SELECT id, at, source, company_id FROM gone
    ON CONFLICT (id) DO UPDATE SET closed_at = excluded.closed_at, source = excluded.source, company_id = excluded.company_id
), fed AS (
    `+sink.insert("c.id", "'closed'", "c.at", "c.before", "gone", "n")+`
)
SELECT id, company_id FROM gone`, pgdialect.Array(ids), pgdialect.Array(ats)).Scan(ctx, &closed)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, wrap(err, "close jobs")
	}
	return closed, len(ids), nil
}

// companiesOf returns the companies of the closed jobs.
func companiesOf(closed []closedJob) map[int64]bool {
	out := make(map[int64]bool, len(closed))
	for _, c := range closed {
		out[c.CompanyID] = true
	}
	return out
}

// close closes postings in the import's transaction (closeJobs), marking
// their companies for the recount and counting them.
func (im *Import) close(ctx context.Context, closes []domain.JobClose) ([]closedJob, int, error) {
	closed, distinct, err := closeJobs(ctx, im.tx, feedPending, closes)
	if err != nil {
		return nil, 0, err
	}
	for id := range companiesOf(closed) {
		im.touched[id] = true
	}
	im.counts.Closed += len(closed)
	return closed, distinct, nil
}

// recountCompanies sets the job counts of the companies given. With
// skipLocked, it leaves those another transaction is writing (the
// companies an import upserts, which it recounts when it commits); a
// company only referenced by an import's new jobs (a key-share lock) is
// counted.
func recountCompanies(ctx context.Context, db bun.IDB, touched map[int64]bool, skipLocked bool) error {
	if len(touched) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(touched))
	for id := range touched {
		ids = append(ids, id)
	}
	// One pass over the companies' jobs, grouped, rather than a count a
	// company: in the import's own transaction its new rows are not yet
	// visible to an index-only count, and a million of them, counted one
	// company at a time, outlasted the statement timeout.
	if skipLocked {
		if err := db.NewRaw("SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM companies WHERE id = ANY(?) FOR NO KEY UPDATE SKIP LOCKED) AS c",
			pgdialect.Array(ids)).Scan(ctx, pgdialect.Array(&ids)); err != nil {
			return wrap(err, "lock companies to count")
		}
		if len(ids) == 0 {
			return nil
		}
	}
	_, err := db.NewRaw(`UPDATE companies AS c SET job_count = coalesce(n.jobs, 0)
FROM unnest(?::bigint[]) AS t(id)
LEFT JOIN (SELECT j.company_id, count(*) AS jobs FROM jobs AS j WHERE j.company_id = ANY(?) GROUP BY j.company_id) AS n
  ON n.company_id = t.id
WHERE c.id = t.id`, pgdialect.Array(ids), pgdialect.Array(ids)).Exec(ctx)
	return wrap(err, "count company jobs")
}

// Close closes postings in the import's transaction: an import's
// tombstones. Ids unknown or already closed are counted (CloseIgnored),
// not refused.
func (im *Import) Close(ctx context.Context, closes []domain.JobClose) error {
	closed, distinct, err := im.close(ctx, closes)
	if err != nil {
		return err
	}
	im.counts.CloseIgnored += distinct - len(closed)
	return nil
}

// Counts returns what the import has done so far; a snapshot's closes are
// added by Commit.
func (im *Import) Counts() domain.ImportCounts { return im.counts }

// SetSnapshot makes the import the complete list of the postings of scope:
// Commit closes the scope's open postings the import did not write. Unless
// allowMassClose, Commit refuses (MassCloseError) to close more than half of
// them. A scope needs a source.
//
// Call it before writing: the guard compares with the postings the scope
// had open then, so that a crawl of all-new ids cannot pass it by
// doubling the scope first.
func (im *Import) SetSnapshot(ctx context.Context, scope domain.Scope, allowMassClose bool) error {
	if scope.Source == "" {
		return &domain.Error{Code: domain.CodeInvalidParameter, Param: "source",
			Message: "a snapshot import needs the source it lists"}
	}
	if im.written > 0 {
		return fmt.Errorf("set snapshot: %d records were written before it", im.written)
	}
	open, err := im.scopeOpen(ctx, scope)
	if err != nil {
		return err
	}
	im.scope, im.allowMassClose, im.scopeOpenBefore = &scope, allowMassClose, len(open)
	return nil
}

// Keep marks ids as listed by the import without writing them: a
// snapshot leaves their postings open (the ids of lines skipped as
// invalid).
func (im *Import) Keep(ids []string) {
	if im.scope == nil {
		return
	}
	for _, id := range ids {
		im.seen[id] = struct{}{}
	}
}

// scopeOpen returns the ids of the scope's open postings.
func (im *Import) scopeOpen(ctx context.Context, scope domain.Scope) ([]string, error) {
	q := im.tx.NewRaw("SELECT id FROM jobs WHERE source = ?", scope.Source)
	if scope.Company != "" {
		q = im.tx.NewRaw(`SELECT id FROM jobs WHERE source = ?
AND company_id = (SELECT id FROM companies WHERE name_key = ?)`, scope.Source, companyKey(scope.Company))
	}
	var open []string
	if err := q.Scan(ctx, &open); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, wrap(err, "read the snapshot's scope")
	}
	return open, nil
}

// MassCloseError refuses a snapshot that would close more than half of its
// scope's open postings: an empty or broken crawl, most likely.
type MassCloseError struct {
	Scope   domain.Scope
	Open    int // the scope's open postings before the import
	Closing int // those the snapshot lacks
}

func (e *MassCloseError) Error() string {
	return fmt.Sprintf("the snapshot would close %d of the %d open postings of %s (more than half); nothing was written",
		e.Closing, e.Open, e.Scope)
}

// closeUnlisted closes, for a snapshot, the scope's open postings that the
// import did not write.
func (im *Import) closeUnlisted(ctx context.Context) error {
	if im.scope == nil {
		return nil
	}
	open, err := im.scopeOpen(ctx, *im.scope)
	if err != nil {
		return err
	}
	var closes []domain.JobClose
	for _, id := range open {
		if _, ok := im.seen[id]; !ok {
			closes = append(closes, domain.JobClose{ID: id})
		}
	}
	if 2*len(closes) > im.scopeOpenBefore && len(closes) > 0 && !im.allowMassClose {
		return &MassCloseError{Scope: *im.scope, Open: im.scopeOpenBefore, Closing: len(closes)}
	}
	_, _, err = im.close(ctx, closes)
	return err
}

// expired reports whether a posting of that valid_through has closed by
// itself at now; expiredSQL is the same of a row of jobs.
func expired(validThrough *time.Time, now time.Time) bool {
	return validThrough != nil && !validThrough.After(now)
}

const expiredSQL = "valid_through <= now()"

// ExpireDue closes the open postings whose valid_through has passed, at
// that instant, and returns how many it closed. It runs beside an import:
// it leaves the postings and companies the import is writing (which the
// import settles when it commits), and waits only for the feed lock,
// which an import holds only while it commits.
func (s *Store) ExpireDue(ctx context.Context) (int, error) {
	// The earliest valid_through, by the partial index on it: a plan the
	// planner takes whatever its statistics say (right after a large
	// import, with none, EXISTS … WHERE valid_through <= now() scanned
	// every job: 4 s at a million, every round of the sweep).
	var due bool
	if err := s.db.NewRaw(`SELECT coalesce((SELECT valid_through FROM jobs WHERE valid_through IS NOT NULL
ORDER BY valid_through LIMIT 1) <= now(), false)`).Scan(ctx, &due); err != nil {
		return 0, wrap(err, "find expired jobs")
	}
	if !due {
		return 0, nil
	}
	n := 0
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := lockFeed(ctx, tx); err != nil {
			return err
		}
		var expired []struct {
			ID           string    `bun:"id"`
			ValidThrough time.Time `bun:"valid_through"`
		}
		if err := tx.NewRaw(`SELECT id, valid_through FROM jobs WHERE `+expiredSQL+`
ORDER BY valid_through, id LIMIT 10000 FOR UPDATE SKIP LOCKED`).Scan(ctx, &expired); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		closes := make([]domain.JobClose, len(expired))
		for i, e := range expired {
			closes[i] = domain.JobClose{ID: e.ID, ClosedAt: &expired[i].ValidThrough}
		}
		closed, _, err := closeJobs(ctx, tx, feedDirect, closes)
		if err != nil {
			return err
		}
		n = len(closed)
		return recountCompanies(ctx, tx, companiesOf(closed), true)
	})
	if err != nil {
		return 0, wrap(err, "close expired jobs")
	}
	return n, nil
}

// StartExpiry closes postings as their valid_through passes (ExpireDue),
// checking every interval until ctx ends.
func (s *Store) StartExpiry(ctx context.Context, every time.Duration, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		var backoff panicBackoff
		for {
			panicked := guard(log, "expiry", func() {
				n, err := s.ExpireDue(ctx)
				switch {
				case err != nil && ctx.Err() == nil:
					log.Warn("expired postings not closed; retrying", "err", err)
				case n > 0:
					log.Info("expired postings closed", "jobs", n)
				}
			})
			wait := tick.C
			if panicked {
				wait = time.After(backoff.next())
			} else {
				backoff.reset()
			}
			select {
			case <-ctx.Done():
				return
			case <-wait:
			}
		}
	}()
}

// Purge removes the postings closed before the instant for good, with
// their changes, and the changes older than the instant that a later
// change of the same posting supersedes. A client that read the feed
// before may have seen some of what went and not what followed: the
// purge starts a new epoch of the feed, and a cursor of an older epoch
// from before the last change removed (the horizon) is gone. It returns
// how many postings it removed.
func (s *Store) Purge(ctx context.Context, closedBefore time.Time) (int, error) {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return 0, fmt.Errorf("purge: the store must be over a database, not a transaction")
	}
	var n int
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := waitForLock(ctx, tx, "SELECT pg_advisory_xact_lock(?)", importLockID); err != nil {
			return err
		}
		if err := lockFeed(ctx, tx); err != nil {
			return err
		}
		var last sql.NullInt64
		if err := tx.NewRaw(`WITH p AS (
    DELETE FROM jobs_closed WHERE closed_at < ? RETURNING id
), purged AS (
    DELETE FROM job_changes AS jc USING p WHERE jc.job_id = p.id RETURNING jc.seq
), superseded AS (
    DELETE FROM job_changes AS jc WHERE jc.at < ?
      AND EXISTS (SELECT 1 FROM job_changes AS later WHERE later.job_id = jc.job_id AND later.seq > jc.seq)
    RETURNING jc.seq
)
SELECT (SELECT count(*) FROM p),
       greatest((SELECT max(seq) FROM purged), (SELECT max(seq) FROM superseded))`, closedBefore, closedBefore).
			Scan(ctx, &n, &last); err != nil {
			return err
		}
		if last.Valid {
			_, err := tx.NewRaw("UPDATE jobsd_feed SET horizon = greatest(horizon, ?), epoch = epoch + 1", last.Int64).Exec(ctx)
			return err
		}
		return nil
	})
	return n, wrap(err, "purge closed jobs")
}

// Changes returns at most limit changes after the cursor, oldest first,
// the cursor that follows them (after the last, or where after was, in
// the current epoch), and whether more follow. The zero cursor is the
// beginning; a cursor of an epoch before a purge, from before what the
// purge removed, is gone.
func (s *Store) Changes(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	return s.changes(ctx, s.read, after, limit)
}

// PrimaryChanges is Changes read from the primary, which the index follows
// (a replica may not have replayed the changes the index has).
func (s *Store) PrimaryChanges(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	return s.changes(ctx, s.readPrimary, after, limit)
}

// FeedEnd returns the cursor after the feed's last change, read from the
// primary.
func (s *Store) FeedEnd(ctx context.Context) (domain.FeedCursor, error) {
	var c domain.FeedCursor
	err := s.readPrimary(ctx, func(db bun.IDB) error {
		return db.NewRaw("SELECT last_seq, epoch FROM jobsd_feed").Scan(ctx, &c.Seq, &c.Epoch)
	})
	return c, wrap(err, "read the feed's end")
}

// changes is Changes through read.
func (s *Store) changes(ctx context.Context, read func(context.Context, func(bun.IDB) error) error, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	var rows []struct {
		Gone   bool       `bun:"gone"`
		Epoch  int64      `bun:"epoch"`
		Seq    *int64     `bun:"seq"` // nil on the empty page's one row
		ID     *string    `bun:"job_id"`
		Change *string    `bun:"change"`
		At     *time.Time `bun:"at"`
	}
	err := read(ctx, func(db bun.IDB) error {
		// One statement: whether the cursor is gone, the feed's epoch and
		// the page, of one snapshot.
		return db.NewRaw(`WITH f AS (
    SELECT epoch, (?::bigint > 0 AND ?::bigint < epoch AND ?::bigint < horizon) AS gone FROM jobsd_feed
)
SELECT f.gone, f.epoch, c.seq, c.job_id, c.change, c.at
FROM f LEFT JOIN LATERAL (
    SELECT seq, job_id, change, at FROM job_changes WHERE seq > ? ORDER BY seq LIMIT ?
) AS c ON NOT f.gone
ORDER BY c.seq`, after.Seq, after.Epoch, after.Seq, after.Seq, limit+1).Scan(ctx, &rows)
	})
	if err != nil {
		return nil, after, false, wrap(err, "read changes")
	}
	if len(rows) == 0 {
		return nil, after, false, fmt.Errorf("read changes: the feed's row is missing")
	}
	f := rows[0]
	if f.Gone {
		return nil, after, false, &domain.Error{Code: domain.CodeGone, Param: "after",
			Message: "the cursor is older than the changes kept; start again without after"}
	}
	out := make([]domain.Change, 0, len(rows))
	for _, r := range rows {
		if r.Seq != nil {
			out = append(out, domain.Change{Seq: *r.Seq, ID: *r.ID, Change: domain.ChangeKind(*r.Change), At: r.At.UTC()})
		}
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	next := domain.FeedCursor{Seq: after.Seq, Epoch: f.Epoch}
	if len(out) > 0 {
		next.Seq = out[len(out)-1].Seq
	}
	return out, next, more, nil
}

// closedAt returns when the closed posting with the id closed, and false
// when no closed posting has it.
func closedAt(ctx context.Context, db bun.IDB, id string) (time.Time, bool, error) {
	var at time.Time
	err := db.NewRaw("SELECT closed_at FROM jobs_closed WHERE id = ?", id).Scan(ctx, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return at.UTC(), true, nil
}

// goneError is the gone error of a posting closed at the instant.
func goneError(id string, at time.Time) error {
	return &domain.Error{Code: domain.CodeGone, Message: fmt.Sprintf("job %s closed at %s", domain.Clip(id), domain.FormatTime(at)),
		ClosedAt: &at}
}
