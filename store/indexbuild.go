// Reading the index's jobs from the database: a whole build of one snapshot, and the jobs a batch of changes touched.

package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unique"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// docColumns are what the index needs of a job, in scanDoc's order.
const docColumns = `id, posted_sort, posted_at IS NOT NULL, company_id, salary_annual_min, salary_annual_max, salary_currency, filter_keys,
	work_arrangement, employment_type, category_field, category_role, skills, education_levels,
	visa_sponsorship, coalesce(security_clearances, '{}'), location_country, location_state, location_city`

// indexQuery reads every job in the default order (the jobs_newest index's
// order: no sort) with what the index needs.
const indexQuery = `SELECT ` + docColumns + ` FROM jobs ORDER BY posted_sort DESC, id`

// docsQuery reads the jobs of the ids ($1) that are open.
const docsQuery = `SELECT ` + docColumns + ` FROM jobs WHERE id = ANY($1::text[])`

// idOrderQuery gives, in the database's order of ids (the tie-break of
// every sort), each job's number in the default order: a sort of narrow
// rows rather than of indexQuery's wide ones.
const idOrderQuery = `SELECT (row_number() OVER (ORDER BY posted_sort DESC, id) - 1)::bigint FROM jobs ORDER BY id`

// facetOrder is the facet fields in docColumns' order, from its 9th column.
var facetOrder = []string{"work_arrangement", "employment_type", "category_field", "category_role", "skills",
	"education_levels", "visas", "security_clearances", "country", "state", "city"}

// docScanner scans rows of docColumns into index.Docs.
type docScanner struct {
	d       index.Doc
	posted  time.Time
	lo, hi  *float64
	cur     *string
	scalars [4]*string
	one     [4][]string // the scalars as lists, reused (doc(false))
	lists   [7][]string
	args    []any
	facets  map[string][]string // reused (doc(false))
}

func newDocScanner() *docScanner {
	s := &docScanner{facets: make(map[string][]string, len(facetOrder))}
	s.args = []any{&s.d.ID, &s.posted, &s.d.Dated, &s.d.CompanyID, &s.lo, &s.hi, &s.cur, &s.d.Keys,
		&s.scalars[0], &s.scalars[1], &s.scalars[2], &s.scalars[3]}
	for i := range s.lists {
		s.args = append(s.args, &s.lists[i])
	}
	return s
}

// doc returns the scanned row as a Doc. With own, the Doc shares no slice
// or map with the scanner's next row (Index.Apply keeps them); without,
// it is valid until the next row (Builder.Add copies what it keeps), which
// spares a build a map per job.
func (s *docScanner) doc(own bool) *index.Doc {
	d := s.d
	d.Posted = s.posted.UnixMicro()
	d.SalaryMin, d.SalaryMax = orNaN(s.lo), orNaN(s.hi)
	// The index's own keys (not the stored filter_keys): the salary's
	// currency, or no salary.
	d.Currency = ""
	switch {
	case s.hi == nil:
		d.Keys = append(d.Keys, domain.NoSalaryKey)
	case s.cur != nil:
		d.Currency = *s.cur
		d.Keys = append(d.Keys, domain.CurrencyKey(d.Currency))
	}
	d.Facets = s.facets
	if own {
		d.Facets = make(map[string][]string, len(facetOrder))
	}
	for i, v := range s.scalars {
		list := s.one[i][:0]
		if own {
			list = nil
		}
		if v != nil {
			list = append(list, *v)
		}
		s.one[i] = list
		d.Facets[facetOrder[i]] = list
	}
	for i, l := range s.lists {
		d.Facets[facetOrder[len(s.scalars)+i]] = l
		if own {
			s.lists[i] = nil
		}
	}
	if own {
		s.d.Keys = nil
		internDoc(&d)
	}
	return &d
}

// internDoc makes the strings of a Doc that an index layer keeps (and the
// subscriptions' history, through its States) the one copy of each
// value: a layer of a hundred thousand changed jobs otherwise held its
// keys and facet values once per job.
func internDoc(d *index.Doc) {
	for i, k := range d.Keys {
		d.Keys[i] = unique.Make(k).Value()
	}
	for _, names := range d.Facets {
		for i, n := range names {
			names[i] = unique.Make(n).Value()
		}
	}
}

// readOnly runs fn in a REPEATABLE READ read-only transaction on one pgx
// connection of db.
func readOnly(ctx context.Context, db *bun.DB, fn func(tx pgx.Tx) error) error {
	return withPgx(ctx, db, func(c *pgx.Conn) error {
		tx, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // read-only
		return fn(tx)
	})
}

// build reads one snapshot of the jobs and companies into a new index, of
// the feed's last change in that snapshot, and returns the feed's place
// there.
func (x *Indexer) build(ctx context.Context) (*index.Index, feedPlace, error) {
	var ix *index.Index
	var place feedPlace
	err := readOnly(ctx, x.db, func(tx pgx.Tx) error {
		var err error
		if place, err = readFeedPlace(ctx, tx); err != nil {
			return err
		}
		ix, err = buildIndex(ctx, tx, place.Last, x.rates())
		return err
	})
	if err != nil {
		return nil, place, wrap(err, "build index")
	}
	return ix, place, nil
}

func buildIndex(ctx context.Context, tx pgx.Tx, version int64, rates *currency.Rates) (*index.Index, error) {
	// Reading a million jobs may take longer than a request's backstop,
	// and sorting their ids more than the default work_mem.
	for _, set := range []string{"SET LOCAL statement_timeout = 0", "SET LOCAL work_mem = '64MB'"} {
		if _, err := tx.Exec(ctx, set); err != nil {
			return nil, fmt.Errorf("%s: %w", set, err)
		}
	}
	b := index.NewBuilder(version)
	b.SetRates(rates)
	rows, err := tx.Query(ctx, "SELECT id, name, logo_url, coalesce(slug, '') FROM companies")
	if err != nil {
		return nil, fmt.Errorf("read companies: %w", err)
	}
	var id int64
	var name, slug string
	var logo *string
	_, err = pgx.ForEachRow(rows, []any{&id, &name, &logo, &slug}, func() error {
		b.AddCompany(id, name, logo, slug)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read companies: %w", err)
	}
	// Binary results (the extended protocol, described first): a text[]
	// in binary costs PostgreSQL and pgx far less than its text form.
	rows, err = tx.Query(ctx, indexQuery, pgx.QueryExecModeDescribeExec)
	if err != nil {
		return nil, fmt.Errorf("read jobs: %w", err)
	}
	sc := newDocScanner()
	if _, err = pgx.ForEachRow(rows, sc.args, func() error {
		b.Add(sc.doc(false))
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read jobs: %w", err)
	}
	rows, err = tx.Query(ctx, idOrderQuery, pgx.QueryExecModeDescribeExec)
	if err != nil {
		return nil, fmt.Errorf("order ids: %w", err)
	}
	var doc int64
	rank := uint32(0)
	if _, err := pgx.ForEachRow(rows, []any{&doc}, func() error {
		b.SetIDRank(uint32(doc), rank)
		rank++
		return nil
	}); err != nil {
		return nil, fmt.Errorf("order ids: %w", err)
	}
	collated, err := collate(ctx, tx, b.Names())
	if err != nil {
		return nil, err
	}
	return b.Build(collated), nil
}

// querier is what collate needs of a connection or transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// collate sorts names in the database's collation: facet values with equal
// counts are listed in it.
func collate(ctx context.Context, db querier, names []string) ([]string, error) {
	rows, err := db.Query(ctx, "SELECT v FROM unnest($1::text[]) AS v ORDER BY v", names)
	if err != nil {
		return nil, fmt.Errorf("collate facet values: %w", err)
	}
	out := make([]string, 0, len(names))
	var v string
	if _, err := pgx.ForEachRow(rows, []any{&v}, func() error {
		out = append(out, v)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("collate facet values: %w", err)
	}
	return out, nil
}

// maxApply is the most changes a catch-up applies to an index of n jobs,
// as a layer over its base; more (a crawl replacing a board, a
// renormalization) are read by a build instead, and lists are answered in
// SQL until it is done. A layer holds each changed job whole beside the
// base, and a build soon follows it: at a million jobs, layering 150,000
// changes held 190 MB of layer through the build that followed.
func maxApply(n int) int { return min(max(n/20, 25_000), 200_000) }

// errTooManyChanges says a catch-up has more than maxApply changes to apply.
var errTooManyChanges = errors.New("too many changes to apply; the index is built again")

// changesSince reads, in one snapshot, the feed's last change and the jobs
// the changes after version touched: those open as docs with their
// companies, the others as removed. It returns the last change's number.
func changesSince(ctx context.Context, tx pgx.Tx, version int64, limit int) (int64, index.Change, error) {
	var ch index.Change
	var last int64
	if err := tx.QueryRow(ctx, "SELECT last_seq FROM jobsd_feed").Scan(&last); err != nil {
		return 0, ch, fmt.Errorf("the feed's last change: %w", err)
	}
	if last <= version {
		return last, ch, nil
	}
	var n int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM job_changes WHERE seq > $1 AND seq <= $2", version, last).Scan(&n); err != nil {
		return 0, ch, fmt.Errorf("count changes: %w", err)
	}
	if n > limit {
		return 0, ch, errTooManyChanges
	}
	rows, err := tx.Query(ctx, "SELECT DISTINCT job_id FROM job_changes WHERE seq > $1 AND seq <= $2", version, last)
	if err != nil {
		return 0, ch, fmt.Errorf("read changes: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, ch, fmt.Errorf("read changes: %w", err)
	}
	rows, err = tx.Query(ctx, docsQuery, pgx.QueryExecModeDescribeExec, ids) // binary, as a build's
	if err != nil {
		return 0, ch, fmt.Errorf("read changed jobs: %w", err)
	}
	sc := newDocScanner()
	open := make(map[string]bool, len(ids))
	companies := map[int64]bool{}
	if _, err := pgx.ForEachRow(rows, sc.args, func() error {
		d := sc.doc(true)
		open[d.ID] = true
		companies[d.CompanyID] = true
		ch.Add = append(ch.Add, d)
		return nil
	}); err != nil {
		return 0, ch, fmt.Errorf("read changed jobs: %w", err)
	}
	for _, id := range ids {
		if !open[id] {
			ch.Remove = append(ch.Remove, id)
		}
	}
	companyIDs := make([]int64, 0, len(companies))
	for id := range companies {
		companyIDs = append(companyIDs, id)
	}
	rows, err = tx.Query(ctx, "SELECT id, name, logo_url, coalesce(slug, '') FROM companies WHERE id = ANY($1)", companyIDs)
	if err != nil {
		return 0, ch, fmt.Errorf("read companies: %w", err)
	}
	var c index.Company
	if _, err := pgx.ForEachRow(rows, []any{&c.ID, &c.Name, &c.LogoURL, &c.Slug}, func() error {
		ch.Companies = append(ch.Companies, c)
		c = index.Company{}
		return nil
	}); err != nil {
		return 0, ch, fmt.Errorf("read companies: %w", err)
	}
	return last, ch, nil
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
