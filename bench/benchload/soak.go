package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/jobsd-dev/jobsd/bench/internal/hostile"
)

// soakConfig is the soak's setup (benchload -soak, make soak): the live
// scenario's imports, run for a long time, with snapshots both ways,
// hostile traffic and a database restart half way.
type soakConfig struct {
	liveConfig
	// Window is the length of one stretch of the read load; errors are
	// placed in time by their window.
	Window time.Duration
	// SnapshotEvery is the time between the snapshots of the crawled
	// source, which alternately close a tenth of it and open it whole.
	SnapshotEvery time.Duration
	// Keep is how many batches stay open: batch k closes batch k-Keep's
	// new postings, so that the data's size stays flat.
	Keep int
	// Sample is the period of the resource samples; Warmup the time before
	// the start sample, which is the median of the samples of one Window
	// after it (as are the middle and end samples, before the restart and
	// at the end).
	Sample, Warmup time.Duration
	// Restart is a shell command that restarts the database server, run
	// half way; Grace the time after it during which the service may
	// answer 503 and imports may fail.
	Restart string
	Grace   time.Duration
	// BadKeys is the rate of requests with wrong keys from one client
	// behind the trusted proxy (X-Forwarded-For BadKeyAddr), a second;
	// HostileEvery the time between hostile GraphQL documents.
	BadKeys      int
	HostileEvery time.Duration
	// Growth is the growth of RSS, goroutines and open files from the
	// start sample to the end one that fails the soak (0.10: 10%).
	Growth float64
}

// badKeyAddr is the address the wrong keys come from, as the trusted proxy
// says (a documentation address, RFC 5737).
const badKeyAddr = "203.0.113.77"

// resources is one sample of jobsd's resources, from its /metrics.
type resources struct {
	At         time.Duration // into the soak
	RSS        float64       // bytes
	Goroutines float64
	OpenFiles  float64
	Err        string
}

// window is one stretch of the read load.
type window struct {
	Start, End time.Duration
	phaseResult
}

// hostileTally counts the answers to the hostile traffic by status.
type hostileTally struct {
	mu       sync.Mutex
	byStatus map[string]int
	// Bad are answers that must not happen: a 5xx outside the restart's
	// grace, a 429 without its X-RateLimit-* headers, a wrong key let in;
	// the first 50 described, all of them counted.
	Bad      []string
	BadCount int
	// Beside are the latencies of the valid key's requests sent beside
	// the wrong keys, through the same proxy; Alone those of the same
	// requests in the first half of the warm-up, before any wrong key.
	Beside, Alone []time.Duration
}

func (h *hostileTally) add(kind string, status int, bad string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byStatus[fmt.Sprintf("%s %d", kind, status)]++
	if bad == "" {
		return
	}
	h.BadCount++
	if len(h.Bad) < 50 {
		h.Bad = append(h.Bad, bad)
	}
}

// soakResult is what one soak found.
type soakResult struct {
	Config  soakConfig
	Date    time.Time
	Prep    importRun
	Settle  time.Duration
	Windows []window
	Samples []resources
	Batches []*batchRun
	Closes  []*closeRun
	Snaps   []*snapRun
	Hostile hostileTally
	Restart struct {
		Start, End time.Duration
		Err        string
	}
	Wrong    []string
	Problems []string
	// Tolerated are failures inside the restart's grace, as expected.
	Tolerated []string
}

// closeRun is the watch of an earlier batch's postings as a later batch
// closes them.
type closeRun struct {
	Of    int // the batch closed
	By    int // the batch closing it
	Watch totalWatch
}

// snapRun is one snapshot of the crawled source.
type snapRun struct {
	Start   time.Duration
	Closing bool // closes a tenth; else opens the crawl whole again
	Import  importRun
	Watch   totalWatch
	Visible bool
}

// soakClock is the soak's clock: the time since its load began.
type soakClock struct{ t0 time.Time }

func (c soakClock) now() time.Duration { return time.Since(c.t0) }

// inGrace says whether the stretch [from, to] of the soak meets the
// restart's grace.
func (r *soakResult) inGrace(from, to time.Duration) bool {
	if r.Restart.Start == 0 {
		return false
	}
	if r.Restart.End == 0 { // under way
		return to >= r.Restart.Start
	}
	return from <= r.Restart.End+r.Config.Grace && to >= r.Restart.Start
}

// runSoak runs the soak and reports it on out; it fails on growth, on an
// error outside the restart's grace, and on any lost or wrong answer.
func runSoak(ctx context.Context, cfg soakConfig, mix []query, out io.Writer) error {
	cases, kinds, names := listMix(mix)
	if len(cases) == 0 {
		return errors.New("soak: the mix has no list query types")
	}
	gen, dir, err := newScenario(cfg.liveConfig, "soak")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	res := &soakResult{Config: cfg, Date: time.Now().UTC()}
	res.Hostile.byStatus = map[string]int{}
	poller := &totaler{base: cfg.Base, key: cfg.Key, http: &http.Client{Timeout: 30 * time.Second}}
	metrics := newClient(cfg.Base, "", 2)

	if res.Prep, res.Settle, _, err = importCrawl(ctx, cfg.liveConfig, gen, dir, poller, metrics, "soak"); err != nil {
		return err
	}
	fmt.Fprintf(out, "soak: %d postings of %s imported in %.1f s, settled after %.1f s; running for %s\n",
		cfg.Crawl, gen.Source(), res.Prep.Elapsed.Seconds(), res.Settle.Seconds(), cfg.Duration)

	clock := soakClock{t0: time.Now()}
	soakCtx, end := context.WithDeadline(ctx, clock.t0.Add(cfg.Duration))
	defer end()
	var mu sync.Mutex // guards res's slices while the soak runs
	var wg, watches sync.WaitGroup

	// Resources.
	wg.Go(func() {
		tick := time.NewTicker(cfg.Sample)
		defer tick.Stop()
		for {
			s := sampleResources(ctx, metrics, clock.now())
			mu.Lock()
			res.Samples = append(res.Samples, s)
			mu.Unlock()
			select {
			case <-soakCtx.Done():
				return
			case <-tick.C:
			}
		}
	})
	// The read load, window by window.
	c := newClient(cfg.Base, cfg.Key, cfg.Conns)
	noCPU := func() cpuSample { return cpuSample{at: time.Now()} }
	wg.Go(func() {
		for soakCtx.Err() == nil {
			from := clock.now()
			d := min(cfg.Window, cfg.Duration-from)
			if d <= 0 {
				return
			}
			p := c.drivePhase(soakCtx, cases, kinds, len(names), cfg.Conns, d, noCPU, metrics)
			w := window{Start: from, End: clock.now(), phaseResult: p}
			mu.Lock()
			res.Windows = append(res.Windows, w)
			mu.Unlock()
			fmt.Fprintf(out, "soak: %6.0f s %7.0f req/s  p50 %6.1f ms  p99 %7.1f ms  errors %d\n",
				w.End.Seconds(), p.PerSecond(), ms(p.P50), ms(p.P99), p.Errors)
		}
	})
	// Batches: new postings, updates, and the closing of batch k-Keep.
	wg.Go(func() {
		tick := time.NewTicker(cfg.Interval)
		defer tick.Stop()
		var open []*batchRun // imported, not closed yet, oldest first
		for soakCtx.Err() == nil {
			var closing *batchRun
			if len(open) >= cfg.Keep {
				closing = open[0]
			}
			b, cr := soakBatch(ctx, cfg, gen, poller, dir, clock, closing, &watches, &mu)
			mu.Lock()
			res.Batches = append(res.Batches, b)
			if cr != nil && b.Import.Err == "" {
				res.Closes = append(res.Closes, cr)
			}
			switch {
			case b.Import.Err == "":
				open = append(open, b)
				if closing != nil {
					open = open[1:]
				}
			case res.inGrace(b.Start, b.Start+b.Import.Elapsed) || restartPending(res, clock, cfg):
				res.Tolerated = append(res.Tolerated, fmt.Sprintf("batch %d at %.0f s: %s", b.Seq, b.Start.Seconds(), b.Import.Err))
			default:
				res.Problems = append(res.Problems, fmt.Sprintf("batch %d at %.0f s: %s", b.Seq, b.Start.Seconds(), b.Import.Err))
			}
			mu.Unlock()
			select {
			case <-soakCtx.Done():
			case <-tick.C:
			}
		}
	})
	// Snapshots, alternately closing a tenth of the crawl and opening it
	// whole again.
	wg.Go(func() {
		closing := true
		for {
			select {
			case <-soakCtx.Done():
				return
			case <-time.After(cfg.SnapshotEvery):
			}
			s := soakSnapshot(ctx, cfg, gen, poller, dir, clock, closing)
			mu.Lock()
			res.Snaps = append(res.Snaps, s)
			failed := s.Import.Err != ""
			switch {
			case !failed:
				closing = !closing
			case res.inGrace(s.Start, s.Start+s.Import.Elapsed) || restartPending(res, clock, cfg):
				res.Tolerated = append(res.Tolerated, fmt.Sprintf("snapshot at %.0f s: %s", s.Start.Seconds(), s.Import.Err))
			default:
				res.Problems = append(res.Problems, fmt.Sprintf("snapshot at %.0f s: %s", s.Start.Seconds(), s.Import.Err))
			}
			mu.Unlock()
			fmt.Fprintf(out, "soak: snapshot at %.0f s (closing %v) took %.1f s: %+v %s\n",
				s.Start.Seconds(), s.Closing, s.Import.Elapsed.Seconds(), s.Import.Counts, s.Import.Err)
		}
	})
	// Hostile traffic.
	wg.Go(func() { sendHostile(soakCtx, cfg, res, clock, &mu) })
	// The database restart, half way.
	if cfg.Restart != "" {
		wg.Go(func() {
			select {
			case <-soakCtx.Done():
				return
			case <-time.After(cfg.Duration / 2):
			}
			mu.Lock()
			res.Restart.Start = clock.now()
			mu.Unlock()
			fmt.Fprintf(out, "soak: restarting the database at %.0f s\n", res.Restart.Start.Seconds())
			cmd := exec.CommandContext(ctx, "sh", "-c", cfg.Restart)
			b, err := cmd.CombinedOutput()
			mu.Lock()
			res.Restart.End = clock.now()
			if err != nil {
				res.Restart.Err = fmt.Sprintf("%v: %s", err, lastLines(string(b), 3))
				res.Problems = append(res.Problems, "the database restart: "+res.Restart.Err)
			}
			mu.Unlock()
			fmt.Fprintf(out, "soak: database restarted at %.0f s\n", res.Restart.End.Seconds())
		})
	}
	wg.Wait()
	watches.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	res.finish(ctx, poller, gen)
	res.report(out, names)
	if err := printFailures(out, res.failures(), "the soak"); err != nil {
		return err
	}
	fmt.Fprintln(out, "soak: passed")
	return nil
}

// restartPending says whether the restart is due within the next Grace
// but not started (an import that fails just before it is the restart's).
func restartPending(r *soakResult, clock soakClock, cfg soakConfig) bool {
	if cfg.Restart == "" || r.Restart.Start != 0 {
		return false
	}
	return clock.now() >= cfg.Duration/2-cfg.Grace
}

// sampleResources reads jobsd's RSS, goroutines and open files.
func sampleResources(ctx context.Context, metrics *client, at time.Duration) resources {
	s := resources{At: at}
	var errs []string
	for _, m := range []struct {
		name string
		v    *float64
	}{{"process_resident_memory_bytes", &s.RSS}, {"go_goroutines", &s.Goroutines}, {"process_open_fds", &s.OpenFiles}} {
		v, err := metrics.metric(ctx, m.name)
		if err != nil {
			errs = append(errs, err.Error())
		}
		*m.v = v
	}
	s.Err = strings.Join(errs, "; ")
	return s
}

// soakBatch imports the next batch with the tombstones of closing (nil:
// none), watching the batch's total go from 0 to its size and closing's
// from its size to 0.
func soakBatch(ctx context.Context, cfg soakConfig, gen *liveGen, poller *totaler, dir string, clock soakClock,
	closing *batchRun, watches *sync.WaitGroup, mu *sync.Mutex) (*batchRun, *closeRun) {
	var ids []string
	if closing != nil {
		ids = closing.New
	}
	var buf bytes.Buffer
	b, err := gen.WriteBatchClosing(&buf, ids)
	br := &batchRun{batch: b, Start: clock.now()}
	if err != nil {
		br.Import.Err = err.Error()
		return br, nil
	}
	file := filepath.Join(dir, fmt.Sprintf("batch-%05d.ndjson", b.Seq))
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		br.Import.Err = err.Error()
		return br, nil
	}
	var exited atomic.Pointer[time.Time]
	failed := make(chan struct{})
	watch := func(path string, w *totalWatch, done func(pollErrors int)) {
		watches.Go(func() {
			pollErrors, ok := watchTotal(ctx, cfg.liveConfig, poller, path, w, &exited, failed)
			if !ok {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			done(pollErrors)
		})
	}
	nw := &totalWatch{Before: 0, After: len(b.New)}
	watch(markerPath(b.Marker), nw, func(pollErrors int) {
		br.Watch = *nw
		br.PollErrors += pollErrors
		if ex := exited.Load(); ex != nil {
			br.Lag, br.Visible = nw.lag(*ex)
		}
	})
	var cr *closeRun
	if closing != nil {
		cr = &closeRun{Of: closing.Seq, By: b.Seq}
		cw := &totalWatch{Before: len(closing.New), After: 0}
		watch(markerPath(closing.Marker), cw, func(pollErrors int) {
			cr.Watch = *cw
			br.PollErrors += pollErrors
		})
	}
	br.Import = runJobsdImport(ctx, cfg.liveConfig, file)
	ex := br.Import.Exited
	exited.Store(&ex)
	if br.Import.Err != "" {
		close(failed)
	}
	return br, cr
}

// markerPath is the REST list whose total counts a batch's postings.
func markerPath(marker string) string {
	return "/api/v1/jobs?limit=1&company=" + url.QueryEscape(marker)
}

// soakSnapshot imports a snapshot of the crawled source: without a tenth
// of it when closing, else whole (opening that tenth again).
func soakSnapshot(ctx context.Context, cfg soakConfig, gen *liveGen, poller *totaler, dir string, clock soakClock, closing bool) *snapRun {
	s := &snapRun{Start: clock.now(), Closing: closing}
	file := filepath.Join(dir, "snapshot.ndjson")
	write, w := gen.WriteCrawl, totalWatch{Before: cfg.Crawl - gen.Closing(), After: cfg.Crawl}
	if closing {
		write, w = gen.WriteSnapshot, totalWatch{Before: cfg.Crawl, After: cfg.Crawl - gen.Closing()}
	}
	if err := writeFile(file, write); err != nil {
		s.Import.Err = err.Error()
		return s
	}
	s.Import, _, s.Visible, _ = importWatched(ctx, cfg.liveConfig, poller, gen.CrawlPath(), &w, "--snapshot", "--source", gen.Source(), file)
	s.Watch = w
	return s
}

// sendHostile sends, until ctx ends, cfg.BadKeys requests a second with
// wrong keys from badKeyAddr (through the trusted proxy), each followed
// every tenth time by the valid key from another address behind the same
// proxy, which must be served; and every cfg.HostileEvery one of the
// hostile GraphQL documents with the valid key, which must be refused or
// answered, never fail.
func sendHostile(ctx context.Context, cfg soakConfig, res *soakResult, clock soakClock, mu *sync.Mutex) {
	hc := &http.Client{Timeout: 30 * time.Second}
	bodies := hostile.Bodies()
	send := func(method, path, key, forwarded string, body []byte) (int, http.Header, error) {
		req, err := http.NewRequestWithContext(ctx, method, cfg.Base+path, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("x-api-key", key)
		req.Header.Set("X-Forwarded-For", forwarded)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := hc.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, resp.Header, nil
	}
	judge := func(kind string, at time.Duration, status int, h http.Header, err error, want func(int) bool) {
		if ctx.Err() != nil {
			return
		}
		mu.Lock()
		grace := res.inGrace(at, clock.now())
		mu.Unlock()
		bad := ""
		switch {
		case err != nil:
			bad = fmt.Sprintf("%s at %.0f s: %v", kind, at.Seconds(), err)
		case status == http.StatusTooManyRequests && h.Get("X-RateLimit-Limit") == "":
			bad = fmt.Sprintf("%s at %.0f s: 429 without X-RateLimit-Limit", kind, at.Seconds())
		case status >= 500 && grace && status == http.StatusServiceUnavailable:
		case !want(status):
			bad = fmt.Sprintf("%s at %.0f s: status %d", kind, at.Seconds(), status)
		}
		if bad != "" && grace && (err != nil || status == http.StatusServiceUnavailable) {
			bad = ""
		}
		res.Hostile.add(kind, status, bad)
	}
	refused := func(s int) bool { return s == http.StatusUnauthorized || s == http.StatusTooManyRequests }
	served := func(s int) bool { return s == http.StatusOK }
	answered := func(s int) bool { return s == http.StatusOK || (s >= 400 && s < 500) }
	tick := time.NewTicker(time.Second / time.Duration(max(cfg.BadKeys, 1)))
	defer tick.Stop()
	lastHostile := time.Now()
	for i := 0; ctx.Err() == nil; i++ {
		// The first half of the warm-up measures the valid key alone.
		alone := clock.now() < cfg.Warmup/2
		if !alone && cfg.BadKeys > 0 {
			at := clock.now()
			st, h, err := send(http.MethodGet, "/api/v1/jobs?limit=1", fmt.Sprintf("wrong-key-%d", i), badKeyAddr, nil)
			judge("wrong key", at, st, h, err, refused)
		}
		if i%10 == 0 {
			at := clock.now()
			t0 := time.Now()
			st, h, err := send(http.MethodGet, "/api/v1/jobs?limit=1", cfg.Key, "198.51.100.7", nil)
			took := time.Since(t0)
			judge("valid key beside them", at, st, h, err, served)
			mu.Lock()
			if alone {
				res.Hostile.Alone = append(res.Hostile.Alone, took)
			} else {
				res.Hostile.Beside = append(res.Hostile.Beside, took)
			}
			mu.Unlock()
		}
		if !alone && time.Since(lastHostile) >= cfg.HostileEvery {
			lastHostile = time.Now()
			at := clock.now()
			st, h, err := send(http.MethodPost, "/graphql", cfg.Key, "198.51.100.8", []byte(bodies[i%len(bodies)]))
			judge("hostile GraphQL", at, st, h, err, answered)
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
}

// finish checks the end state: every batch's total, the crawl's, and
// jobsd's total of every open posting against the database's.
func (r *soakResult) finish(ctx context.Context, poller *totaler, gen *liveGen) {
	closed := map[int]bool{}
	for _, c := range r.Closes {
		closed[c.Of] = true
		for _, w := range c.Watch.Wrong {
			r.Wrong = append(r.Wrong, fmt.Sprintf("batch %d as batch %d closed it: %s", c.Of, c.By, w))
		}
	}
	var lags []time.Duration
	for _, b := range r.Batches {
		for _, w := range b.Watch.Wrong {
			r.Wrong = append(r.Wrong, fmt.Sprintf("batch %d: %s", b.Seq, w))
		}
		if b.Import.Err != "" {
			// A failed import is all or nothing: a restart may end the
			// session after its commit, so that it reports a failure.
			if total, err := poller.total(ctx, markerPath(b.Marker)); err != nil {
				r.Problems = append(r.Problems, fmt.Sprintf("batch %d at the end: %v", b.Seq, err))
			} else if total != 0 && total != len(b.New) {
				r.Wrong = append(r.Wrong, fmt.Sprintf("batch %d failed, and %d of its %d postings are listed", b.Seq, total, len(b.New)))
			}
			continue
		}
		if b.Visible {
			lags = append(lags, b.Lag)
		} else {
			r.Problems = append(r.Problems, fmt.Sprintf("batch %d: its postings not seen within %s of its import", b.Seq, r.Config.VisibleTimeout))
		}
		want := len(b.New)
		if closed[b.Seq] {
			want = 0
		}
		if total, err := poller.total(ctx, markerPath(b.Marker)); err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("batch %d at the end: %v", b.Seq, err))
		} else if total != want {
			r.Wrong = append(r.Wrong, fmt.Sprintf("batch %d: total %d at the end, want %d", b.Seq, total, want))
		}
	}
	lag := newLagStats(lags)
	r.Problems = append(r.Problems, lagProblems(lag)...)
	wantCrawl, orCrawl := r.Config.Crawl, -1 // orCrawl: a failed last snapshot's total, had it committed
	for _, s := range r.Snaps {
		for _, w := range s.Watch.Wrong {
			r.Wrong = append(r.Wrong, fmt.Sprintf("the crawl around the snapshot at %.0f s: %s", s.Start.Seconds(), w))
		}
		if s.Import.Err != "" {
			orCrawl = s.Watch.After
			continue
		}
		orCrawl = -1
		if !s.Visible {
			r.Problems = append(r.Problems, fmt.Sprintf("the snapshot at %.0f s not seen in the crawl's total", s.Start.Seconds()))
		}
		wantCrawl = s.Watch.After
	}
	if total, err := poller.total(ctx, gen.CrawlPath()); err != nil {
		r.Problems = append(r.Problems, "the crawl's total at the end: "+err.Error())
	} else if total != wantCrawl && total != orCrawl {
		r.Wrong = append(r.Wrong, fmt.Sprintf("the crawl: total %d at the end, want %d", total, wantCrawl))
	}
	// Every open posting, by jobsd and by SQL, on a new connection (the
	// database restarted since the soak began).
	db, err := pgx.Connect(ctx, r.Config.DSN)
	if err != nil {
		r.Problems = append(r.Problems, "connect to the database at the end: "+err.Error())
		return
	}
	defer db.Close(context.Background())
	var want int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs WHERE valid_through IS NULL OR valid_through > now()`).Scan(&want); err != nil {
		r.Problems = append(r.Problems, "count the open postings: "+err.Error())
		return
	}
	if total, err := poller.total(ctx, "/api/v1/jobs?limit=1"); err != nil {
		r.Problems = append(r.Problems, "jobsd's total at the end: "+err.Error())
	} else if total != want {
		r.Wrong = append(r.Wrong, fmt.Sprintf("every open posting: jobsd's total %d, SQL's %d", total, want))
	}
}

// lagProblems: the visibility lag of the batches, within the live
// scenario's target.
func lagProblems(lag lagStats) []string {
	switch {
	case lag.N == 0:
		return []string{"no batch was seen"}
	case lag.P95 > lagP95Target:
		return []string{fmt.Sprintf("visibility lag p95 %.0f ms > %.0f ms", ms(lag.P95), ms(lagP95Target))}
	}
	return nil
}

// at returns the median of the samples in [from, from+span), and how
// many there were (none: a zero sample).
func (r *soakResult) at(from, span time.Duration) (resources, int) {
	var in []resources
	for _, s := range r.Samples {
		if s.Err == "" && s.At >= from && s.At < from+span {
			in = append(in, s)
		}
	}
	if len(in) == 0 {
		return resources{}, 0
	}
	med := func(f func(resources) float64) float64 {
		v := make([]float64, len(in))
		for i, s := range in {
			v[i] = f(s)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	return resources{At: from, RSS: med(func(s resources) float64 { return s.RSS }),
		Goroutines: med(func(s resources) float64 { return s.Goroutines }),
		OpenFiles:  med(func(s resources) float64 { return s.OpenFiles })}, len(in)
}

// points are the start, middle and end samples, and the names of those
// that have no sample (whose metrics jobsd did not answer).
func (r *soakResult) points() (start, middle, end resources, missing []string) {
	span := r.Config.Window
	mid := r.Config.Duration / 2
	if r.Restart.Start > 0 {
		mid = r.Restart.Start
	}
	var n [3]int
	start, n[0] = r.at(r.Config.Warmup, span)
	middle, n[1] = r.at(max(0, mid-span), span)
	end, n[2] = r.at(max(0, r.Config.Duration-span), span+time.Minute)
	for i, name := range []string{"start", "middle", "end"} {
		if n[i] == 0 {
			missing = append(missing, name)
		}
	}
	return start, middle, end, missing
}

// checkSoakWindows refuses a soak too short for its windows: the start
// window after the warm-up must end a window before the middle one (the
// restart's, when there is one), which must end before the end one.
func checkSoakWindows(cfg soakConfig) error {
	if cfg.Warmup+2*cfg.Window > cfg.Duration/2 {
		return fmt.Errorf("-soak-duration %s is too short for -soak-warmup %s and -soak-window %s: want at least 2×(warm-up + 2 windows)",
			cfg.Duration, cfg.Warmup, cfg.Window)
	}
	return nil
}

// growth is how much b exceeds a, as a share of a (and an allowance of
// slack units, so that 40 goroutines may become 44).
func growth(a, b, slack float64) float64 {
	if a <= 0 {
		return 0
	}
	return (b - slack - a) / a
}

// requestID is the request id in an error's body, which makes each
// error's text its own.
var requestID = regexp.MustCompile(`"request_id":"[^"]*"`)

// toleratedError says whether an error of a window is one the restart
// may cause: 503 (the database unavailable) in a window that meets its
// grace.
func (r *soakResult) toleratedError(w window, problem string) bool {
	return r.inGrace(w.Start, w.End) && strings.HasPrefix(problem, "status 503")
}

// failures are what fails the soak.
func (r *soakResult) failures() []string {
	var f []string
	for _, w := range r.Windows {
		for p, k := range w.Problems {
			if r.toleratedError(w, p) {
				continue
			}
			f = append(f, fmt.Sprintf("%d requests failed in the window at %.0f s: %s", k, w.Start.Seconds(), p))
		}
	}
	if len(r.Wrong) > 0 {
		f = append(f, fmt.Sprintf("%d wrong totals", len(r.Wrong)))
	}
	if n := r.Hostile.BadCount; n > 0 {
		f = append(f, fmt.Sprintf("%d wrong answers to the hostile traffic", n))
	}
	start, middle, end, missing := r.points()
	if len(missing) > 0 {
		f = append(f, fmt.Sprintf("no resource sample at the %s (jobsd's /metrics lacks process_resident_memory_bytes, go_goroutines or process_open_fds?)",
			strings.Join(missing, ", ")))
	}
	for _, m := range []struct {
		name        string
		a, b, slack float64
	}{
		{"RSS", start.RSS, end.RSS, 0},
		{"goroutines", start.Goroutines, end.Goroutines, 5},
		{"open files", start.OpenFiles, end.OpenFiles, 3},
		{"RSS (middle)", start.RSS, middle.RSS, 0},
	} {
		if g := growth(m.a, m.b, m.slack); g > r.Config.Growth {
			f = append(f, fmt.Sprintf("%s grew %.0f%% (from %.0f to %.0f), more than %.0f%%", m.name, 100*g, m.a, m.b, 100*r.Config.Growth))
		}
	}
	return append(f, r.Problems...)
}

// report prints the soak's summary.
func (r *soakResult) report(out io.Writer, names []string) {
	p := func(format string, a ...any) { fmt.Fprintf(out, format, a...) }
	var reqs, errs int
	var p99s []float64
	var rates []float64
	for _, w := range r.Windows {
		reqs += w.Requests
		errs += w.Errors
		p99s = append(p99s, ms(w.P99))
		rates = append(rates, w.PerSecond())
	}
	slices.Sort(p99s)
	slices.Sort(rates)
	medianOf := func(v []float64) float64 {
		if len(v) == 0 {
			return math.NaN()
		}
		return v[len(v)/2]
	}
	p("\n## Soak: %s, %d connections on the %d list query types\n\n", r.Config.Duration, r.Config.Conns, len(names))
	p("- Reads: %d requests in %d windows of %s, %d errors; per window: median %.0f req/s (lowest %.0f), median p99 %.1f ms (highest %.1f ms).\n",
		reqs, len(r.Windows), r.Config.Window, errs, medianOf(rates), first(rates), medianOf(p99s), last(p99s))
	okBatches, opened, lags := 0, 0, []time.Duration{}
	for _, b := range r.Batches {
		if b.Import.Err == "" {
			okBatches++
			opened += b.Import.Counts.Opened
			if b.Visible {
				lags = append(lags, b.Lag)
			}
		}
	}
	lag := newLagStats(lags)
	p("- Imports: %d of %d batches landed every %s (%d new postings each, %d updates, each closing the batch %d before it); %d postings opened, %d closed by tombstones; visibility lag p50 %.0f ms, p95 %.0f ms, max %.0f ms.\n",
		okBatches, len(r.Batches), r.Config.Interval, r.Config.New, r.Config.Updates, r.Config.Keep, opened, len(r.Closes)*r.Config.New,
		ms(lag.P50), ms(lag.P95), ms(lag.Max))
	p("- Snapshots of the %d-posting crawl every %s, alternately closing %d and opening them again: %d run.\n",
		r.Config.Crawl, r.Config.SnapshotEvery, r.Config.Crawl/r.Config.CloseEvery, len(r.Snaps))
	if r.Config.Restart != "" {
		p("- Database restarted at %.0f s, back at %.0f s (%s).\n", r.Restart.Start.Seconds(), r.Restart.End.Seconds(), orOK(r.Restart.Err))
	}
	keys := make([]string, 0, len(r.Hostile.byStatus))
	for k := range r.Hostile.byStatus {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var hs []string
	for _, k := range keys {
		hs = append(hs, fmt.Sprintf("%s ×%d", k, r.Hostile.byStatus[k]))
	}
	beside := slices.Sorted(slices.Values(r.Hostile.Beside))
	alone := slices.Sorted(slices.Values(r.Hostile.Alone))
	p("- Hostile traffic (wrong keys %d/s from %s behind the trusted proxy, hostile GraphQL every %s, from %s on): %s. "+
		"A valid key from another client behind the same proxy, once a second: p50 %.1f ms, p99 %.1f ms beside the wrong keys (%d requests); "+
		"p50 %.1f ms, p99 %.1f ms before them (%d).\n",
		r.Config.BadKeys, badKeyAddr, r.Config.HostileEvery, r.Config.Warmup/2, strings.Join(hs, ", "),
		ms(percentile(beside, 0.5)), ms(percentile(beside, 0.99)), len(beside), ms(percentile(alone, 0.5)), ms(percentile(alone, 0.99)), len(alone))
	start, middle, end, _ := r.points()
	p("\n| jobsd | start (%s) | middle (before the restart) | end | end ÷ start |\n|---|---:|---:|---:|---:|\n", r.Config.Warmup)
	p("| RSS | %.0f MiB | %.0f MiB | %.0f MiB | %.2f |\n", start.RSS/(1<<20), middle.RSS/(1<<20), end.RSS/(1<<20), ratio(end.RSS, start.RSS))
	p("| goroutines | %.0f | %.0f | %.0f | %.2f |\n", start.Goroutines, middle.Goroutines, end.Goroutines, ratio(end.Goroutines, start.Goroutines))
	p("| open files | %.0f | %.0f | %.0f | %.2f |\n", start.OpenFiles, middle.OpenFiles, end.OpenFiles, ratio(end.OpenFiles, start.OpenFiles))
	for _, w := range r.Windows {
		alike := map[string]int{} // the window's tolerated errors but for their request ids
		for problem, k := range w.Problems {
			if r.toleratedError(w, problem) {
				alike[requestID.ReplaceAllString(problem, `"request_id":"…"`)] += k
			}
		}
		for problem, k := range alike {
			r.Tolerated = append(r.Tolerated, fmt.Sprintf("%d requests in the window at %.0f s: %s", k, w.Start.Seconds(), problem))
		}
	}
	p("\nWrong totals: %d. Failures tolerated in the restart's grace (%s): %d.\n", len(r.Wrong), r.Config.Grace, len(r.Tolerated))
	for _, t := range r.Tolerated {
		p("    tolerated: %s\n", t)
	}
	for _, w := range r.Wrong {
		p("    WRONG TOTAL: %s\n", w)
	}
	for _, b := range r.Hostile.Bad {
		p("    HOSTILE: %s\n", b)
	}
}

func first(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return v[0]
}

func last(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return v[len(v)-1]
}

func orOK(err string) string {
	if err == "" {
		return "ok"
	}
	return err
}
