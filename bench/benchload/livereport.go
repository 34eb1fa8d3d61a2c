package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// The live scenario's targets.
const (
	liveRatioTarget = 0.8                    // live req/s over quiet req/s, at least
	liveP99Target   = 100 * time.Millisecond // live list p99, at most
	lagP95Target    = time.Second            // visibility lag p95, at most
)

// liveEndMarker ends a live section; liveBeginMarker starts N's.
const liveEndMarker = "<!-- bench-live:end -->"

func liveBeginMarker(n int) string { return fmt.Sprintf("<!-- bench-live:begin N=%d -->", n) }

// ratio is a/b, 0 when b is.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// targetMisses lists the targets the live scenario missed (none: all met).
func (r *liveResult) targetMisses() []string {
	var miss []string
	if q := ratio(r.Live.PerSecond(), r.Quiet.PerSecond()); q < liveRatioTarget {
		miss = append(miss, fmt.Sprintf("live throughput %.2f× quiet < %.1f×", q, liveRatioTarget))
	}
	if r.Live.P99 > liveP99Target {
		miss = append(miss, fmt.Sprintf("live p99 %.1f ms > %.0f ms", ms(r.Live.P99), ms(liveP99Target)))
	}
	switch {
	case r.Lag.N == 0:
		miss = append(miss, "no visibility lag measured")
	case r.Lag.P95 > lagP95Target:
		miss = append(miss, fmt.Sprintf("visibility lag p95 %.0f ms > %.0f ms", ms(r.Lag.P95), ms(lagP95Target)))
	}
	if len(r.Wrong) > 0 {
		miss = append(miss, fmt.Sprintf("%d wrong totals", len(r.Wrong)))
	}
	return miss
}

// markdown is the live scenario's section of the results file.
func (r *liveResult) markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	cfg := r.Config
	p("%s\n### Live scenario, N = %s\n\n", liveBeginMarker(cfg.N), itoa(cfg.N))
	p("Written by `N=%d make bench` (`BENCH_LIVE=1`, `bin/benchload -live`) on %s at commit `%s`.\n\n",
		cfg.N, r.Date.Format("2006-01-02 15:04 MST"), cfg.Commit)
	p("- Database: %s.\n", cfg.Database)
	p("- Before the phases: %s postings of source `%s` (the seed generator's, each company's name ending \"%s\") imported by `bin/jobsd import` in %.1f s; "+
		"jobsd then took %.1f s to show them, answer the newest page in ≤ 10 ms ten times in a row and idle (under a quarter of a CPU for a second)%s.\n",
		itoa(cfg.Crawl), r.Source, r.CrawlMarker, r.Prep.Elapsed.Seconds(), r.Settle.Seconds(), strings.TrimSpace(" "+r.SettleNote))
	p("- Load: the %d list query types of the mix (REST), one value of each in turn, rotating as in the quiet benchmark, on %d closed-loop connections; "+
		"%s of quiet, then %s live, each from the first value. Machine: %d CPUs, 1-minute load average %s before the quiet phase, %s after the live one.\n",
		len(r.Types), cfg.Conns, cfg.Duration, cfg.Duration, r.Machine.CPUs, r.Machine.LoadBefore, r.Machine.LoadAfter)
	p("- Live writes, each by `bin/jobsd import` as a cron would: every %s an import of %d postings (%d new, of a company "+
		"unique to the import, posted now; %d of the crawled source written again with a changed title), %d imports, "+
		"each taking %s; once, %.1f s into the phase, a snapshot of the crawled source lacking %s of its postings "+
		"(`--snapshot --source %s`), which took %.1f s (%s).\n",
		cfg.Interval, cfg.New+cfg.Updates, cfg.New, cfg.Updates, len(r.Batches), r.importSpread(),
		r.SnapshotStart.Seconds(), itoa(cfg.Crawl/cfg.CloseEvery), r.Source, r.Snapshot.Elapsed.Seconds(), countsText(r.Snapshot))
	p("\n| phase | req/s | p50 | p99 | errors | jobsd / PostgreSQL / load / imports / rest of the CPUs | jobsd CPU per request |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, ph := range []struct {
		name string
		r    phaseResult
	}{{"quiet", r.Quiet}, {"live", r.Live}} {
		c := ph.r.CPU
		p("| %s | %s | %.1f ms | %.1f ms | %d | %.0f%% / %.0f%% / %.0f%% / %.0f%% / %.0f%% | %.0f µs |\n", ph.name, itoa(int(ph.r.PerSecond()+0.5)),
			ms(ph.r.P50), ms(ph.r.P99), ph.r.Errors, 100*c.Jobsd, 100*c.Postgres, 100*c.Load, 100*ph.r.Imports, 100*c.Other,
			float64(c.JobsdPerRequest)/1e3)
	}
	p("| live / quiet | %.2f | %.2f | %.2f | | | %.2f |\n", ratio(r.Live.PerSecond(), r.Quiet.PerSecond()),
		ratio(float64(r.Live.P50), float64(r.Quiet.P50)), ratio(float64(r.Live.P99), float64(r.Quiet.P99)),
		ratio(float64(r.Live.CPU.JobsdPerRequest), float64(r.Quiet.CPU.JobsdPerRequest)))
	if idx := indexText(r.Quiet.Index, r.Live.Index); idx != "" {
		p("\njobsd's index (its /metrics) during the quiet phase, then the live one: %s.\n", idx)
	}
	p("\nThe imports' share is the processor time of the `jobsd import` processes that ended during the phase; " +
		"they run on the same CPUs as jobsd, PostgreSQL and the load generator.\n")
	p("\nVisibility lag (from the exit of each import until `GET /api/v1/jobs?company=<its company>&limit=1` showed its %d new postings "+
		"in `meta.total`, polled every %s on a connection of its own from before the import started): ", cfg.New, cfg.Poll)
	if r.Lag.N == 0 {
		p("not measured")
	} else {
		p("p50 %s, p95 %s, max %s over %d imports", lagText(r.Lag.P50), lagText(r.Lag.P95), lagText(r.Lag.Max), r.Lag.N)
	}
	p(". The snapshot's closes, watched the same way in the crawl's total (`company=%s`, its companies' names ending so: %s → %s): ",
		strings.TrimPrefix(r.CrawlMarker, " "), itoa(r.SnapshotWatch.Before), itoa(r.SnapshotWatch.After))
	if r.SnapshotVisible {
		p("shown %s after its exit", lagText(r.SnapshotLag))
	} else {
		p("not seen")
	}
	p(". Wrong totals (neither the count before nor after, or back to before), in both: %d in %s polls", len(r.Wrong), itoa(r.Polls))
	if r.PollErrors > 0 {
		p(" (%d polls failed)", r.PollErrors)
	}
	p(".\n\n")
	p("| query | quiet p50 | quiet p99 | live p50 | live p99 |\n|---|---:|---:|---:|---:|\n")
	for i, name := range r.Types {
		q, l := typeAt(r.Quiet, i), typeAt(r.Live, i)
		p("| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms |\n", name, ms(q.P50), ms(q.P99), ms(l.P50), ms(l.P99))
	}
	p("\nTargets: live throughput ≥ %.1f× quiet, live p99 ≤ %.0f ms, visibility lag p95 ≤ %.0f ms, no wrong total. ",
		liveRatioTarget, ms(liveP99Target), ms(lagP95Target))
	if miss := r.targetMisses(); len(miss) == 0 {
		p("Met.\n")
	} else {
		p("Not met: %s.\n", strings.Join(miss, "; "))
	}
	if len(r.Problems) > 0 {
		p("\nProblems: %s.\n", strings.Join(r.Problems, "; "))
	}
	p("%s\n", liveEndMarker)
	return b.String()
}

// typeAt is a phase's measurement of type i (zero when it has none).
func typeAt(p phaseResult, i int) typeLatency {
	if i < len(p.ByType) {
		return p.ByType[i]
	}
	return typeLatency{}
}

// importSpread says how long the batch imports took: "p50 X s, max Y s".
func (r *liveResult) importSpread() string {
	var d []time.Duration
	for _, b := range r.Batches {
		d = append(d, b.Import.Elapsed)
	}
	if len(d) == 0 {
		return "—"
	}
	s := newLagStats(d)
	return fmt.Sprintf("p50 %.2f s, max %.2f s", s.P50.Seconds(), s.Max.Seconds())
}

// countsText is what an import did, or why it failed.
func countsText(r importRun) string {
	switch {
	case r.Err != "":
		return "failed: " + r.Err
	case !r.Counts.OK:
		return "did not run"
	}
	c := r.Counts
	return fmt.Sprintf("%d opened, %d updated, %d unchanged, %d closed", c.Opened, c.Updated, c.Unchanged, c.Closed)
}

// lagText writes a lag in milliseconds, or seconds from 10 s up.
func lagText(d time.Duration) string {
	if d >= 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f ms", ms(d))
}

// reportScenario ends a scenario named what: its section written into
// file by place (to out with file "-"), then its failures, each on a line
// of out; it fails when there are any.
func reportScenario(out io.Writer, what, file string, n int, section string, place func(doc string) (string, error), failures []string) error {
	if file == "-" {
		fmt.Fprint(out, section)
	} else {
		if err := rewriteFile(file, place); err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote the %s N=%d section of %s\n", what, n, file)
	}
	return printFailures(out, failures, "the "+what+" scenario")
}

// printFailures writes each failure of a run on a line of out, after
// "FAILED:", and returns an error saying that what failed when there are
// any.
func printFailures(out io.Writer, failures []string, what string) error {
	for _, s := range failures {
		fmt.Fprintln(out, "FAILED:", s)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%s failed (see above)", what)
	}
	return nil
}

// rewriteFile replaces the markdown file's text (a new file's is a title)
// by what change makes of it.
func rewriteFile(file string, change func(doc string) (string, error)) error {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		b = []byte("# Benchmark results\n")
	} else if err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	doc, err := change(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// placeLiveSection returns doc with section, the live scenario's at n, in
// place of the one written before, or else right after the quiet section
// of n, or else at the end. The rest of doc is kept.
func placeLiveSection(doc string, n int, section string) (string, error) {
	return placeSection(doc, section, liveBeginMarker(n), liveEndMarker, [2]string{beginMarker(n), endMarker})
}

// placeSection returns doc with section in place of the text from begin to
// end, or else right after the first of the sections that after's marker
// pairs delimit, or else at the end.
func placeSection(doc, section, begin, end string, after ...[2]string) (string, error) {
	// cut returns where the section from i to the marker e ends (past its
	// newline).
	cut := func(i int, e string) (int, bool) {
		j := strings.Index(doc[i:], e)
		if j < 0 {
			return 0, false
		}
		stop := i + j + len(e)
		if stop < len(doc) && doc[stop] == '\n' {
			stop++
		}
		return stop, true
	}
	if i := strings.Index(doc, begin); i >= 0 {
		stop, ok := cut(i, end)
		if !ok {
			return "", fmt.Errorf("%s without %s", begin, end)
		}
		return doc[:i] + section + doc[stop:], nil
	}
	for _, a := range after {
		if i := strings.Index(doc, a[0]); i >= 0 {
			if stop, ok := cut(i, a[1]); ok {
				return doc[:stop] + "\n" + section + doc[stop:], nil
			}
		}
	}
	return strings.TrimRight(doc, "\n") + "\n\n" + section, nil
}

// indexText is how jobsd's index counters moved in the quiet and the live
// phase: "builds 0 / 1, changed jobs applied 0 / 600, …" (empty when
// jobsd exports none of them).
func indexText(quiet, live map[string]float64) string {
	var parts []string
	for _, k := range indexCounters {
		q, okQ := quiet[k.Name]
		l, okL := live[k.Name]
		if !okQ && !okL {
			continue
		}
		v := func(x float64, ok bool) string {
			if !ok {
				return "—"
			}
			return itoa(int(x + 0.5))
		}
		parts = append(parts, fmt.Sprintf("%s %s / %s", k.What, v(q, okQ), v(l, okL)))
	}
	return strings.Join(parts, ", ")
}
