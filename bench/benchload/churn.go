package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/jobsd-dev/jobsd/seed"
)

// The churn scenario's targets, at N = 1,000,000: jobsd's resident
// memory while a board is replaced and another closed, under a 768 MB
// container's limit with room to spare, and once it has settled.
const (
	churnPeakTarget    = 600 << 20
	churnSettledTarget = 400 << 20
)

// churnConfig is the churn scenario's setup (benchload -churn).
type churnConfig struct {
	Base, Key, DSN string
	// Jobsd is the binary the import runs.
	Jobsd string
	N     int
	// Conns are the list mix's connections while the churn runs.
	Conns int
	// PID is jobsd serve's process: its peak resident memory is read from
	// /proc (VmHWM, reset when the scenario starts), which no sampling
	// misses.
	PID int
	// Replace postings of the loaded data are written again with other
	// content, and Close others closed by tombstones, in one import.
	Replace, Close int
	// Settle is how long after jobsd absorbed the import its settled
	// memory is read; Timeout bounds each wait for jobsd.
	Settle, Timeout time.Duration
	Commit          string
	// Database says what database the scenario wrote to (for the report).
	Database string
	Out      string
}

// churnResult is everything one churn scenario found.
type churnResult struct {
	Config  churnConfig
	Date    time.Time
	Machine machine
	Import  importRun
	// Absorbed is the time from the import's exit until jobsd answered
	// the new total, rebuilt its index and went idle; Builds the index
	// builds it made meanwhile.
	Absorbed time.Duration
	Builds   float64
	// RSS: when the scenario started, its peak until jobsd was idle again
	// (VmHWM), and Settle later; IndexBytes jobsd's index then.
	Before, Peak, Settled, IndexBytes int64
	// Served is the list mix served while the import landed and the index
	// was rebuilt, in slices of 2 s: their requests, time and errors, and
	// the worst slice's p99.
	Served   phaseResult
	Total    int
	SQLTotal int
	// Problems fail the scenario: a step that did not run as planned, a
	// wrong total, an error in the list mix (a missed memory target is
	// reported, as the quiet benchmark's are).
	Problems []string
}

// runChurn runs the churn scenario: one import replacing cfg.Replace
// postings and closing cfg.Close others while the list mix runs, jobsd's
// peak and settled memory, and its total against SQL afterwards; it
// writes its section of cfg.Out.
func runChurn(ctx context.Context, cfg churnConfig, db *pgx.Conn, mix []query, out io.Writer) error {
	cases, kinds, names := listMix(mix)
	if len(cases) == 0 {
		return errors.New("churn: the mix has no list query types")
	}
	m, err := readMachine(ctx, db)
	if err != nil {
		return err
	}
	res := &churnResult{Config: cfg, Date: time.Now().UTC(), Machine: m}
	dir, err := os.MkdirTemp("", "benchload-churn-")
	if err != nil {
		return fmt.Errorf("churn: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "churn.ndjson")
	if err := writeFile(file, func(w io.Writer) error { return writeChurn(ctx, db, w, cfg.Replace, cfg.Close) }); err != nil {
		return err
	}
	var want int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs`).Scan(&want); err != nil {
		return fmt.Errorf("churn: %w", err)
	}
	want -= cfg.Close

	metrics := newClient(cfg.Base, "", 2)
	poller := &totaler{base: cfg.Base, key: cfg.Key, http: &http.Client{Timeout: 30 * time.Second}}
	buildsBefore, _ := metrics.metric(ctx, "jobsd_index_builds_total")
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", cfg.PID), []byte("5"), 0); err != nil {
		return fmt.Errorf("churn: reset jobsd's peak RSS: %w", err)
	}
	if res.Before, err = procBytes(cfg.PID, "VmRSS"); err != nil {
		return err
	}

	// The list mix runs in slices until the index has caught up (built
	// anew), so that it stops then (an idle jobsd is how absorbing ends).
	c := newClient(cfg.Base, cfg.Key, cfg.Conns)
	var serving sync.WaitGroup
	var stop atomic.Bool
	serving.Go(func() {
		for !stop.Load() && ctx.Err() == nil {
			p := c.drivePhase(ctx, cases, kinds, len(names), cfg.Conns, 2*time.Second, func() cpuSample { return cpuSample{} }, metrics)
			res.Served.Requests += p.Requests
			res.Served.Elapsed += p.Elapsed
			res.Served.Errors += p.Errors
			res.Served.P99 = max(res.Served.P99, p.P99)
		}
	})
	fmt.Fprintf(out, "churn: importing %d replaced postings and %d tombstones\n", cfg.Replace, cfg.Close)
	res.Import = runJobsdImport(ctx, liveConfig{Jobsd: cfg.Jobsd, DSN: cfg.DSN}, file)
	if res.Import.Err != "" {
		stop.Store(true)
		serving.Wait()
		return fmt.Errorf("churn: %s", res.Import.Err)
	}
	// Caught up: the new total, and the index behind the feed by nothing
	// for a second (a catch-up this large builds a new base, during which
	// the index stays behind; a small one is layered at once).
	deadline := time.Now().Add(cfg.Timeout)
	var caughtUp time.Time
	for {
		behind, berr := metrics.metric(ctx, "jobsd_index_behind_seconds")
		total, err := poller.total(ctx, "/api/v1/jobs?limit=1")
		switch {
		case err != nil || berr != nil || total != want || behind > 0:
			caughtUp = time.Time{}
		case caughtUp.IsZero():
			caughtUp = time.Now()
		}
		if !caughtUp.IsZero() && time.Since(caughtUp) >= time.Second {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			res.Problems = append(res.Problems, fmt.Sprintf("jobsd's index did not catch up with the total %d within %v (total %d, %v, %v)", want, cfg.Timeout, total, err, berr))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop.Store(true)
	serving.Wait()
	if _, note := settle(ctx, poller, metrics, want, cfg.Timeout); note != "" {
		res.Problems = append(res.Problems, "settling: "+note)
	}
	res.Absorbed = time.Since(res.Import.Exited)
	builds, _ := metrics.metric(ctx, "jobsd_index_builds_total")
	res.Builds = builds - buildsBefore
	if res.Peak, err = procBytes(cfg.PID, "VmHWM"); err != nil {
		return err
	}
	fmt.Fprintf(out, "churn: absorbed %.1f s after the import; peak RSS %.0f MiB; waiting %v to settle\n",
		res.Absorbed.Seconds(), mib(res.Peak), cfg.Settle)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(cfg.Settle):
	}
	if res.Settled, err = procBytes(cfg.PID, "VmRSS"); err != nil {
		return err
	}
	if v, err := metrics.metric(ctx, "jobsd_index_bytes"); err == nil {
		res.IndexBytes = int64(v)
	}
	if res.Total, err = poller.total(ctx, "/api/v1/jobs?limit=1"); err != nil {
		res.Problems = append(res.Problems, "the final total: "+err.Error())
	}
	if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs`).Scan(&res.SQLTotal); err != nil {
		return fmt.Errorf("churn: %w", err)
	}
	if res.Total != res.SQLTotal {
		res.Problems = append(res.Problems, fmt.Sprintf("jobsd's total %d, SQL's %d", res.Total, res.SQLTotal))
	}
	if res.Served.Errors > 0 {
		res.Problems = append(res.Problems, fmt.Sprintf("%d errors in the list mix while the churn ran", res.Served.Errors))
	}

	section := res.markdown()
	return reportScenario(out, "churn", cfg.Out, cfg.N, section, func(doc string) (string, error) {
		return placeSection(doc, section, churnBeginMarker(cfg.N), churnEndMarker, [2]string{liveBeginMarker(cfg.N), liveEndMarker},
			[2]string{beginMarker(cfg.N), endMarker})
	}, res.Problems)
}

// writeChurn writes the churn's import: the seed generator's first
// replace postings with another seed (the ids of the loaded ones, their
// content new), then tombstones of close other open postings, spread over
// the ids.
func writeChurn(ctx context.Context, db *pgx.Conn, w io.Writer, replace, close int) error {
	var jobs strings.Builder
	if err := seed.Write(&jobs, seed.Options{N: replace, Seed: 7, Companies: 2000}); err != nil {
		return err
	}
	var ids []string
	dec := json.NewDecoder(strings.NewReader(jobs.String()))
	for dec.More() {
		var j struct{ ID string }
		if err := dec.Decode(&j); err != nil {
			return err
		}
		ids = append(ids, j.ID)
	}
	if _, err := io.WriteString(w, jobs.String()); err != nil {
		return err
	}
	rows, err := db.Query(ctx, `SELECT id FROM jobs WHERE id <> ALL($1) ORDER BY md5(id) LIMIT $2`, ids, close)
	if err != nil {
		return err
	}
	closing, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	if len(closing) < close {
		return fmt.Errorf("churn: only %d open postings besides the replaced ones, %d to close", len(closing), close)
	}
	enc := json.NewEncoder(w)
	for _, id := range closing {
		if err := enc.Encode(map[string]any{"id": id, "closed": true}); err != nil {
			return err
		}
	}
	return nil
}

// procBytes reads a memory field of /proc/PID/status ("VmRSS", "VmHWM").
func procBytes(pid int, field string) (int64, error) {
	v, ok := procField(fmt.Sprintf("/proc/%d/status", pid), field)
	kb, err := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("churn: no %s in jobsd's /proc/%d/status", field, pid)
	}
	return kb << 10, nil
}

// churnEndMarker ends a churn section; churnBeginMarker starts N's.
const churnEndMarker = "<!-- bench-churn:end -->"

func churnBeginMarker(n int) string { return fmt.Sprintf("<!-- bench-churn:begin N=%d -->", n) }

// targetMisses lists the memory targets the churn missed (set at a
// million postings; none below).
func (r *churnResult) targetMisses() []string {
	var miss []string
	if r.Config.N >= 1000000 {
		if r.Peak > churnPeakTarget {
			miss = append(miss, fmt.Sprintf("peak RSS %.0f MiB > %.0f MiB", mib(r.Peak), mib(churnPeakTarget)))
		}
		if r.Settled > churnSettledTarget {
			miss = append(miss, fmt.Sprintf("settled RSS %.0f MiB > %.0f MiB", mib(r.Settled), mib(churnSettledTarget)))
		}
	}
	return miss
}

// markdown is the churn scenario's section of the results file.
func (r *churnResult) markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	cfg := r.Config
	p("%s\n### Churn scenario, N = %s\n\n", churnBeginMarker(cfg.N), itoa(cfg.N))
	p("Written by `N=%d make bench` (`BENCH_CHURN=1`, `bin/benchload -churn`) on %s at commit `%s`.\n\n",
		cfg.N, r.Date.Format("2006-01-02 15:04 MST"), cfg.Commit)
	p("- Database: %s.\n", cfg.Database)
	p("- Machine: %d CPUs (%s), %s, PostgreSQL %s.\n", r.Machine.CPUs, r.Machine.CPU, r.Machine.Memory, r.Machine.PostgreSQL)
	p("- One `jobsd import` of %s postings written again with new content and %s tombstones of others: %s (%s).\n",
		itoa(cfg.Replace), itoa(cfg.Close), secondsText(r.Import.Elapsed), countsText(r.Import))
	p("- Meanwhile the list mix on %d connections, until the index caught up: %s requests, %.0f a second, p99 %s (the worst 2-s slice's), %d errors.\n",
		cfg.Conns, itoa(r.Served.Requests), r.Served.PerSecond(), fmtMS(r.Served.P99), r.Served.Errors)
	p("- jobsd absorbed it %s after the import ended (the new total answered, %d index builds, then idle).\n",
		secondsText(r.Absorbed), int(r.Builds+0.5))
	p("- Total after: jobsd %s, SQL %s.\n\n", itoa(r.Total), itoa(r.SQLTotal))
	target := func(limit int64) string {
		if cfg.N < 1000000 {
			return "— (set at N = 1,000,000)"
		}
		if limit == 0 {
			return "—"
		}
		return fmt.Sprintf("≤ %.0f MiB", mib(limit))
	}
	p("| jobsd's resident memory | MiB | target |\n|---|---:|---|\n")
	p("| before the import | %.0f | %s |\n", mib(r.Before), target(0))
	p("| peak (VmHWM, from the import's start until jobsd was idle again) | %.0f | %s |\n", mib(r.Peak), target(churnPeakTarget))
	p("| settled, %v later | %.0f | %s |\n", cfg.Settle, mib(r.Settled), target(churnSettledTarget))
	p("| of it the index (`jobsd_index_bytes`) | %.0f | — |\n\n", mib(r.IndexBytes))
	switch miss := r.targetMisses(); {
	case cfg.N < 1000000:
	case len(miss) == 0:
		p("Targets met.\n\n")
	default:
		p("Targets missed: %s.\n\n", strings.Join(miss, "; "))
	}
	for _, s := range r.Problems {
		p("- PROBLEM: %s\n", s)
	}
	if len(r.Problems) > 0 {
		p("\n")
	}
	p("%s\n", churnEndMarker)
	return b.String()
}

// secondsText is d in seconds, to a tenth.
func secondsText(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
