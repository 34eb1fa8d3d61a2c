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

	"github.com/jobsd-dev/jobsd/bench/internal/jobcols"
)

// A yardstick is one of the measurements the targets were set with made without HTTP, run
// again on this machine after jobsd's. The issue's throughput targets were
// set on one machine and the benchmark runs on whichever it is given (the
// same code has measured about 2× apart on two machines of the same kind);
// the statements indicate how this machine compares. They are no exact
// scale: on one machine, from one run to the next, the plain statement gave
// 0.43–1.09× the issue's figure and PostgREST's 0.66–1.36×.
type yardstick struct {
	// Name names the statement in the report.
	Name string
	// SQL is the statement, of the job columns (cols) and the job id $1.
	SQL func(cols string) string
	// Issue is the statements per second measured when the targets were set.
	Issue float64
	// JobTarget marks the statement the job-by-id target was set against.
	JobTarget bool
}

// plainJobPerSecond is the statements per second measured, when the targets were set, for the
// plain statement of one full job by id.
const plainJobPerSecond = 15525

// postgrestJobPerSecond is the statements per second measured, when the targets were set, for
// PostgREST's statement of one full job, against which it set the
// job-by-id target (jobPerSecond).
const postgrestJobPerSecond = 7190

// yardsticks are the plain statement of one full job by id, and
// PostgREST's (the "JSON-building SQL" of the job-by-id target).
var yardsticks = []yardstick{
	{Name: "one full job by id, plain SQL", Issue: plainJobPerSecond, SQL: func(cols string) string {
		return "SELECT " + cols + " FROM jobs WHERE id = $1"
	}},
	{Name: "one full job by id, PostgREST's statement", Issue: postgrestJobPerSecond, SQL: postgrestObjectSQL, JobTarget: true},
}

// postgrestObjectSQL is the main statement PostgREST builds for one row
// asked for as an object (`GET /jobs?id=eq.X&select=…` with
// `Accept: application/vnd.pgrst.object+json`): the row as JSON text,
// built by PostgreSQL. PostgREST runs it in a read-only transaction after
// set_config calls for the role and the request; those are left out, as
// "without any HTTP" in the issue leaves them out.
func postgrestObjectSQL(cols string) string {
	return "WITH pgrst_source AS (SELECT " + cols + " FROM jobs WHERE jobs.id = $1) " +
		"SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, " +
		"coalesce((json_agg(_postgrest_t)->0)::text, 'null') AS body, " +
		"nullif(current_setting('response.headers', true), '') AS response_headers, " +
		"nullif(current_setting('response.status', true), '') AS response_status, " +
		"'' AS response_inserted FROM (SELECT * FROM pgrst_source) _postgrest_t"
}

// yardstickRun is the measurement of one yardstick.
type yardstickRun struct {
	// Yardstick is the statement measured.
	Yardstick yardstick
	// Executed is how many statements completed in Elapsed.
	Executed int
	Elapsed  time.Duration
}

// PerSecond is the statements executed per second.
func (r yardstickRun) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Executed) / r.Elapsed.Seconds()
}

// Scale is this machine's speed against the targets' machine on the
// yardstick: its statements per second over those the targets were set
// with.
func (r yardstickRun) Scale() float64 { return r.PerSecond() / r.Yardstick.Issue }

// measureYardstick runs ref's statement for d on conns connections of
// their own to dsn, each rotating through ids from its own starting point:
// prepared, as PostgREST does; results in pgx's formats (binary for the
// types it knows), read and not decoded. The first error stops every
// connection and is returned.
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
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var executed atomic.Int64
	var once sync.Once
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range cs {
		wg.Go(func() {
			for k := i * len(ids) / len(cs); ; k++ {
				rows, err := c.Query(ctx, sql, ids[k%len(ids)])
				if err == nil {
					for rows.Next() {
						_ = rows.RawValues()
					}
					rows.Close()
					err = rows.Err()
				}
				if ctx.Err() != nil {
					return // the time is up (a statement cut short is not counted), or another connection failed
				}
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("%s: %w", ref.Name, err); cancel() })
					return
				}
				executed.Add(1)
			}
		})
	}
	wg.Wait()
	run.Elapsed = min(time.Since(start), d)
	run.Executed = int(executed.Load())
	if firstErr == nil && errors.Is(ctx.Err(), context.Canceled) {
		firstErr = ctx.Err() // the caller's
	}
	return run, firstErr
}

// yardstickMarkdown renders the yardsticks measured at N jobs and
// jobsd's REST rate for one full job by id against the one the job-by-id
// target was set against (0 when not measured); large says the target
// does not apply at this N. Where the yardstick failed, failure says why.
func yardstickMarkdown(runs []yardstickRun, failure string, n int, large bool, jobREST float64) string {
	if len(runs) == 0 && failure == "" {
		return ""
	}
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("Yardstick (an indication of this machine's speed, not an exact scale): the measurements the targets were set with without HTTP at "+
		"N=200,000, run again here at N=%s after jobsd's runs and checks, on as many connections and the same 500 job ids "+
		"(prepared statements of the columns jobsd serves; results in pgx's formats, read and not decoded; PostgREST's "+
		"statement without its transaction and set_config calls).", itoa(n))
	if failure != "" {
		p(" **Not measured:** %s.\n", failure)
		return b.String()
	}
	p("\n\n| statement | issue 5's machine | this machine | this machine / issue's |\n|---|---:|---:|---:|\n")
	for _, r := range runs {
		p("| %s | %s/s | %s/s | %.2f |\n", r.Yardstick.Name, itoa(int(r.Yardstick.Issue)), itoa(int(r.PerSecond()+0.5)), r.Scale())
	}
	for _, r := range runs {
		if !r.Yardstick.JobTarget || large || jobREST <= 0 || r.PerSecond() <= 0 {
			continue
		}
		p("\njobsd served %s full jobs a second over HTTP: %.2f× %s without HTTP on this machine. The target, %s requests/s "+
			"against its %s a second on issue 5's machine, asks %.2f×, and is judged in absolute terms above; the statement "+
			"leaves out HTTP, gzip and a third process taking turns on the CPUs.\n",
			itoa(int(jobREST+0.5)), jobREST/r.PerSecond(), strings.TrimPrefix(r.Yardstick.Name, "one full job by id, "),
			itoa(jobPerSecond), itoa(int(r.Yardstick.Issue)), jobPerSecond/r.Yardstick.Issue)
	}
	return b.String()
}

// jobColumns reads the columns of jobsd's job-by-id statement from the
// catalog (package jobcols), comma-and-space separated.
func jobColumns(ctx context.Context, dsn string) (string, error) {
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer c.Close(context.Background())
	var cols string
	if err := c.QueryRow(ctx, jobcols.Query).Scan(&cols); err != nil {
		return "", fmt.Errorf("the columns of jobs: %w", err)
	}
	if cols == "" {
		return "", errors.New("the columns of jobs: none")
	}
	return cols, nil
}

// measureYardsticks measures every yardstick in turn for d on conns
// connections, rotating through the job ids of the mix's job-by-id query,
// and prints each.
func measureYardsticks(ctx context.Context, dsn string, conns int, d time.Duration, mix []query, out io.Writer) ([]yardstickRun, error) {
	var ids []string
	for _, q := range mix {
		if q.Kind == jobKind {
			for _, tc := range q.Cases {
				ids = append(ids, tc.ID)
			}
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("no job ids: the mix has no job-by-id query")
	}
	cols, err := jobColumns(ctx, dsn)
	if err != nil {
		return nil, err
	}
	var runs []yardstickRun
	for _, ref := range yardsticks {
		r, err := measureYardstick(ctx, dsn, conns, d, ref, cols, ids)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "yardstick: %-42s %8.0f statements/s (issue 5's machine: %.0f; ×%.2f)\n",
			ref.Name, r.PerSecond(), ref.Issue, r.Scale())
		runs = append(runs, r)
	}
	return runs, nil
}
