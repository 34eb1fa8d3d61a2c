// Command benchload is the load side of `make bench` (scripts/bench.sh):
// against a jobsd that has just started, it drives the query mix of the performance targets
// through REST and GraphQL, each query type rotating through 500 values
// derived from the loaded data, on closed-loop connections; it samples
// jobsd's resident memory from /metrics, checks sampled answers against
// SQL of its own (totals, pages, the job, company counts, facet counts),
// times page 1 against a deep page reached by cursors, runs the targets'
// job-by-id statements without HTTP as a yardstick of the machine, and
// writes the results into a markdown file between markers.
//
//	benchload -base http://127.0.0.1:18766 -key KEY -db postgres://… -n 200000 -out docs/bench-results.md
//
// It exits non-zero when an answer was an error or did not match SQL.
//
// With -live it runs the live scenario instead (live.go), on a database it
// may write to: the list query types of the mix through REST, once quiet
// and once while `jobsd import` (the -jobsd binary) lands a batch of new
// and changed postings every -live-interval and one snapshot import
// closes a tenth of a crawled source; it measures both phases, the time
// until each batch shows in a list's meta.total, and any wrong total, and
// writes its own section of -out:
//
//	benchload -live -base http://127.0.0.1:18766 -key KEY -db postgres://…/copy -n 200000 -jobsd bin/jobsd -live-duration 60s
//
// With -churn it runs the churn scenario (churn.go), also on a database it
// may write to: one import replacing a tenth of the postings and closing a
// twentieth while the list mix runs, with jobsd's peak and settled
// resident memory (read from /proc of -churn-pid).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("benchload", flag.ContinueOnError)
	base := fs.String("base", "http://127.0.0.1:18766", "jobsd's base URL")
	key := fs.String("key", "", "API key (with a rate limit above the load)")
	dsn := fs.String("db", "", "the database jobsd serves, for the values and the checks (default $DATABASE_URL)")
	n := fs.Int("n", 0, "number of postings loaded (for the report)")
	conns := fs.Int("connections", 16, "closed-loop connections")
	duration := fs.Duration("duration", 10*time.Second, "how long each query type runs through each transport")
	rounds := fs.Int("rounds", 2, "split each query type's -duration per transport into this many rounds, REST and "+
		"GraphQL alternating, so that a slow stretch of the machine falls on both (their ratio is a target)")
	seed := fs.Uint64("seed", 1, "seed of the value rotation")
	pages := fs.Int("pages", 400, "keyset check: follow cursors to this page")
	times := fs.Int("times", 200, "keyset check: time page 1 and the deep page this many times each")
	commit := fs.String("commit", "", "commit measured (for the report)")
	importNote := fs.String("import", "", "how the data was imported (for the report)")
	ready := fs.String("ready", "", "how long jobsd took to become ready (for the report)")
	outFile := fs.String("out", "docs/bench-results.md", "markdown file to write the results into (- for standard output only)")
	only := fs.String("only", "", "run only the query types whose names match this regular expression, then their checks, "+
		"and write no report (for comparing two builds side by side)")
	list := fs.Bool("values", false, "print every query type's REST requests and GraphQL bodies, in order, and exit")
	cpuProfile := fs.String("cpuprofile", "", "write the load generator's own CPU profile to this file")
	live := fs.Bool("live", false, "run the live scenario instead: the list mix quiet, then while imports land "+
		"(-jobsd import every -live-interval, one snapshot), with the visibility lag of each import; writes its own section of -out. "+
		"It writes to the database: run it on a copy")
	lc := liveConfig{}
	fs.StringVar(&lc.Jobsd, "jobsd", "bin/jobsd", "-live: the jobsd binary the imports run")
	fs.DurationVar(&lc.Duration, "live-duration", 60*time.Second, "-live: how long each phase runs, quiet and live")
	fs.DurationVar(&lc.Interval, "live-interval", 3*time.Second, "-live: time between the starts of the batch imports")
	fs.IntVar(&lc.New, "live-new", 40, "-live: new postings per batch, of a company unique to the batch")
	fs.IntVar(&lc.Updates, "live-updates", 10, "-live: postings of the crawled source per batch written again with a changed title")
	fs.IntVar(&lc.Crawl, "live-crawl", 10000, "-live: postings of the crawled source, imported before the phases")
	fs.IntVar(&lc.CloseEvery, "live-close-every", 10, "-live: the snapshot lacks every this-many-th posting of the crawled source (10: 10%)")
	fs.DurationVar(&lc.SnapshotAt, "live-snapshot-at", 0, "-live: when in the live phase the snapshot starts (default a third of -live-duration)")
	fs.DurationVar(&lc.Poll, "live-poll", 20*time.Millisecond, "-live: period of the visibility polls")
	fs.DurationVar(&lc.Hold, "live-hold", time.Second, "-live: how long a batch's total is still watched once seen")
	fs.DurationVar(&lc.VisibleTimeout, "live-visible-timeout", 30*time.Second, "-live: a batch not seen this long after its import is a problem")
	fs.DurationVar(&lc.SettleTimeout, "live-settle-timeout", 15*time.Minute, "-live: how long to wait for jobsd to absorb the crawl's import")
	fs.StringVar(&lc.Run, "live-run", "", "-live: the run's name in ids, the source and companies (up to 12 digits; default the Unix time)")
	fs.StringVar(&lc.Database, "live-database", "", "-live: what database the scenario writes to, for the report")
	subs := fs.Bool("subs", false, "run the subscriptions scenario instead: -subs-n subscriptions of distinct filters over WebSockets, "+
		"the list mix without and with them, then -subs-rate new postings a second (-jobsd import) with each event checked and timed; "+
		"writes its own section of -out. It writes to the database: run it on a copy")
	sc := subsConfig{}
	fs.IntVar(&sc.N, "subs-n", 10000, "-subs: subscriptions")
	fs.IntVar(&sc.PerSocket, "subs-per-socket", 100, "-subs: subscriptions a WebSocket")
	fs.IntVar(&sc.Rate, "subs-rate", 50, "-subs: new postings a second")
	fs.DurationVar(&sc.Duration, "subs-duration", 60*time.Second, "-subs: how long postings land")
	fs.DurationVar(&sc.Idle, "subs-idle", 20*time.Second,
		"-subs: how long the open subscriptions are watched idle: a whole number of jobsd's 20-s ping rounds, which a shorter window catches or misses by chance")
	fs.DurationVar(&sc.MixDuration, "subs-mix-duration", 20*time.Second, "-subs: each run of the list mix, without and with the subscriptions")
	fs.StringVar(&sc.Database, "subs-database", "", "-subs: what database the scenario writes to, for the report")
	soak := fs.Bool("soak", false, "run the soak instead (make soak): for -soak-duration the list mix, with -live-new new postings "+
		"imported every -live-interval (each import closing an earlier one's), a snapshot every -soak-snapshot-every, wrong keys and hostile "+
		"GraphQL, and -soak-restart run half way; reports jobsd's RSS, goroutines and open files at the start, middle and end, and fails "+
		"on their growth, on an error outside the restart's grace and on any wrong total. It writes to the database: run it on a database of its own")
	sk := soakConfig{}
	fs.DurationVar(&sk.Duration, "soak-duration", 30*time.Minute, "-soak: how long it runs")
	fs.DurationVar(&sk.Window, "soak-window", 30*time.Second, "-soak: the read load's windows (errors are placed in time by window)")
	fs.DurationVar(&sk.SnapshotEvery, "soak-snapshot-every", 4*time.Minute, "-soak: time between the snapshots of the crawled source")
	fs.IntVar(&sk.Keep, "soak-keep", 20, "-soak: batch k closes the new postings of batch k-keep")
	fs.DurationVar(&sk.Sample, "soak-sample", 5*time.Second, "-soak: period of the resource samples")
	fs.DurationVar(&sk.Warmup, "soak-warmup", 3*time.Minute, "-soak: time before the start sample")
	fs.StringVar(&sk.Restart, "soak-restart", "", "-soak: shell command that restarts the database server, run half way (empty: none)")
	fs.DurationVar(&sk.Grace, "soak-grace", 15*time.Second, "-soak: time after the restart during which 503s and failed imports are expected")
	fs.IntVar(&sk.BadKeys, "soak-bad-keys", 10, "-soak: requests with wrong keys a second, from one client behind the trusted proxy")
	fs.DurationVar(&sk.HostileEvery, "soak-hostile-every", 2*time.Second, "-soak: time between hostile GraphQL documents")
	fs.Float64Var(&sk.Growth, "soak-growth", 0.10, "-soak: growth of RSS, goroutines or open files from start to end that fails it")
	churn := fs.Bool("churn", false, "run the churn scenario instead: one import (-jobsd) writing -churn-replace postings again "+
		"with new content and closing -churn-close others while the list mix runs, jobsd's peak (VmHWM) and settled resident memory, "+
		"and its total against SQL; writes its own section of -out. It writes to the database: run it on a copy")
	cc := churnConfig{}
	fs.IntVar(&cc.PID, "churn-pid", 0, "-churn: the process id of the jobsd serving -base (its memory is read from /proc)")
	fs.IntVar(&cc.Replace, "churn-replace", 0, "-churn: postings written again (default a tenth of the loaded ones)")
	fs.IntVar(&cc.Close, "churn-close", 0, "-churn: postings closed (default a twentieth of the loaded ones)")
	fs.IntVar(&cc.Conns, "churn-connections", 4, "-churn: the list mix's connections while the churn runs")
	fs.DurationVar(&cc.Settle, "churn-settle", 60*time.Second, "-churn: how long after jobsd absorbed the import its settled memory is read")
	fs.DurationVar(&cc.Timeout, "churn-timeout", 15*time.Minute, "-churn: how long jobsd may take to absorb the import")
	fs.StringVar(&cc.Database, "churn-database", "", "-churn: what database the scenario writes to, for the report")
	withYardstick := fs.Bool("yardstick", true, "after jobsd's runs, run the targets' job-by-id statements without HTTP "+
		"for -duration each, as a yardstick of the machine's speed (not with -only)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dsn == "" {
		*dsn = os.Getenv("DATABASE_URL") // not the flag's default, which the help would print, password and all
	}
	if *rounds < 1 || *duration/time.Duration(*rounds) <= 0 {
		return fmt.Errorf("-rounds %d: want at least 1, and no more than -duration has nanoseconds", *rounds)
	}
	if u, err := url.Parse(*base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("-base %q: want a URL such as http://127.0.0.1:18766", *base)
	}
	if (*key == "" && !*list) || *dsn == "" {
		return errors.New("-key and -db are required")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	db, err := pgx.Connect(ctx, *dsn)
	if err != nil {
		return fmt.Errorf("connect to the database: %w", err)
	}
	defer db.Close(context.Background())
	if *n == 0 {
		if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs`).Scan(n); err != nil {
			return err
		}
	}
	umbrellas, err := umbrellaSkills(ctx, db)
	if err != nil {
		return err
	}
	mix, err := buildMix(ctx, db, *seed, umbrellas)
	if err != nil {
		return fmt.Errorf("derive the values: %w", err)
	}
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return fmt.Errorf("-only: %w", err)
		}
		mix = slices.DeleteFunc(mix, func(q query) bool { return !re.MatchString(q.Name) })
		if len(mix) == 0 {
			return fmt.Errorf("-only %q matches no query type", *only)
		}
	}
	if *list {
		for _, q := range mix {
			for _, tc := range q.Cases {
				fmt.Fprintf(out, "%s\t%s\t%s\n", q.Name, tc.REST, tc.GraphQL)
			}
		}
		return nil
	}
	if *live {
		lc.Base, lc.Key, lc.DSN, lc.N, lc.Conns, lc.Commit, lc.Out = *base, *key, *dsn, *n, *conns, *commit, *outFile
		if lc.Run == "" {
			lc.Run = strconv.FormatInt(time.Now().Unix(), 10)
		}
		if lc.SnapshotAt == 0 {
			lc.SnapshotAt = lc.Duration / 3
		}
		if lc.Database == "" {
			lc.Database = "the one of -db, written to by the scenario"
		}
		if lc.Interval <= 0 || lc.Duration <= 0 || lc.Poll <= 0 {
			return errors.New("-live-duration, -live-interval and -live-poll must be positive")
		}
		return runLive(ctx, lc, db, mix, cpuOf(ctx, db, newRSSSampler(*base)), out)
	}
	if *soak {
		lc.Base, lc.Key, lc.DSN, lc.N, lc.Conns = *base, *key, *dsn, *n, *conns
		if lc.Run == "" {
			lc.Run = strconv.FormatInt(time.Now().Unix(), 10)
		}
		sk.liveConfig, sk.liveConfig.Duration = lc, sk.Duration
		if sk.Interval <= 0 || sk.Duration <= 0 || sk.Window <= 0 || sk.SnapshotEvery <= 0 || sk.Sample <= 0 || sk.Keep < 1 || sk.Poll <= 0 {
			return errors.New("-soak: durations and -soak-keep must be positive")
		}
		if err := checkSoakWindows(sk); err != nil {
			return err
		}
		return runSoak(ctx, sk, mix, out)
	}
	if *churn {
		cc.Base, cc.Key, cc.DSN, cc.Jobsd, cc.N, cc.Commit, cc.Out = *base, *key, *dsn, lc.Jobsd, *n, *commit, *outFile
		if cc.Replace == 0 {
			cc.Replace = *n / 10
		}
		if cc.Close == 0 {
			cc.Close = *n / 20
		}
		if cc.PID <= 0 || cc.Replace < 1 || cc.Close < 1 || cc.Conns < 1 || cc.Settle < 0 || cc.Timeout <= 0 {
			return errors.New("-churn needs -churn-pid, and positive -churn-replace, -churn-close, -churn-connections and -churn-timeout")
		}
		if cc.Database == "" {
			cc.Database = "the one of -db, written to by the scenario"
		}
		return runChurn(ctx, cc, db, mix, out)
	}
	if *subs {
		sc.Base, sc.Key, sc.DSN, sc.Jobsd, sc.DBN, sc.Conns, sc.Commit, sc.Out = *base, *key, *dsn, lc.Jobsd, *n, *conns, *commit, *outFile
		sc.Run = strconv.FormatInt(time.Now().Unix(), 10)
		if sc.N < 1 || sc.PerSocket < 1 || sc.Rate < 1 || sc.Duration < time.Second {
			return errors.New("-subs-n, -subs-per-socket and -subs-rate must be positive, -subs-duration at least 1s")
		}
		if sc.Database == "" {
			sc.Database = "the one of -db, written to by the scenario"
		}
		return runSubs(ctx, sc, db, mix, umbrellas, cpuOf(ctx, db, newRSSSampler(*base)), out)
	}
	filters, err := cursorFilters(ctx, db, umbrellas)
	if err != nil {
		return err
	}
	m, err := readMachine(ctx, db)
	if err != nil {
		return err
	}

	rep := &report{N: *n, Connections: *conns, Duration: *duration, Rounds: *rounds, Seed: *seed, Commit: *commit, Import: *importNote,
		Ready: *ready, Date: time.Now().UTC(), Machine: m, Mix: mix, Pages: *pages, Times: *times}
	rss := newRSSSampler(*base)
	start, err := rss.metrics.metric(ctx, "process_resident_memory_bytes")
	if err != nil {
		return fmt.Errorf("jobsd's RSS: %w", err)
	}
	rep.RSSStart = int64(start)
	sampling, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	samplerDone := make(chan struct{})
	go func() { defer close(samplerDone); rss.sample(sampling) }()

	cpu := cpuOf(ctx, db, rss)
	rep.Machine.LoadBefore = loadAverage()
	c := newClient(*base, *key, *conns)
	for _, q := range mix {
		transports := []string{restT, graphQLT}
		runs := make([]runResult, len(transports))
		for range *rounds {
			for i, t := range transports {
				runs[i] = runs[i].add(c.drive(ctx, q, t, *conns, *duration/time.Duration(*rounds), runs[i].Requests, rss, cpu, sampled))
			}
		}
		for _, r := range runs {
			fmt.Fprintf(out, "%-22s %-7s %8.0f req/s  p50 %7.1f ms  p99 %7.1f ms  errors %d  RSS peak %.0f MiB  "+
				"CPU: jobsd %.0f%% (%.0f µs/req), PostgreSQL %.0f%%, load %.0f%%, other %.0f%%\n",
				q.Name, r.Transport, r.PerSecond(), ms(r.P50), ms(r.P99), r.Errors, mib(r.RSSPeak),
				100*r.CPU.Jobsd, float64(r.CPU.JobsdPerRequest)/1e3, 100*r.CPU.Postgres, 100*r.CPU.Load, 100*r.CPU.Other)
			for p, k := range r.Problems {
				fmt.Fprintf(out, "    ERROR ×%d: %s\n", k, p)
			}
		}
		rep.Runs = append(rep.Runs, runs)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	// The checks come after the measurement: the first measured request
	// was the first the process served.
	one := newClient(*base, *key, 1)
	for i, q := range mix {
		e := checkQuery(ctx, db, one, q, rep.Runs[i])
		fmt.Fprintf(out, "exact: %-22s %d answers checked against SQL, %d mismatches\n", q.Name, e.Checked, len(e.Mismatches))
		for _, s := range e.Mismatches {
			fmt.Fprintf(out, "    MISMATCH: %s\n", s)
		}
		rep.Exact = append(rep.Exact, e)
	}
	if *only != "" {
		for _, e := range rep.Exact {
			if len(e.Mismatches) > 0 {
				return errors.New("answers differ from SQL (see above)")
			}
		}
		return nil
	}
	for _, f := range filters {
		for _, t := range []string{restT, graphQLT} {
			k := checkKeyset(ctx, db, one, f, t, *pages, *times)
			fmt.Fprintf(out, "keyset: %-26s %-7s page %d: page 1 %.2f ms, page %d %.2f ms, ratio %.2f\n",
				f.Name, t, k.Page, ms(k.First), k.Page, ms(k.Deep), k.Ratio())
			for _, p := range k.Problems {
				fmt.Fprintf(out, "    PROBLEM: %s\n", p)
			}
			rep.Keysets = append(rep.Keysets, k)
		}
	}
	rep.Machine.LoadAfter = loadAverage()
	stopSampling()
	<-samplerDone
	if *withYardstick {
		// After jobsd's measurements, which it must not disturb; a failure
		// is reported, and jobsd's results are still written.
		runs, err := measureYardsticks(ctx, *dsn, *conns, *duration, mix, out)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			fmt.Fprintln(out, "yardstick: not measured:", err)
			rep.YardstickFailure = err.Error()
		}
		rep.Yardsticks = runs
	}
	rep.RSSPeak = max(rep.RSSStart, rss.peak.Load())

	section := rep.markdown()
	if *outFile == "-" {
		fmt.Fprint(out, section)
	} else {
		if err := writeSection(*outFile, rep.N, section); err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote the N=%d section of %s\n", rep.N, *outFile)
	}
	return printFailures(out, rep.failures(), "the benchmark")
}

// cpuOf samples the processor times of jobsd, of the backends of its
// database (the same before and after a run: the pool keeps them), of this
// process and of the machine.
func cpuOf(ctx context.Context, db *pgx.Conn, rss *rssSampler) func() cpuSample {
	return func() cpuSample {
		rows, err := db.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
		var pids []int
		if err == nil {
			pids, _ = pgx.CollectRows(rows, pgx.RowTo[int])
		}
		return rss.cpu(ctx, pids)
	}
}
