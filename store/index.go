package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/index"
)

// Indexer keeps an in-process index (package index) of the store's jobs
// current: it builds one at start, and a new one whenever the data version
// changes (polled, and at once when a request finds its index stale). Until
// the first build, and while a request's index is stale, queries run in
// SQL alone, so answers are exact at every moment.
type Indexer struct {
	db     *bun.DB
	log    *slog.Logger
	poll   time.Duration
	tuneGC bool

	current atomic.Pointer[index.Index]
	ready   chan struct{}
	kick    chan struct{}
	built   atomic.Int64 // builds done
	// answered counts the lists and facets the index answered; staleHits
	// those it could not answer because the data had changed.
	answered, staleHits atomic.Int64
}

// IndexOptions tune an Indexer.
type IndexOptions struct {
	// Poll is how often the data version is checked (default 1s).
	Poll time.Duration
	Log  *slog.Logger
	// TuneGC bounds the heap's growth above the live heap (which the
	// index dominates) after each build, unless GOGC is set: see tuneGC.
	TuneGC bool
	// DB is the database the indexer polls and reads its builds from
	// (default the store's). A pool of its own keeps a build, which holds
	// a connection for as long as it reads every job, from taking one
	// that requests need.
	DB *bun.DB
}

// StartIndex starts keeping an index of the database's jobs until ctx ends,
// and makes the store's job lists and facets use it. It reads from the
// primary database.
func (s *Store) StartIndex(ctx context.Context, opts IndexOptions) (*Indexer, error) {
	db := opts.DB
	if db == nil {
		var ok bool
		if db, ok = s.db.(*bun.DB); !ok {
			return nil, fmt.Errorf("start index: the store must be over a database, not a transaction")
		}
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	x := &Indexer{db: db, log: opts.Log, poll: opts.Poll, tuneGC: opts.TuneGC, ready: make(chan struct{}), kick: make(chan struct{}, 1)}
	s.index = x
	go x.run(ctx)
	return x, nil
}

// Ready reports whether the first index has been built.
func (x *Indexer) Ready() bool {
	select {
	case <-x.ready:
		return true
	default:
		return false
	}
}

// WaitReady waits for the first index, or for ctx to end.
func (x *Indexer) WaitReady(ctx context.Context) error {
	select {
	case <-x.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// IndexStats are an Indexer's counters.
type IndexStats struct {
	Builds   int64 // indexes built
	Answered int64 // job lists and facet sets answered with the index
	Stale    int64 // requests that found the data changed since the index
}

// Stats returns the indexer's counters.
func (x *Indexer) Stats() IndexStats {
	return IndexStats{Builds: x.built.Load(), Answered: x.answered.Load(), Stale: x.staleHits.Load()}
}

// index returns the current index, or nil (no indexer, or none built yet).
func (x *Indexer) index() *index.Index {
	if x == nil {
		return nil
	}
	return x.current.Load()
}

// stale tells the indexer that a request found the data version changed.
func (x *Indexer) stale() {
	x.staleHits.Add(1)
	select {
	case x.kick <- struct{}{}:
	default:
	}
}

// run refreshes the index until ctx ends: every poll, and at once when a
// request finds it stale. A refresh that panics is logged with its stack;
// the indexer keeps the index it had and goes on after a backoff.
func (x *Indexer) run(ctx context.Context) {
	tick := time.NewTicker(x.poll)
	defer tick.Stop()
	var backoff panicBackoff
	for {
		panicked := guard(x.log, "index builder", func() {
			if err := x.refresh(ctx); err != nil && ctx.Err() == nil {
				x.log.Warn("index not refreshed; job lists are answered in SQL until it is", "err", err)
			}
		})
		if panicked {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff.next()):
			}
			continue
		}
		backoff.reset()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-x.kick:
		}
	}
}

// refresh builds a new index when the data version differs from the
// current one's.
func (x *Indexer) refresh(ctx context.Context) error {
	version, err := dataVersion(ctx, x.db)
	if err != nil {
		return err
	}
	if cur := x.current.Load(); cur != nil && cur.Version() == version {
		return nil
	}
	start := time.Now()
	if x.tuneGC {
		// Two indexes and the rows being read are alive during a build:
		// a memory limit set for one would make the GC run without pause.
		liftMemoryLimit()
		defer tuneGC()
	}
	ix, err := x.build(ctx)
	if err != nil {
		return err
	}
	x.current.Store(ix)
	x.built.Add(1)
	// A build leaves garbage several times the index's size (the rows
	// read), and the old index is garbage now: give the memory back rather
	// than keep it as the heap's headroom.
	debug.FreeOSMemory()
	if !x.Ready() {
		close(x.ready)
	}
	x.log.Info("index built", "version", ix.Version(), "jobs", ix.Len(), "bitmap_bytes", ix.SizeInBytes(),
		"took", time.Since(start).Round(time.Millisecond).String())
	return nil
}

// gcHeadroom is how much the heap may grow above the live heap between
// collections once the index is large: Go's default (GOGC=100) lets a
// heap that is mostly index grow to twice its size under load.
const gcHeadroom = 96 << 20

// memorySlack is what the memory limit allows above the live heap and its
// headroom: the runtime's own memory and the heap's fragmentation.
const memorySlack = 32 << 20

// tuneGC sets the GC percentage that gives the live heap gcHeadroom to grow
// (between 25 and Go's default 100), unless the operator set GOGC, and a
// soft memory limit of the live heap, gcHeadroom and memorySlack, unless
// the operator set GOMEMLIMIT. The limit makes the runtime give the heap's
// free pages back to the system promptly, which it otherwise does only
// slowly, keeping the process's memory well above its live heap.
func tuneGC() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	live := sample[0].Value.Uint64()
	if live == 0 {
		return
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(int(min(max(100*gcHeadroom/live, 25), 100)))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(live + gcHeadroom + memorySlack))
	}
}

// liftMemoryLimit removes tuneGC's memory limit (not the operator's).
func liftMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// indexQuery reads every job in the default order (the jobs_newest index's
// order: no sort) with what the index needs.
const indexQuery = `SELECT id, posted_sort, posted_at IS NOT NULL, company_id, salary_annual_min, salary_annual_max, filter_keys,
	work_arrangement, employment_type, category_field, category_role, skills, education_levels,
	visa_sponsorship, coalesce(security_clearances, '{}'), location_country, location_state, location_city
FROM jobs ORDER BY posted_sort DESC, id`

// idOrderQuery gives, in the database's order of ids (the tie-break of
// every sort), each job's number in the default order: a sort of narrow
// rows rather than of indexQuery's wide ones.
const idOrderQuery = `SELECT (row_number() OVER (ORDER BY posted_sort DESC, id) - 1)::bigint FROM jobs ORDER BY id`

// facetOrder is the facet fields in indexQuery's order, from its 8th column.
var facetOrder = []string{"work_arrangement", "employment_type", "category_field", "category_role", "skills",
	"education_levels", "visas", "security_clearances", "country", "state", "city"}

// build reads one snapshot of the jobs and companies into a new index.
func (x *Indexer) build(ctx context.Context) (*index.Index, error) {
	conn, err := x.db.Conn(ctx)
	if err != nil {
		return nil, wrap(err, "build index")
	}
	defer conn.Close()
	var ix *index.Index
	err = conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("the driver is not pgx")
		}
		tx, err := c.Conn().BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // read-only
		ix, err = buildIndex(ctx, tx)
		return err
	})
	if err != nil {
		return nil, wrap(err, "build index")
	}
	return ix, nil
}

func buildIndex(ctx context.Context, tx pgx.Tx) (*index.Index, error) {
	// Reading a million jobs may take longer than a request's backstop,
	// and sorting their ids more than the default work_mem.
	for _, set := range []string{"SET LOCAL statement_timeout = 0", "SET LOCAL work_mem = '64MB'"} {
		if _, err := tx.Exec(ctx, set); err != nil {
			return nil, fmt.Errorf("%s: %w", set, err)
		}
	}
	var version int64
	if err := tx.QueryRow(ctx, "SELECT version FROM jobsd_dataset").Scan(&version); err != nil {
		return nil, fmt.Errorf("data version: %w", err)
	}
	b := index.NewBuilder(version)
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

	var (
		d        index.Doc
		posted   time.Time
		lo, hi   *float64
		scalars  [4]*string
		lists    [7][]string
		scanArgs = []any{&d.ID, &posted, &d.Dated, &d.CompanyID, &lo, &hi, &d.Keys,
			&scalars[0], &scalars[1], &scalars[2], &scalars[3]}
	)
	for i := range lists {
		scanArgs = append(scanArgs, &lists[i])
	}
	d.Facets = make(map[string][]string, len(facetOrder))
	// Binary results (the extended protocol, described first): a text[]
	// in binary costs PostgreSQL and pgx far less than its text form.
	rows, err = tx.Query(ctx, indexQuery, pgx.QueryExecModeDescribeExec)
	if err != nil {
		return nil, fmt.Errorf("read jobs: %w", err)
	}
	one := make([][]string, len(scalars))
	for i := range one {
		one[i] = make([]string, 0, 1)
	}
	_, err = pgx.ForEachRow(rows, scanArgs, func() error {
		d.Posted = posted.UnixMicro()
		d.SalaryMin, d.SalaryMax = orNaN(lo), orNaN(hi)
		for i, s := range scalars {
			one[i] = one[i][:0]
			if s != nil {
				one[i] = append(one[i], *s)
			}
			d.Facets[facetOrder[i]] = one[i]
		}
		for i, l := range lists {
			d.Facets[facetOrder[len(scalars)+i]] = l
		}
		b.Add(&d)
		return nil
	})
	if err != nil {
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
	// Facet values with equal counts are listed in the database's collation.
	var collated []string
	rows, err = tx.Query(ctx, "SELECT v FROM unnest($1::text[]) AS v ORDER BY v", b.Names())
	if err != nil {
		return nil, fmt.Errorf("collate facet values: %w", err)
	}
	var v string
	if _, err := pgx.ForEachRow(rows, []any{&v}, func() error {
		collated = append(collated, v)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("collate facet values: %w", err)
	}
	return b.Build(collated), nil
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// errStale says the data changed since the index was built.
var errStale = errors.New("the index is stale")
