package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// liveConfig is the live scenario's setup (benchload -live).
type liveConfig struct {
	Base, Key, DSN string
	// Jobsd is the binary the imports run, as an operator's cron would.
	Jobsd    string
	N, Conns int
	// Duration is each phase's, quiet and live.
	Duration time.Duration
	// Interval is the time between the starts of the batch imports.
	Interval time.Duration
	// New and Updates are each batch's new and re-imported postings.
	New, Updates int
	// Crawl is the crawled source's size, CloseEvery its share the
	// snapshot closes (every CloseEvery-th posting), SnapshotAt when in the
	// live phase the snapshot starts.
	Crawl, CloseEvery int
	SnapshotAt        time.Duration
	// Poll is the visibility poll's period; Hold how long a batch's total
	// is still watched once seen (a total going backwards is wrong);
	// VisibleTimeout how long after its import a batch may stay unseen.
	Poll, Hold, VisibleTimeout time.Duration
	// SettleTimeout bounds the wait for jobsd to absorb the crawl's import.
	SettleTimeout time.Duration
	Run           string
	Commit        string
	// Database says what database the scenario wrote to (for the report).
	Database string
	Out      string
}

// liveResult is everything one live scenario found.
type liveResult struct {
	Config  liveConfig
	Date    time.Time
	Machine machine
	Source  string
	// Prep is the crawl's import before the phases; Settle how long jobsd
	// then took to show it and answer the newest page quickly again.
	Prep        importRun
	Settle      time.Duration
	SettleNote  string
	Types       []string
	Quiet, Live phaseResult
	Batches     []*batchRun
	// Snapshot is the snapshot's import, started SnapshotStart into the
	// live phase; SnapshotOpen the scope's open postings in SQL afterwards.
	Snapshot      importRun
	SnapshotStart time.Duration
	SnapshotOpen  int
	// SnapshotWatch follows the crawl's total (its marker company), and
	// SnapshotLag is the time from the snapshot's exit until it showed the
	// closes (SnapshotVisible false when it never did).
	SnapshotWatch   totalWatch
	CrawlMarker     string
	SnapshotLag     time.Duration
	SnapshotVisible bool
	Lag             lagStats
	Polls           int
	PollErrors      int
	Wrong           []string
	// Problems are failures of the harness's own steps (an import that
	// failed, a batch never seen, a final total that differs).
	Problems []string
}

// importRun is one `jobsd import` run.
type importRun struct {
	Args    []string
	Elapsed time.Duration
	CPU     time.Duration
	Exited  time.Time
	Counts  importCounts
	Err     string
}

// importCounts are the counts `jobsd import` reports.
type importCounts struct {
	Opened, Updated, Unchanged, Closed int
	OK                                 bool
}

var countsRE = regexp.MustCompile(`import: (\d+) opened, (\d+) updated, (\d+) unchanged, (\d+) closed`)

// parseCounts reads the counts line of `jobsd import`'s output.
func parseCounts(out string) importCounts {
	m := countsRE.FindStringSubmatch(out)
	if m == nil {
		return importCounts{}
	}
	var c importCounts
	for i, p := range []*int{&c.Opened, &c.Updated, &c.Unchanged, &c.Closed} {
		*p, _ = strconv.Atoi(m[i+1])
	}
	c.OK = true
	return c
}

// batchRun is one batch import of the live phase and what its watch saw.
type batchRun struct {
	batch
	Start   time.Duration // into the live phase
	Import  importRun
	Watch   totalWatch
	Lag     time.Duration
	Visible bool
	// PollErrors counts the watch's polls that failed.
	PollErrors int
}

// phaseResult is the measurement of one phase of the list mix.
type phaseResult struct {
	Requests int
	Elapsed  time.Duration
	P50, P99 time.Duration
	Errors   int
	Problems map[string]int
	ByType   []typeLatency
	CPU      cpuShare
	// Imports is the imports' share of the processors (the jobsd import
	// processes that ended during the phase), taken out of CPU.Other.
	Imports float64
	// Index is how jobsd's index counters (its /metrics) moved during the
	// phase, by metric; absent where jobsd exports none.
	Index map[string]float64
}

// indexCounters are the counters of jobsd's in-memory index the live
// report shows per phase, with what they count.
var indexCounters = []struct{ Name, What string }{
	{"jobsd_index_builds_total", "builds"},
	{"jobsd_index_changes_applied_total", "changed jobs applied"},
	{"jobsd_index_stale_pages_total", "pages answered again after a catch-up"},
	{"jobsd_index_sql_answers_total", "lists answered in SQL"},
}

// readIndexCounters reads indexCounters from jobsd's /metrics (those it
// exports).
func readIndexCounters(ctx context.Context, c *client) map[string]float64 {
	m := map[string]float64{}
	for _, k := range indexCounters {
		if v, err := c.metric(ctx, k.Name); err == nil {
			m[k.Name] = v
		}
	}
	return m
}

// typeLatency is one query type's share of a phase.
type typeLatency struct {
	Requests int
	P50, P99 time.Duration
}

// PerSecond is the phase's throughput.
func (p phaseResult) PerSecond() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Requests) / p.Elapsed.Seconds()
}

// listMix interleaves the REST cases of the list query types of mix: case
// i of each type in turn, so that every stretch of a phase sends all of
// them. kinds gives each case's type, an index into the names returned.
func listMix(mix []query) (cases []testCase, kinds []int, names []string) {
	var lists []query
	for _, q := range mix {
		if q.Kind == listKind {
			lists = append(lists, q)
			names = append(names, q.Name)
		}
	}
	for i := 0; ; i++ {
		added := false
		for t, q := range lists {
			if i < len(q.Cases) {
				cases, kinds, added = append(cases, q.Cases[i]), append(kinds, t), true
			}
		}
		if !added {
			return cases, kinds, names
		}
	}
}

// childCPU is the processor time of this process's children that have
// ended (the imports).
func childCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// drivePhase sends the cases in turn through REST on conns closed-loop
// connections for d, from the first case, and measures them overall and
// by type.
func (c *client) drivePhase(ctx context.Context, cases []testCase, kinds []int, types, conns int, d time.Duration, cpu func() cpuSample, metrics *client) phaseResult {
	res := phaseResult{Problems: map[string]int{}, ByType: make([]typeLatency, types), Index: map[string]float64{}}
	indexBefore := readIndexCounters(ctx, metrics)
	var next atomic.Int64
	var mu sync.Mutex
	byType := make([][]time.Duration, types)
	var wg sync.WaitGroup
	cpuBefore, childBefore := cpu(), childCPU()
	start := time.Now()
	deadline := start.Add(d)
	for range conns {
		wg.Go(func() {
			mine := make([][]time.Duration, types)
			for time.Now().Before(deadline) && ctx.Err() == nil {
				i := int(next.Add(1)-1) % len(cases)
				t0 := time.Now()
				_, err := c.send(ctx, cases[i], restT, false)
				mine[kinds[i]] = append(mine[kinds[i]], time.Since(t0))
				if err != nil {
					mu.Lock()
					res.Errors++
					res.Problems[problemKey(err)]++
					mu.Unlock()
				}
			}
			mu.Lock()
			for t := range mine {
				byType[t] = append(byType[t], mine[t]...)
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	var all []time.Duration
	for t, l := range byType {
		slices.Sort(l)
		res.ByType[t] = typeLatency{Requests: len(l), P50: percentile(l, 0.50), P99: percentile(l, 0.99)}
		all = append(all, l...)
	}
	slices.Sort(all)
	res.Requests, res.P50, res.P99 = len(all), percentile(all, 0.50), percentile(all, 0.99)
	after := cpu()
	res.CPU = after.since(cpuBefore, res.Requests)
	if wall := after.at.Sub(cpuBefore.at).Seconds() * float64(runtime.NumCPU()); wall > 0 {
		res.Imports = (childCPU() - childBefore).Seconds() / wall
		res.CPU.Other = max(0, res.CPU.Other-res.Imports)
	}
	for k, v := range readIndexCounters(ctx, metrics) {
		if b, ok := indexBefore[k]; ok {
			res.Index[k] = v - b
		}
	}
	return res
}

// runLive runs the live scenario: the crawled source imported, then the
// list mix quiet and live, and writes its section of cfg.Out.
func runLive(ctx context.Context, cfg liveConfig, db *pgx.Conn, mix []query, cpu func() cpuSample, out io.Writer) error {
	cases, kinds, names := listMix(mix)
	if len(cases) == 0 {
		return errors.New("live: the mix has no list query types")
	}
	gen, dir, err := newScenario(cfg, "live")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	m, err := readMachine(ctx, db)
	if err != nil {
		return err
	}
	res := &liveResult{Config: cfg, Date: time.Now().UTC(), Machine: m, Source: gen.Source(), Types: names,
		CrawlMarker: gen.crawlMarker()}
	poller := &totaler{base: cfg.Base, key: cfg.Key, http: &http.Client{Timeout: 30 * time.Second}}

	// The crawled source, before both phases, so that they serve the same
	// number of postings.
	fmt.Fprintf(out, "live: importing the %d postings of source %s\n", cfg.Crawl, gen.Source())
	metrics := newClient(cfg.Base, "", 2)
	if res.Prep, res.Settle, res.SettleNote, err = importCrawl(ctx, cfg, gen, dir, poller, metrics, "live"); err != nil {
		return err
	}
	fmt.Fprintf(out, "live: crawl imported in %.1f s (%+v); jobsd settled after %.1f s %s\n",
		res.Prep.Elapsed.Seconds(), res.Prep.Counts, res.Settle.Seconds(), res.SettleNote)

	c := newClient(cfg.Base, cfg.Key, cfg.Conns)
	rep := func(name string, p phaseResult) {
		fmt.Fprintf(out, "live: %-6s %8.0f req/s  p50 %7.1f ms  p99 %7.1f ms  errors %d  CPU: jobsd %.0f%%, PostgreSQL %.0f%%, load %.0f%%, imports %.0f%%, other %.0f%%\n",
			name, p.PerSecond(), ms(p.P50), ms(p.P99), p.Errors, 100*p.CPU.Jobsd, 100*p.CPU.Postgres, 100*p.CPU.Load, 100*p.Imports, 100*p.CPU.Other)
		for p, k := range p.Problems {
			fmt.Fprintf(out, "    ERROR ×%d: %s\n", k, p)
		}
	}
	res.Machine.LoadBefore = loadAverage()
	res.Quiet = c.drivePhase(ctx, cases, kinds, len(names), cfg.Conns, cfg.Duration, cpu, metrics)
	rep("quiet", res.Quiet)
	if ctx.Err() != nil {
		return ctx.Err()
	}

	// The live phase: the load, the batches every Interval, the snapshot
	// once, side by side.
	var wg sync.WaitGroup
	start := time.Now()
	phaseCtx, endPhase := context.WithDeadline(ctx, start.Add(cfg.Duration))
	defer endPhase()
	wg.Go(func() {
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(cfg.SnapshotAt, cfg.Duration)):
		}
		file := filepath.Join(dir, "snapshot.ndjson")
		if err := writeFile(file, gen.WriteSnapshot); err != nil {
			res.Snapshot.Err = err.Error()
			return
		}
		// The crawl's total, watched as a batch's is: from 10,000 to 9,000
		// in one step.
		res.SnapshotWatch = totalWatch{Before: cfg.Crawl, After: cfg.Crawl - gen.Closing()}
		res.SnapshotStart = time.Since(start)
		var pollErrors int
		res.Snapshot, res.SnapshotLag, res.SnapshotVisible, pollErrors = importWatched(ctx, cfg, poller, gen.CrawlPath(),
			&res.SnapshotWatch, "--snapshot", "--source", gen.Source(), file)
		res.PollErrors += pollErrors
		fmt.Fprintf(out, "live: snapshot of %s at %.1f s took %.1f s: %+v %s\n", gen.Source(),
			res.SnapshotStart.Seconds(), res.Snapshot.Elapsed.Seconds(), res.Snapshot.Counts, res.Snapshot.Err)
	})
	var batchMu sync.Mutex
	var watches sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(cfg.Interval)
		defer tick.Stop()
		for phaseCtx.Err() == nil {
			b, err := runBatch(ctx, cfg, gen, poller, dir, start, &watches, &batchMu)
			if err != nil {
				batchMu.Lock()
				res.Problems = append(res.Problems, err.Error())
				batchMu.Unlock()
			}
			if b != nil {
				batchMu.Lock()
				res.Batches = append(res.Batches, b)
				batchMu.Unlock()
			}
			select {
			case <-phaseCtx.Done():
			case <-tick.C:
			}
		}
	})
	res.Live = c.drivePhase(ctx, cases, kinds, len(names), cfg.Conns, cfg.Duration, cpu, metrics)
	res.Machine.LoadAfter = loadAverage()
	rep("live", res.Live)
	wg.Wait()
	watches.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	res.finish(ctx, db, poller, gen)
	fmt.Fprintf(out, "live: %d batches, visibility lag p50 %.0f ms, p95 %.0f ms, max %.0f ms; %d polls, %d wrong totals, %d poll errors\n",
		res.Lag.N, ms(res.Lag.P50), ms(res.Lag.P95), ms(res.Lag.Max), res.Polls, len(res.Wrong), res.PollErrors)
	for _, p := range res.Problems {
		fmt.Fprintln(out, "    PROBLEM:", p)
	}
	for _, w := range res.Wrong {
		fmt.Fprintln(out, "    WRONG TOTAL:", w)
	}

	section := res.markdown()
	return reportScenario(out, "live", cfg.Out, cfg.N, section,
		func(doc string) (string, error) { return placeLiveSection(doc, cfg.N, section) }, res.failures())
}

// newScenario makes the generator of a scenario writing cfg.Duration of
// batches, and a temporary directory for its files (the caller removes
// it); name prefixes errors.
func newScenario(cfg liveConfig, name string) (*liveGen, string, error) {
	batches := int(cfg.Duration/cfg.Interval) + 2
	gen, err := newLiveGen(liveGenOptions{Run: cfg.Run, Crawl: cfg.Crawl, New: cfg.New, Updates: cfg.Updates,
		Batches: batches, CloseEvery: cfg.CloseEvery})
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp("", "benchload-"+name+"-")
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	return gen, dir, nil
}

// importCrawl imports the crawled source's postings with jobsd import and
// waits for jobsd to settle (see settle).
func importCrawl(ctx context.Context, cfg liveConfig, gen *liveGen, dir string, poller *totaler, metrics *client, name string) (
	run importRun, settled time.Duration, note string, err error) {
	before, err := poller.total(ctx, "/api/v1/jobs?limit=1")
	if err != nil {
		return run, 0, "", fmt.Errorf("%s: the total before the crawl: %w", name, err)
	}
	crawlFile := filepath.Join(dir, "crawl.ndjson")
	if err := writeFile(crawlFile, gen.WriteCrawl); err != nil {
		return run, 0, "", err
	}
	run = runJobsdImport(ctx, cfg, crawlFile)
	if run.Err != "" {
		return run, 0, "", fmt.Errorf("%s: the crawl's import: %s", name, run.Err)
	}
	settled, note = settle(ctx, poller, metrics, before+run.Counts.Opened, cfg.SettleTimeout)
	return run, settled, note, nil
}

// importWatched runs `jobsd import ARGS…` while watchTotal follows the
// total of path into w, and returns the import and, once it committed,
// how long after its exit w.After was first seen (seen false: never, or
// the import failed), with the watch's failed polls.
func importWatched(ctx context.Context, cfg liveConfig, poller *totaler, path string, w *totalWatch, args ...string) (
	run importRun, lag time.Duration, seen bool, pollErrors int) {
	var exited atomic.Pointer[time.Time]
	failed := make(chan struct{})
	var watched sync.WaitGroup
	watched.Go(func() {
		n, ok := watchTotal(ctx, cfg, poller, path, w, &exited, failed)
		pollErrors = n
		if ex := exited.Load(); ok && ex != nil {
			lag, seen = w.lag(*ex)
		}
	})
	run = runJobsdImport(ctx, cfg, args...)
	if run.Err != "" {
		close(failed)
	} else {
		ex := run.Exited
		exited.Store(&ex)
	}
	watched.Wait()
	return run, lag, seen, pollErrors
}

// runBatch writes and imports the next batch, with a watch of its marker's
// total that runs on its own (watches) until the total has held for Hold.
// The batch run is filled in by the watch when it ends (under mu).
func runBatch(ctx context.Context, cfg liveConfig, gen *liveGen, poller *totaler, dir string, start time.Time,
	watches *sync.WaitGroup, mu *sync.Mutex) (*batchRun, error) {
	var buf bytes.Buffer
	b, err := gen.WriteBatch(&buf)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, fmt.Sprintf("batch-%05d.ndjson", b.Seq))
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	br := &batchRun{batch: b, Start: time.Since(start)}
	path := "/api/v1/jobs?limit=1&company=" + url.QueryEscape(b.Marker)
	var exited atomic.Pointer[time.Time]
	failed := make(chan struct{})
	w := totalWatch{Before: 0, After: len(b.New)}
	watches.Go(func() {
		pollErrors, ok := watchTotal(ctx, cfg, poller, path, &w, &exited, failed)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		br.Watch, br.PollErrors = w, pollErrors
		if ex := exited.Load(); ex != nil {
			br.Lag, br.Visible = w.lag(*ex)
		}
	})
	br.Import = runJobsdImport(ctx, cfg, file)
	ex := br.Import.Exited
	exited.Store(&ex)
	if br.Import.Err != "" {
		close(failed)
		return br, fmt.Errorf("live: batch %d: %s", b.Seq, br.Import.Err)
	}
	return br, nil
}

// watchTotal polls the total of path into w every cfg.Poll, from before
// the import starts (a total seen while it runs is checked too), until the
// import has exited (exited set) and w.After has been seen for cfg.Hold,
// or cfg.VisibleTimeout after the exit. It returns how many polls failed,
// and false when it stopped because failed was closed (the import failed).
func watchTotal(ctx context.Context, cfg liveConfig, poller *totaler, path string, w *totalWatch,
	exited *atomic.Pointer[time.Time], failed <-chan struct{}) (pollErrors int, ok bool) {
	for ctx.Err() == nil {
		total, err := poller.total(ctx, path)
		now := time.Now()
		if err != nil {
			pollErrors++
		} else {
			w.observe(total, now)
		}
		if ex := exited.Load(); ex != nil {
			if (!w.Seen.IsZero() && now.Sub(w.Seen) >= cfg.Hold) || now.Sub(*ex) > cfg.VisibleTimeout {
				break
			}
		}
		select {
		case <-failed:
			return pollErrors, false
		case <-ctx.Done():
		case <-time.After(cfg.Poll):
		}
	}
	return pollErrors, true
}

// finish summarizes the batches' lags and wrong totals and checks the end
// state: every batch's total once more, and the snapshot's scope in SQL.
func (r *liveResult) finish(ctx context.Context, db *pgx.Conn, poller *totaler, gen *liveGen) {
	var lags []time.Duration
	for _, b := range r.Batches {
		r.Polls += b.Watch.Polls
		r.PollErrors += b.PollErrors
		for _, w := range b.Watch.Wrong {
			r.Wrong = append(r.Wrong, fmt.Sprintf("batch %d (%s): %s", b.Seq, b.Marker, w))
		}
		switch {
		case b.Import.Err != "":
			// Counted as a problem when it failed.
		case !b.Visible:
			r.Problems = append(r.Problems, fmt.Sprintf("batch %d (%s): its %d postings not seen within %s of its import",
				b.Seq, b.Marker, len(b.New), r.Config.VisibleTimeout))
		default:
			lags = append(lags, b.Lag)
		}
		if b.Import.Err == "" && b.Import.Counts.Opened != len(b.New) {
			r.Problems = append(r.Problems, fmt.Sprintf("batch %d: the import opened %d postings, want %d (%+v)",
				b.Seq, b.Import.Counts.Opened, len(b.New), b.Import.Counts))
		}
		if b.Import.Err == "" {
			total, err := poller.total(ctx, "/api/v1/jobs?limit=1&company="+url.QueryEscape(b.Marker))
			if err == nil && total != len(b.New) {
				r.Wrong = append(r.Wrong, fmt.Sprintf("batch %d (%s): total %d after the live phase, want %d", b.Seq, b.Marker, total, len(b.New)))
			}
		}
	}
	r.Lag = newLagStats(lags)
	r.Polls += r.SnapshotWatch.Polls
	for _, w := range r.SnapshotWatch.Wrong {
		r.Wrong = append(r.Wrong, "the crawl, around the snapshot: "+w)
	}
	if r.Snapshot.Err == "" && r.Snapshot.Counts.OK && !r.SnapshotVisible {
		r.Problems = append(r.Problems, fmt.Sprintf("the snapshot's closes not seen in the crawl's total within %s", r.Config.VisibleTimeout))
	}
	if total, err := poller.total(ctx, gen.CrawlPath()); err == nil && total != r.Config.Crawl-gen.Closing() && r.Snapshot.Err == "" {
		r.Wrong = append(r.Wrong, fmt.Sprintf("the crawl: total %d after the live phase, want %d", total, r.Config.Crawl-gen.Closing()))
	}
	if r.Snapshot.Err == "" && r.Snapshot.Counts.OK {
		if r.Snapshot.Counts.Closed != gen.Closing() {
			r.Problems = append(r.Problems, fmt.Sprintf("the snapshot closed %d postings, want %d", r.Snapshot.Counts.Closed, gen.Closing()))
		}
	} else if r.Snapshot.Err != "" {
		r.Problems = append(r.Problems, "the snapshot: "+r.Snapshot.Err)
	} else {
		r.Problems = append(r.Problems, "the snapshot did not run")
	}
	if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs WHERE source = $1`, gen.Source()).Scan(&r.SnapshotOpen); err != nil {
		r.Problems = append(r.Problems, "count the snapshot's scope: "+err.Error())
	} else if want := r.Config.Crawl - gen.Closing(); r.SnapshotOpen != want {
		r.Problems = append(r.Problems, fmt.Sprintf("source %s has %d open postings after the snapshot, want %d", gen.Source(), r.SnapshotOpen, want))
	}
}

// failures are what makes the scenario fail: errors answered under load,
// wrong totals and the harness's problems. Missed targets are reported,
// not failed.
func (r *liveResult) failures() []string {
	var f []string
	if n := r.Quiet.Errors + r.Live.Errors; n > 0 {
		f = append(f, fmt.Sprintf("%d requests failed (quiet %d, live %d)", n, r.Quiet.Errors, r.Live.Errors))
	}
	if len(r.Wrong) > 0 {
		f = append(f, fmt.Sprintf("%d wrong totals observed", len(r.Wrong)))
	}
	return append(f, r.Problems...)
}

// runJobsdImport runs `jobsd import ARGS…` against cfg.DSN, as an
// operator's cron would.
func runJobsdImport(ctx context.Context, cfg liveConfig, args ...string) importRun {
	r := importRun{Args: args}
	cmd := exec.CommandContext(ctx, cfg.Jobsd, append([]string{"import"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+cfg.DSN)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	t0 := time.Now()
	err := cmd.Run()
	r.Exited = time.Now()
	r.Elapsed = r.Exited.Sub(t0)
	if cmd.ProcessState != nil {
		r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	r.Counts = parseCounts(output.String())
	if err != nil {
		r.Err = fmt.Sprintf("%s import %s: %v: %s", cfg.Jobsd, strings.Join(args, " "), err, lastLines(output.String(), 3))
	}
	return r
}

// lastLines returns the last n lines of s, on one line.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}

// writeFile creates file and fills it with write.
func writeFile(file string, write func(io.Writer) error) error {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("live: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("live: %s: %w", file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("live: %w", err)
	}
	return nil
}

// totaler reads meta.total of REST list answers, on connections of its
// own (the load's are busy).
type totaler struct {
	base, key string
	http      *http.Client
}

// total returns meta.total of GET path.
func (t *totaler) total(ctx context.Context, path string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.base+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("x-api-key", t.key)
	resp, err := t.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("GET %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: status %d: %.200s", path, resp.StatusCode, body)
	}
	var page struct {
		Meta struct {
			Total *int `json:"total"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(body, &page); err != nil || page.Meta.Total == nil {
		return 0, fmt.Errorf("GET %s: no meta.total in %.200s", path, body)
	}
	return *page.Meta.Total, nil
}

// settle waits until jobsd's total of all postings is want, then until
// ten newest pages in a row each take at most 10 ms on one connection and
// jobsd used under a quarter of a CPU over the last second: jobsd has
// absorbed the import (caught up, and any index build it started is
// done), so that the quiet phase does not measure that. It returns how
// long it waited, and a note when it gave up at timeout.
func settle(ctx context.Context, t *totaler, metrics *client, want int, timeout time.Duration) (time.Duration, string) {
	start := time.Now()
	deadline := start.Add(timeout)
	seen, fast := false, 0
	// jobsd's processor time, sampled each second while the pages are fast.
	var cpuAt time.Time
	cpuWas, idle := 0.0, false
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if now := time.Now(); now.Sub(cpuAt) >= time.Second {
			v, err := metrics.metric(ctx, "process_cpu_seconds_total")
			idle = err != nil || (!cpuAt.IsZero() && (v-cpuWas)/now.Sub(cpuAt).Seconds() < 0.25)
			cpuAt, cpuWas = now, v
		}
		t0 := time.Now()
		total, err := t.total(ctx, "/api/v1/jobs?limit=25")
		took := time.Since(t0)
		switch {
		case err != nil || (!seen && total != want):
		case !seen:
			seen = true
		case took <= 10*time.Millisecond:
			fast++
		default:
			fast = 0
		}
		if fast >= 10 && idle {
			return time.Since(start), ""
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !seen {
		return time.Since(start), fmt.Sprintf("(gave up: the total never reached %d)", want)
	}
	return time.Since(start), "(gave up waiting for fast answers and an idle jobsd)"
}
