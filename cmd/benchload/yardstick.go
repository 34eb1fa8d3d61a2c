package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// A yardstick is one of issue 5's measurements made without HTTP, run
// again on this machine after jobsd's: a measure of the machine's speed,
// since the issue's throughput targets were set on one machine and
// the benchmark runs on whichever it is given (the same code has measured
// 1.8× apart on two machines of the same kind).
type yardstick struct {
	Name string
	// SQL is the statement, of the job columns (cols) and the job id $1.
	SQL func(cols string) string
	// Issue is the statements per second issue 5 measured.
	Issue float64
}

// yardsticks are the plain statement of one full job by
// id, and the one PostgREST sends for it (the "JSON-building SQL" the
// job-by-id target was set against).
var yardsticks = []yardstick{
	{Name: "one full job by id, plain SQL", Issue: 15525, SQL: func(cols string) string {
		return "SELECT " + cols + " FROM jobs WHERE id = $1"
	}},
	{Name: "one full job by id, PostgREST's statement", Issue: jobByIDIssue, SQL: postgrestObjectSQL},
}

// jobByIDIssue is the statements per second of issue 5's reference for
// the job-by-id target: PostgREST's statement (7,190 for a target of
// 7,000).
const jobByIDIssue = 7190

// postgrestObjectSQL is the statement PostgREST builds for one row asked
// for as an object (`GET /jobs?id=eq.X&select=…` with
// `Accept: application/vnd.pgrst.object+json`): the row as JSON text,
// built by PostgreSQL.
func postgrestObjectSQL(cols string) string {
	return "WITH pgrst_source AS (SELECT " + cols + " FROM jobs WHERE jobs.id = $1) " +
		"SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, " +
		"coalesce((json_agg(_postgrest_t)->0)::text, 'null') AS body, " +
		"nullif(current_setting('response.headers', true), '') AS response_headers, " +
		"nullif(current_setting('response.status', true), '') AS response_status, " +
		"'' AS response_inserted FROM (SELECT * FROM pgrst_source) _postgrest_t"
}

// jobColumns returns the columns a job's answer is made of, for the
// yardsticks to read what jobsd reads: every column of jobs but the
// generated ones and those jobsd keeps for itself (the filter keys, the
// record as given, the import time).
func jobColumns(ctx context.Context, db *pgx.Conn) (string, error) {
	var cols string
	err := db.QueryRow(ctx, `SELECT coalesce(string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position), '')
		FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'jobs' AND is_generated = 'NEVER'
		AND column_name NOT IN ('filter_keys', 'given', 'imported_at')`).Scan(&cols)
	if err != nil {
		return "", fmt.Errorf("the columns of jobs: %w", err)
	}
	if cols == "" {
		return "", errors.New("the columns of jobs: no table jobs")
	}
	return cols, nil
}

// yardstickRun is the measurement of one yardstick.
type yardstickRun struct {
	Yardstick yardstick
	Executed  int
	Elapsed   time.Duration
}

// PerSecond is the statements executed per second.
func (r yardstickRun) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Executed) / r.Elapsed.Seconds()
}

// Scale is this machine's speed against issue 5's machine on the
// yardstick: its statements per second over the issue's.
func (r yardstickRun) Scale() float64 { return r.PerSecond() / r.Yardstick.Issue }

// measureYardstick runs ref's statement for d on conns connections of
// their own to dsn (prepared, as PostgREST and pgbench -M prepared do),
// each rotating through ids from its own starting point; the rows are
// read and not decoded. Any error ends the measurement.
func measureYardstick(ctx context.Context, dsn string, conns int, d time.Duration, ref yardstick, cols string, ids []string) (yardstickRun, error) {
	run := yardstickRun{Yardstick: ref}
	if len(ids) == 0 {
		return run, errors.New("no ids to rotate through")
	}
	sql := ref.SQL(cols)
	cs := make([]*pgx.Conn, 0, conns)
	defer func() {
		for _, c := range cs {
			_ = c.Close(context.Background())
		}
	}()
	for range conns {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return run, fmt.Errorf("connect: %w", err)
		}
		cs = append(cs, c)
		if _, err := c.Prepare(ctx, sql, sql); err != nil {
			return run, fmt.Errorf("prepare %s: %w", ref.Name, err)
		}
	}
	var executed atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for i, c := range cs {
		wg.Go(func() {
			for k := i * len(ids) / len(cs); time.Now().Before(deadline) && ctx.Err() == nil; k++ {
				rows, err := c.Query(ctx, sql, ids[k%len(ids)])
				if err == nil {
					for rows.Next() {
						_ = rows.RawValues()
					}
					rows.Close()
					err = rows.Err()
				}
				if err != nil {
					mu.Lock()
					firstErr = cmpOr(firstErr, fmt.Errorf("%s: %w", ref.Name, err))
					mu.Unlock()
					return
				}
				executed.Add(1)
			}
		})
	}
	wg.Wait()
	run.Elapsed = time.Since(start)
	run.Executed = int(executed.Load())
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return run, firstErr
}

// cmpOr returns the first of a and b that is not nil.
func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// yardstickMarkdown renders the yardsticks measured and what they say of
// the job-by-id target on this machine, given jobsd's REST rate for one
// full job by id (0 when not measured).
func yardstickMarkdown(runs []yardstickRun, jobREST float64) string {
	if len(runs) == 0 {
		return ""
	}
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("Yardstick: issue 5's measurements without HTTP (N=200,000), run again on this machine after jobsd's, on as many connections " +
		"and the same 500 job ids (prepared statements of the columns jobsd serves, rows read and not decoded):\n\n")
	p("| statement | issue 5's machine | this machine | this machine / issue's |\n|---|---:|---:|---:|\n")
	for _, r := range runs {
		p("| %s | %s/s | %s/s | %.2f |\n", r.Yardstick.Name, itoa(int(r.Yardstick.Issue)), itoa(int(r.PerSecond()+0.5)), r.Scale())
	}
	for _, r := range runs {
		if r.Yardstick.Issue != jobByIDIssue || jobREST <= 0 || r.PerSecond() <= 0 {
			continue
		}
		p("\njobsd served %s full jobs a second over HTTP: %.2f× PostgREST's statement without HTTP on this machine "+
			"(the target, 7,000 requests/s against its 7,190 a second, asks 0.97× on issue 5's machine, and is judged in "+
			"absolute terms above). The statements are no exact scale for the whole service: they leave out HTTP, gzip and "+
			"a third process taking turns on the CPUs.\n", itoa(int(jobREST+0.5)), jobREST/r.PerSecond())
	}
	return b.String()
}

// measureYardsticks measures every yardstick in turn, rotating through the
// job ids of the mix's job-by-id query, and prints each.
func measureYardsticks(ctx context.Context, db *pgx.Conn, dsn string, conns int, d time.Duration, mix []query, out io.Writer) ([]yardstickRun, error) {
	var ids []string
	for _, q := range mix {
		if q.Kind == jobKind {
			for _, tc := range q.Cases {
				ids = append(ids, tc.ID)
			}
		}
	}
	if len(ids) == 0 {
		return nil, nil // job by id not measured (-only)
	}
	cols, err := jobColumns(ctx, db)
	if err != nil {
		return nil, err
	}
	var runs []yardstickRun
	for _, ref := range yardsticks {
		r, err := measureYardstick(ctx, dsn, conns, d, ref, cols, ids)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "yardstick: %-42s %8.0f statements/s (issue 5's machine: %.0f; ×%.2f)\n", ref.Name, r.PerSecond(), ref.Issue, r.Scale())
		runs = append(runs, r)
	}
	return runs, nil
}
