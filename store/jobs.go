package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// cardColumns are the columns a job card needs.
var cardColumns = []string{
	"j.id", "j.title", "j.company", "j.location_city", "j.location_state", "j.location_country", "j.location_full",
	"j.work_arrangement", "j.employment_type", "j.salary_min", "j.salary_max", "j.salary_currency", "j.salary_period",
	"j.category_field", "j.category_role", "j.category_specialization", "j.company_id",
}

// extraColumns are the columns of a card's list extras (GraphQL's
// postedAt, companyLogo and summary), read only when a list asks for them
// (domain.JobQuery.CardExtras): a summary is the largest value of a card.
var extraColumns = []string{"j.posted_at", "j.company_logo", "j.summary"}

// cardColumnsFor returns the columns of a list's cards, with their extras
// or without.
func cardColumnsFor(extras bool) []string {
	if extras {
		return append(slices.Clip(cardColumns), extraColumns...)
	}
	return cardColumns
}

// order is one sort order of job lists: its sort key expression, direction,
// and the keyset condition that continues after a cursor.
type order struct {
	key    string // SQL expression of the sort key
	desc   bool
	column string // sort_time or sort_number: where the key is scanned
}

// orders maps each keyset sort to its SQL; ties are broken by id ascending.
var orders = map[domain.JobSort]order{
	domain.JobSortNewest:     {key: "j.posted_sort", desc: true, column: "sort_time"},
	domain.JobSortOldest:     {key: "j.posted_sort", desc: false, column: "sort_time"},
	domain.JobSortSalaryDesc: {key: "coalesce(j.salary_annual_max, -1)", desc: true, column: "sort_number"},
	domain.JobSortSalaryAsc:  {key: "coalesce(j.salary_annual_min, 1e15)", desc: false, column: "sort_number"},
}

// applyFilters adds the WHERE clauses of a job query: every key filter is an
// array overlap on filter_keys (any of its values), and all clauses AND.
func applyFilters(q domain.JobQuery) func(*bun.SelectQuery) *bun.SelectQuery {
	return func(sq *bun.SelectQuery) *bun.SelectQuery {
		for _, f := range q.Filters {
			op := "&&" // any of the values
			if f.All {
				op = "@>" // every value
			}
			sq = sq.Where("j.filter_keys "+op+" ?", pgdialect.Array(f.Keys))
		}
		if q.Company != "" {
			// Companies are one row a name (their trigram index serves the
			// substring); a job's company is its company's name in any case.
			sq = sq.Where("j.company_id IN (SELECT c.id FROM companies AS c WHERE c.name ILIKE ?)", "%"+escapeLike(q.Company)+"%")
		}
		// The full-text rules; textMatchSQL is the same for one job.
		if q.TitleText != "" {
			sq = sq.Where("j.title_tsv @@ plainto_tsquery('english', ?)", q.TitleText)
		}
		if q.Q != "" {
			// The whole document of a job whose description is indexed
			// (job_texts), search_tsv alone for one still waiting.
			sq = sq.Where(`j.id IN (SELECT t.job_id FROM job_texts AS t WHERE t.tsv @@ websearch_to_tsquery('english', ?)
UNION ALL SELECT s.id FROM jobs AS s WHERE s.search_tsv @@ websearch_to_tsquery('english', ?)
AND NOT EXISTS (SELECT 1 FROM job_texts AS u WHERE u.job_id = s.id))`, q.Q, q.Q)
		}
		if q.SalaryMin != nil || q.SalaryMax != nil {
			// Amounts compare in q's currency: converted at its rates, or
			// without rates among the jobs paid in it. The condition is the
			// index's (index.salaryOverlaps): the range reaches the lower
			// bound and starts below the upper one; NULL never does.
			lo, hi := salaryBounds(q.Currency)
			sq = sq.WhereGroup(" AND ", func(g *bun.SelectQuery) *bun.SelectQuery {
				g = g.WhereGroup(" AND ", func(o *bun.SelectQuery) *bun.SelectQuery {
					if q.SalaryMin != nil {
						o = o.Where(hi+" >= ?::float8", queryUnit(*q.SalaryMin, q.Currency))
						if floor, ok := annualFloor(*q.SalaryMin, q.Currency); ok {
							// Implied by the above; the b-tree on the annual
							// maximum can serve it.
							o = o.Where("j.salary_annual_max >= ?::float8", floor)
						}
					}
					if q.SalaryMax != nil {
						o = o.Where(lo+" <= ?::float8", queryUnit(*q.SalaryMax, q.Currency))
					}
					if q.Currency.Rates == nil {
						o = o.Where("j.salary_currency = ?", q.Currency.Code)
					}
					return o
				})
				if q.IncludeUnknownSalary {
					g = g.WhereOr("j.salary_annual_max IS NULL")
				}
				return g
			})
		}
		if q.PostedAfter != nil {
			sq = sq.Where("j.posted_at >= ?", *q.PostedAfter)
		}
		if q.CompanyID != nil {
			sq = sq.Where("j.company_id = ?", *q.CompanyID)
		}
		return sq
	}
}

// textMatchSQL is the condition that the job j matches the full-text part
// of a query (domain.TextQuery) whose title words and keyword search are
// the SQL expressions title and q (” for none): applyFilters' full-text
// rules, judged for one job at a time rather than taken as a set.
func textMatchSQL(title, q string) string {
	return `(` + title + ` = '' OR j.title_tsv @@ plainto_tsquery('english', ` + title + `))
AND (` + q + ` = '' OR coalesce((SELECT t.tsv @@ websearch_to_tsquery('english', ` + q + `) FROM job_texts AS t WHERE t.job_id = j.id),
    j.search_tsv @@ websearch_to_tsquery('english', ` + q + `)))`
}

// escapeLike escapes the LIKE wildcards of s, so that it matches literally.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// FindJobCards returns a page of the job cards matching q, the exact number
// of matching jobs, and the cursor after each card.
func (s *Store) FindJobCards(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
	// After a write the page is asked again of the index brought up to
	// date (a catch-up of milliseconds); its rows are read from the
	// primary the last time, in case a replica lags.
	for try, ix := 0, s.index.index(); ix != nil; try++ {
		page, ok := ix.Search(q)
		if !ok {
			break
		}
		rows, err := s.cardsByID(ctx, ix.Version(), q, page.IDs, try == 2, q.CardExtras)
		switch {
		case err == nil:
			s.index.answered.Add(1)
			return pageOf(q, rows, page.Total, page.Km)
		case !errors.Is(err, errStale):
			return nil, 0, nil, err
		}
		if try == 2 {
			s.index.sqlAnswers.Add(1)
			break
		}
		if ix = s.index.stale(ctx, ix.Version()+1); ix == nil {
			s.index.sqlAnswers.Add(1)
		}
	}
	var rows []cardRow
	var total int
	ord, keyset := orderOf(q)
	// The total and the page are two statements of one snapshot.
	err := s.readSnapshot(ctx, func(db bun.IDB) error {
		n, err := db.NewSelect().Model((*cardRow)(nil)).Apply(applyFilters(q)).Count(ctx)
		if err != nil {
			return wrap(err, "count jobs")
		}
		counted()
		total, rows = int(n), nil
		if total <= q.Offset {
			return nil
		}
		sq := db.NewSelect().Model(&rows).Column(cardColumnsFor(q.CardExtras)...).Apply(applyFilters(q)).Limit(int64(q.Limit))
		if q.Near != nil {
			sq = sq.ColumnExpr(nearKeysSQL + " AS near_keys")
		}
		switch {
		case keyset:
			sq = sq.ColumnExpr(ord.key + " AS " + ord.column)
			dir, cmp := "ASC", ">"
			if ord.desc {
				dir, cmp = "DESC", "<"
			}
			sq = sq.OrderExpr(ord.key + " " + dir).OrderExpr("j.id ASC")
			if c := q.After; c != nil {
				var v any = c.Number
				if ord.column == "sort_time" {
					v = c.Time
				}
				sq = sq.WhereGroup(" AND ", func(g *bun.SelectQuery) *bun.SelectQuery {
					return g.Where(ord.key+" "+cmp+" ?", v).WhereOr("("+ord.key+" = ? AND j.id > ?)", v, c.ID)
				})
			} else {
				sq = sq.Offset(int64(q.Offset))
			}
		case q.Sort == domain.JobSortDistance:
			sq = byDistance(sq, q)
		case q.Sort == domain.JobSortRelevance:
			// Title, company, skills and summary first; the description
			// (in job_texts' whole document) ranks below them all.
			sq = sq.OrderExpr(`ts_rank(j.search_tsv, websearch_to_tsquery('english', ?))
+ 0.01 * coalesce((SELECT ts_rank(t.tsv, websearch_to_tsquery('english', ?)) FROM job_texts AS t WHERE t.job_id = j.id), 0) DESC`, q.Q, q.Q).
				OrderExpr("j.posted_sort DESC").OrderExpr("j.id ASC").Offset(int64(q.Offset))
		}
		if err := sq.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return wrap(err, "find job cards")
		}
		return nil
	})
	if err != nil {
		return nil, 0, nil, err
	}
	return pageOf(q, rows, total, nil)
}

// nearKeysSQL is a job's points (domain.NearKey): a near query's cards
// take their distance from them.
const nearKeysSQL = "ARRAY(SELECT k FROM unnest(j.filter_keys) AS k WHERE starts_with(k, '" + domain.FieldNear + ":'))"

// byDistance orders a near query's page by distance, as the index does: by
// the rank of the nearest of a job's points among the query's (equal
// distances share a rank, domain.NearQuery.Ranks; the jobs at none of
// them, added for being remote, last), then newest first, then id; from
// after the cursor's job, or from the offset.
func byDistance(sq *bun.SelectQuery, q domain.JobQuery) *bun.SelectQuery {
	nq := q.Near
	rank := "coalesce((SELECT min(n.r) FROM unnest(?::text[], ?::int4[]) AS n(k, r) WHERE n.k = ANY(j.filter_keys)), ?)"
	args := []any{pgdialect.Array(nq.Keys), pgdialect.Array(nq.Ranks()), len(nq.Keys)}
	sq = sq.ColumnExpr("j.posted_sort AS sort_time").
		OrderExpr(rank+" ASC", args...).OrderExpr("j.posted_sort DESC").OrderExpr("j.id ASC")
	c := q.After
	if c == nil {
		return sq.Offset(int64(q.Offset))
	}
	at, exact := nq.Rank(c.Number)
	if !exact {
		return sq.Where(rank+" >= ?", append(args, at)...)
	}
	return sq.WhereGroup(" AND ", func(g *bun.SelectQuery) *bun.SelectQuery {
		return g.Where(rank+" > ?", append(args, at)...).
			WhereOr("("+rank+" = ? AND (j.posted_sort < ? OR (j.posted_sort = ? AND j.id > ?)))", append(args, at, c.Time, c.Time, c.ID)...)
	})
}

// countedHook, when set (by tests), runs between the statement that
// counts a list answered in SQL and the one that reads its page.
var countedHook atomic.Pointer[func()]

// counted runs countedHook, if set.
func counted() {
	if h := countedHook.Load(); h != nil {
		(*h)()
	}
}

// pageOf makes the cards of a page's rows, and the cursor after each
// card: the sort key's, or with relevance order the next page's offset.
// A near query's cards take their distance from km (the index's, by row;
// NaN for none) or, read in SQL, from the rows' near keys.
func pageOf(q domain.JobQuery, rows []cardRow, total int, km []float64) ([]domain.JobCard, int, []domain.Cursor, error) {
	_, keyset := orders[q.Sort]
	cards := make([]domain.JobCard, len(rows))
	cursors := make([]domain.Cursor, len(rows))
	for i := range rows {
		cards[i] = rows[i].toCard()
		cursors[i] = domain.Cursor{Sort: q.Sort, ID: rows[i].ID, Offset: q.Offset + i + 1}
		if keyset {
			cursors[i].Time, cursors[i].Number = rows[i].SortTime.UTC(), rows[i].SortNumber
		}
		if q.Near == nil {
			continue
		}
		d, ok := math.NaN(), false
		if km != nil {
			d, ok = km[i], !math.IsNaN(km[i])
		} else {
			d, ok = q.Near.Distance(rows[i].NearKeys)
		}
		if ok {
			cards[i].DistanceKm = domain.ShownKm(d)
		} else {
			d = domain.RemoteDistanceKm
		}
		if q.Sort == domain.JobSortDistance {
			cursors[i].Time, cursors[i].Number = rows[i].SortTime.UTC(), d
		}
	}
	return cards, total, cursors, nil
}

// cardsByID returns the card rows of the jobs with the ids, in their
// order, with the sort's key for the cursor, while the feed's last change
// is the index's version: errStale otherwise (a write committed since, or
// a replica that has not replayed the index's last change yet). The same
// statement checks it, so the rows are of that version, and a list sees
// every write committed before it began. It is the index's hot path: one statement prepared once per
// connection, its ids a parameter, its rows binary and scanned without
// reflection. primary reads from the primary even with replicas; extras
// reads the cards' list extras too (a second prepared statement).
func (s *Store) cardsByID(ctx context.Context, version int64, q domain.JobQuery, ids []string, primary, extras bool) ([]cardRow, error) {
	read := s.read
	if primary {
		read = s.readPrimary
	}
	if len(ids) == 0 { // an empty page is as current as the feed
		last, err := feedLast(ctx, read)
		switch {
		case err != nil:
			return nil, err
		case last != version:
			return nil, errStale
		}
		return nil, nil
	}
	// Each row is scanned into its place in the page, so that no slice of
	// rows is grown and then ordered into another.
	at := make(map[string]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	rows := make([]cardRow, len(ids))
	var found int
	err := read(ctx, func(db bun.IDB) error {
		clear(rows)
		found = 0
		return wrap(withPgx(ctx, db, func(c *pgx.Conn) error {
			res, err := c.Query(ctx, cardsByIDSQL(q, extras), pgx.QueryExecModeCacheStatement, ids, version)
			if err != nil {
				return err
			}
			var r cardRow
			var sortTime *time.Time
			dst := []any{&r.ID, &r.Title, &r.Company, &r.LocationCity, &r.LocationState, &r.LocationCountry, &r.LocationFull,
				&r.WorkArrangement, &r.EmploymentType, &r.SalaryMin, &r.SalaryMax, &r.SalaryCurrency, &r.SalaryPeriod,
				&r.CategoryField, &r.CategoryRole, &r.CategorySpecialization, &r.CompanyID, &sortTime, &r.SortNumber}
			if extras {
				dst = append(dst, &r.PostedAt, &r.CompanyLogo, &r.Summary)
			}
			_, err = pgx.ForEachRow(res, dst, func() error {
				if sortTime != nil {
					r.SortTime = *sortTime
				}
				i, ok := at[r.ID]
				if !ok || rows[i].ID != "" {
					return fmt.Errorf("job %s was not asked for, or came twice", r.ID)
				}
				rows[i], r = r, cardRow{}
				found++
				return nil
			})
			return err
		}), "find job cards")
	})
	if err != nil {
		return nil, err
	}
	if found != len(ids) {
		return nil, errStale
	}
	return rows, nil
}

// withPgx runs fn on a pgx connection of db's pool, for the hot paths that
// use a prepared statement and scan without reflection.
func withPgx(ctx context.Context, db bun.IDB, fn func(*pgx.Conn) error) error {
	bdb, ok := db.(*bun.DB)
	if !ok {
		return fmt.Errorf("the store must be over a database, not a transaction")
	}
	conn, err := bdb.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("the driver is not pgx")
		}
		return fn(c.Conn())
	})
}

// cardsByIDSQL is cardsByID's statement for q's sort: cardColumns, then the
// sort's key as the SQL path scans it (sort_time or sort_number; the other
// NULL or 0; for the distance order posted_sort, its number being the
// index's distance), then with extras extraColumns, for jobs whose id is in $1
// while the feed's last change is $2.
func cardsByIDSQL(q domain.JobQuery, extras bool) string {
	sortTime, sortNumber := "NULL::timestamptz", "0::float8"
	if ord, ok := orderOf(q); ok && ord.column == "sort_time" {
		sortTime = ord.key
	} else if ok {
		sortNumber = ord.key
	} else if q.Sort == domain.JobSortDistance {
		sortTime = "j.posted_sort" // the number is the distance, of near_keys
	}
	more := ""
	if extras {
		more = ", " + strings.Join(extraColumns, ", ")
	}
	return "SELECT " + strings.Join(cardColumns, ", ") + ", " + sortTime + ", " + sortNumber + more +
		" FROM jobs AS j WHERE j.id = ANY($1::text[]) AND (SELECT f.last_seq FROM jobsd_feed AS f) = $2"
}

// jobColumns are the columns of jobs a whole job is read from: every column
// the import writes but the last unreadColumns. (The benchmark tools derive
// the same list from the catalog: bench/internal/jobcols.)
func jobColumns() []string { return slices.Clone(copyColumns[:len(copyColumns)-unreadColumns]) }

// jobByIDSQL reads one whole job ($1).
var jobByIDSQL = "SELECT " + strings.Join(jobColumns(), ", ") + " FROM jobs WHERE id = $1"

// JobByID returns the job with the id, or a not_found error. One statement
// prepared once per connection, its binary values decoded by scanBinary.
func (s *Store) JobByID(ctx context.Context, id string) (*domain.Job, error) {
	var row jobRow
	err := s.read(ctx, func(db bun.IDB) error {
		err := withPgx(ctx, db, func(c *pgx.Conn) error {
			return readJob(ctx, c, id, &row)
		})
		if errors.Is(err, pgx.ErrNoRows) {
			at, closed, err := closedAt(ctx, db, id)
			switch {
			case err != nil:
				return wrap(err, "find job "+id)
			case closed:
				return goneError(id, at)
			}
			return domain.Errorf(domain.CodeNotFound, "no job has id %s", domain.Clip(id))
		}
		return wrap(err, "find job "+id)
	})
	if err != nil {
		return nil, err
	}
	// Expired, and not yet moved to the closed postings.
	if vt := row.ValidThrough; expired(vt, time.Now()) {
		return nil, goneError(id, vt.UTC())
	}
	return row.toJob(), nil
}

// readJob reads the job with the id into row through jobByIDSQL, or
// returns pgx.ErrNoRows. The statement is prepared once per connection;
// when the server no longer has it or its result type changed (a
// migration), it is prepared again and the read retried once.
func readJob(ctx context.Context, c *pgx.Conn, id string, row *jobRow) error {
	err := readJobOnce(ctx, c, id, row)
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok && stalePlanCodes[pgErr.Code] {
		if err := c.Deallocate(ctx, jobByIDSQL); err != nil {
			return err
		}
		return readJobOnce(ctx, c, id, row)
	}
	return err
}

// stalePlanCodes are the SQLSTATEs of a prepared statement that must be
// prepared again: cached plan must not change result type
// (feature_not_supported), and no such statement.
var stalePlanCodes = map[string]bool{"0A000": true, "26000": true}

func readJobOnce(ctx context.Context, c *pgx.Conn, id string, row *jobRow) error {
	sd, err := c.Prepare(ctx, jobByIDSQL, jobByIDSQL)
	if err != nil {
		return err
	}
	targets := row.scanTargets()
	targets = targets[:len(targets)-unreadColumns]
	rr := c.PgConn().ExecStatement(ctx, sd, [][]byte{[]byte(id)}, nil, binaryResults)
	found := false
	var scanErr error
	for rr.NextRow() {
		if !found {
			scanErr = scanBinary(rr.FieldDescriptions(), rr.Values(), targets)
		}
		found = true
	}
	if _, err := rr.Close(); err != nil {
		return err
	}
	if scanErr != nil {
		return scanErr
	}
	if !found {
		return pgx.ErrNoRows
	}
	return nil
}

// Companies returns a page of the companies with at least q.MinJobs jobs,
// by job count descending then name, and the exact number of them. With
// q.Jobs, only the jobs that match it count.
func (s *Store) Companies(ctx context.Context, q domain.CompanyQuery) ([]domain.Company, int, error) {
	// The index knows only companies with jobs: minJobs 0 is SQL's.
	if ix := s.currentIndex(ctx); ix != nil && q.MinJobs >= 1 {
		var jobs domain.JobQuery
		if q.Jobs != nil {
			jobs = *q.Jobs
		}
		if page, total, ok := ix.Companies(jobs, q.MinJobs, q.Limit, q.Offset); ok {
			s.index.answered.Add(1)
			out := make([]domain.Company, len(page))
			for i, c := range page {
				out[i] = domain.Company{Name: c.Name, LogoURL: c.LogoURL, JobCount: c.Count, Slug: c.Slug}
			}
			return out, total, nil
		}
	}
	var rows []companyRow
	var total int
	// count is the job count of c: its kept count, or its matching jobs.
	count := "c.job_count"
	if q.Jobs != nil {
		count = "coalesce(m.n, 0)"
	}
	// The total and the page are two statements of one snapshot.
	err := s.readSnapshot(ctx, func(db bun.IDB) error {
		// With a job filter, a company's count is that of its matching jobs.
		filter := func(sq *bun.SelectQuery) *bun.SelectQuery {
			if q.Jobs != nil {
				matching := db.NewSelect().Model((*cardRow)(nil)).ColumnExpr("j.company_id, count(*) AS n").
					Apply(applyFilters(*q.Jobs)).GroupExpr("j.company_id")
				sq = sq.Join("LEFT JOIN (?) AS m ON m.company_id = c.id", matching)
			}
			return sq.Where(count+" >= ?", q.MinJobs)
		}
		n, err := db.NewSelect().Model((*companyRow)(nil)).Apply(filter).Count(ctx)
		if err != nil {
			return wrap(err, "count companies")
		}
		counted()
		total, rows = int(n), nil
		if total <= q.Offset {
			return nil
		}
		err = db.NewSelect().Model(&rows).Column("c.name", "c.logo_url", "c.slug").ColumnExpr(count + " AS job_count").Apply(filter).
			OrderExpr("job_count DESC").OrderExpr("c.name ASC").OrderExpr("c.id ASC").
			Limit(int64(q.Limit)).Offset(int64(q.Offset)).Scan(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return wrap(err, "find companies")
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]domain.Company, len(rows))
	for i, r := range rows {
		out[i] = domain.Company{Name: r.Name, LogoURL: r.LogoURL, JobCount: r.JobCount, Slug: r.Slug}
	}
	return out, total, nil
}

// CompanyBySlug returns the company page of slug (the company with the
// most jobs, should two names fold to one slug), or a not_found error.
func (s *Store) CompanyBySlug(ctx context.Context, slug string) (*domain.CompanyProfile, error) {
	var p domain.CompanyProfile
	// The company and its counts are statements of one snapshot.
	err := s.readSnapshot(ctx, func(db bun.IDB) error {
		var row companyRow
		err := db.NewSelect().Model(&row).Where("c.slug = ?", slug).
			OrderExpr("c.job_count DESC").OrderExpr("c.id ASC").Limit(1).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.CodeNotFound, "no company has the slug %s", domain.Clip(slug))
		}
		if err != nil {
			return wrap(err, "find company "+slug)
		}
		p = domain.CompanyProfile{ID: row.ID, Name: row.Name, Slug: row.Slug, LogoURL: row.LogoURL, JobCount: row.JobCount}
		for _, c := range []struct {
			column string
			dst    *[]domain.ValueCount
		}{{"category_field", &p.ByCategory}, {"work_arrangement", &p.ByWorkArrangement}} {
			var counts []domain.ValueCount
			err := db.NewSelect().TableExpr("jobs AS j").ColumnExpr("j."+c.column+" AS value, count(*) AS count").
				Where("j.company_id = ?", row.ID).GroupExpr("j."+c.column).
				OrderExpr("count DESC").OrderExpr("value ASC NULLS LAST").Scan(ctx, &counts)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return wrap(err, "count company jobs")
			}
			*c.dst = append([]domain.ValueCount{}, counts...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// FillSlugs gives the companies stored without a slug the one slugOf makes
// of their name, and returns how many it filled.
func (s *Store) FillSlugs(ctx context.Context, slugOf func(string) string) (int, error) {
	var rows []companyRow
	if err := s.db.NewSelect().Model(&rows).Column("c.id", "c.name").Where("c.slug = ''").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, wrap(err, "find companies without a slug")
	}
	for i := range rows {
		rows[i].Slug = slugOf(rows[i].Name)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	values := s.db.NewValues(&rows).Column("id", "slug")
	_, err := s.db.NewUpdate().With("_data", values).Model((*companyRow)(nil)).TableExpr("_data").
		Set("slug = _data.slug").Where("c.id = _data.id").Exec(ctx)
	if err != nil {
		return 0, wrap(err, "fill company slugs")
	}
	return len(rows), nil
}

// SimilarJobs returns up to limit cards of the postings similar to the job
// with the id: of the role its category shows, and of its specialization
// when it shows one; most shared skills first, then those in one of its
// cities, then newest, then by id; never the job itself. It also returns
// how many there are. extras reads the cards' list extras too.
func (s *Store) SimilarJobs(ctx context.Context, id string, limit int, extras bool) ([]domain.JobCard, int, error) {
	var rows []cardRow
	var total int
	// The job, the total and the page are statements of one snapshot.
	err := s.readSnapshot(ctx, func(db bun.IDB) error {
		var me jobRow
		err := db.NewSelect().Model(&me).Column("j.id", "j.category_role", "j.category_specialization", "j.skills", "j.location_city", "j.filter_keys").
			Where("j.id = ?", id).Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Errorf(domain.CodeNotFound, "no job has id %s", domain.Clip(id))
		}
		if err != nil {
			return wrap(err, "find job "+id)
		}
		total, rows = 0, nil
		if me.CategoryRole == nil {
			return nil // a job that shows no role has no peers
		}
		// The category keys of the job, as its filter keys spell them: the
		// GIN index finds the peers.
		var keys []string
		for _, k := range me.FilterKeys {
			if strings.HasPrefix(k, domain.Key(domain.FieldCategoryRole, "")) ||
				me.CategorySpecialization != nil && strings.HasPrefix(k, domain.Key(domain.FieldCategorySpecialization, "")) {
				keys = append(keys, k)
			}
		}
		peers := func(sq *bun.SelectQuery) *bun.SelectQuery {
			return sq.Where("j.filter_keys @> ?", pgdialect.Array(keys)).Where("j.id <> ?", id)
		}
		n, err := db.NewSelect().Model((*cardRow)(nil)).Apply(peers).Count(ctx)
		if err != nil {
			return wrap(err, "count similar jobs")
		}
		total = int(n)
		counted()
		err = db.NewSelect().Model(&rows).Column(cardColumnsFor(extras)...).Apply(peers).
			OrderExpr("cardinality(ARRAY(SELECT unnest(j.skills) INTERSECT SELECT unnest(?::text[]))) DESC", pgdialect.Array(nonNil(me.Skills))).
			OrderExpr("(j.location_city && ?::text[]) DESC", pgdialect.Array(nonNil(me.LocationCity))).
			OrderExpr("j.posted_sort DESC").OrderExpr("j.id ASC").Limit(int64(limit)).Scan(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return wrap(err, "find similar jobs")
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	cards := make([]domain.JobCard, len(rows))
	for i := range rows {
		cards[i] = rows[i].toCard()
	}
	return cards, total, nil
}

// CompaniesByID returns the companies with the ids, by id (one query for a
// whole page's employers).
func (s *Store) CompaniesByID(ctx context.Context, ids []int64) (map[int64]*domain.Company, error) {
	var rows []companyRow
	err := s.read(ctx, func(db bun.IDB) error {
		rows = nil
		err := db.NewSelect().Model(&rows).Column("c.id", "c.name", "c.logo_url", "c.job_count", "c.slug").
			Where("c.id = ANY(?)", pgdialect.Array(ids)).Scan(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return wrap(err, "find companies by id")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*domain.Company, len(rows))
	for _, r := range rows {
		out[r.ID] = &domain.Company{Name: r.Name, LogoURL: r.LogoURL, JobCount: r.JobCount, Slug: r.Slug}
	}
	return out, nil
}
