package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// report is everything one benchmark run found.
type report struct {
	N           int
	Connections int
	Duration    time.Duration
	// Rounds is how many rounds each query type's Duration per transport
	// was split into, REST and GraphQL alternating.
	Rounds  int
	Seed    uint64
	Commit  string
	Import  string
	Ready   string
	Date    time.Time
	Machine machine
	Mix     []query
	// Runs are the REST and GraphQL runs of each query of Mix.
	Runs    [][]runResult
	Exact   []exactness
	Keysets []keyset
	// Yardsticks are the machine's yardstick runs (none when not
	// measured), YardstickFailure why they failed (empty if they did not).
	Yardsticks       []yardstickRun
	YardstickFailure string
	Pages            int
	Times            int
	RSSStart         int64
	RSSPeak          int64
}

// machine describes where the benchmark ran.
type machine struct {
	CPUs          int
	CPU           string
	Memory        string
	PostgreSQL    string
	SharedBuffers string
	// LoadBefore and LoadAfter are the 1-minute load averages when the
	// load began and when the checks ended: the machine may be shared.
	LoadBefore, LoadAfter string
}

// loadAverage returns the 1-minute load average of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

func readMachine(ctx context.Context, db *pgx.Conn) (machine, error) {
	m := machine{CPUs: runtime.NumCPU(), CPU: "unknown", Memory: "unknown"}
	if err := db.QueryRow(ctx, `SELECT current_setting('server_version'), current_setting('shared_buffers')`).
		Scan(&m.PostgreSQL, &m.SharedBuffers); err != nil {
		return m, fmt.Errorf("PostgreSQL version: %w", err)
	}
	if v, ok := procField("/proc/cpuinfo", "model name"); ok {
		m.CPU = v
	}
	if v, ok := procField("/proc/meminfo", "MemTotal"); ok {
		if kb, err := strconv.ParseFloat(strings.TrimSuffix(v, " kB"), 64); err == nil {
			m.Memory = fmt.Sprintf("%.1f GiB", kb/(1<<20))
		}
	}
	return m, nil
}

// procField returns the first value of a "name : value" line of a /proc
// file.
func procField(file, name string) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// The performance targets.
const (
	listP99At200k    = 50 * time.Millisecond
	listP99At1M      = 100 * time.Millisecond
	timesPostGraph   = 10.0
	timesPlainSQL    = 3.0
	jobPerSecond     = 7000.0
	companyPerSecond = 4000.0
	graphQLWithin    = 1.3
	facetsWithin     = 2.0 // a page with facets: p50 ≤ 2× the page's without
	cursorWithin     = 1.5
	rssAt1M          = 400e6 // bytes
)

// large says whether the run is the N=1,000,000 one, whose targets are
// p99 and memory; the throughput targets are those of N=200,000.
func (r *report) large() bool { return r.N >= 1000000 }

// baseRuns returns the REST and GraphQL runs of a type's Base: the query
// type a facetKind type adds its facets to, or a nearKind type's city=
// twin.
func (r *report) baseRuns(q query) (rest, gql runResult, ok bool) {
	for i, b := range r.Mix {
		if b.Name == q.Base && i < len(r.Runs) && len(r.Runs[i]) == 2 {
			return r.Runs[i][0], r.Runs[i][1], true
		}
	}
	return rest, gql, false
}

// facetRatios are the p50 latencies of a facetKind type over its base
// type's, REST and GraphQL (0 where unknown).
func (r *report) facetRatios(q query, rest, gql runResult) (restX, gqlX float64) {
	baseREST, baseGQL, ok := r.baseRuns(q)
	if !ok {
		return 0, 0
	}
	ratio := func(d, base time.Duration) float64 {
		if base <= 0 {
			return 0
		}
		return float64(d) / float64(base)
	}
	return ratio(rest.P50, baseREST.P50), ratio(gql.P50, baseGQL.P50)
}

// throughputRatios are the requests per second of a type over its base
// type's, REST and GraphQL (0 where unknown).
func (r *report) throughputRatios(q query, rest, gql runResult) (restX, gqlX float64) {
	baseREST, baseGQL, ok := r.baseRuns(q)
	if !ok {
		return 0, 0
	}
	ratio := func(x, base float64) float64 {
		if base <= 0 {
			return 0
		}
		return x / base
	}
	return ratio(rest.PerSecond(), baseREST.PerSecond()), ratio(gql.PerSecond(), baseGQL.PerSecond())
}

// targetMisses returns the performance targets a query misses.
func (r *report) targetMisses(q query, rest, gql runResult) []string {
	var miss []string
	if rest.Errors+gql.Errors > 0 {
		miss = append(miss, "errors")
	}
	restRate, gqlRate := rest.PerSecond(), gql.PerSecond()
	if gqlRate*graphQLWithin < restRate {
		miss = append(miss, fmt.Sprintf("GraphQL %.2f× slower than REST (> %.1f×)", restRate/gqlRate, graphQLWithin))
	}
	switch {
	case q.Kind == listKind && r.large():
		if rest.P99 > listP99At1M {
			miss = append(miss, fmt.Sprintf("p99 %s > %s", fmtMS(rest.P99), fmtMS(listP99At1M)))
		}
	case q.Kind == listKind:
		// Compared only where the targets' measurements have the query.
		if x := restRate / q.PostGraphile; q.PostGraphile > 0 && x < timesPostGraph {
			miss = append(miss, fmt.Sprintf("×PostGraphile %.2f < %.0f", floor2(x), timesPostGraph))
		}
		if x := restRate / q.PlainSQL; q.PlainSQL > 0 && x < timesPlainSQL {
			miss = append(miss, fmt.Sprintf("×plain SQL %.2f < %.0f", floor2(x), timesPlainSQL))
		}
		if rest.P99 > listP99At200k {
			miss = append(miss, fmt.Sprintf("p99 %s > %s", fmtMS(rest.P99), fmtMS(listP99At200k)))
		}
	case q.Kind == jobKind && !r.large():
		if restRate < jobPerSecond {
			miss = append(miss, fmt.Sprintf("%.0f req/s < %.0f", restRate, jobPerSecond))
		}
	case q.Kind == companyKind && !r.large():
		if restRate < companyPerSecond {
			miss = append(miss, fmt.Sprintf("%.0f req/s < %.0f", restRate, companyPerSecond))
		}
	case q.Kind == nearKind:
		restX, gqlX := r.throughputRatios(q, rest, gql)
		for _, t := range []struct {
			transport string
			x         float64
		}{{restT, restX}, {graphQLT, gqlX}} {
			if t.x < nearWithin {
				miss = append(miss, fmt.Sprintf("%s %.2f× %s's throughput < %.1f×", t.transport, t.x, q.Base, nearWithin))
			}
		}
		if rest.P99 > listP99At200k {
			miss = append(miss, fmt.Sprintf("p99 %s > %s", fmtMS(rest.P99), fmtMS(listP99At200k)))
		}
	case q.Kind == suggestKind || q.Kind == suggestFirstKind:
		if q.Kind == suggestFirstKind {
			if base, _, ok := r.baseRuns(q); ok && base.P50 > 0 && float64(rest.P50) > firstWithin*float64(base.P50) {
				miss = append(miss, fmt.Sprintf("p50 %s > %.2f× %s's %s", fmtMS(rest.P50), firstWithin, q.Base, fmtMS(base.P50)))
			}
		}
		if rest.P99 > suggestP99 {
			miss = append(miss, fmt.Sprintf("p99 %s > %s", fmtMS(rest.P99), fmtMS(suggestP99)))
		}
		if r.large() && restRate < suggestPerSecond {
			miss = append(miss, fmt.Sprintf("%.0f req/s < %.0f", restRate, suggestPerSecond))
		}
	case q.Kind == facetKind && !r.large():
		restX, gqlX := r.facetRatios(q, rest, gql)
		if restX == 0 || gqlX == 0 {
			miss = append(miss, fmt.Sprintf("no p50 of %q to compare with", q.Base))
			break
		}
		for _, t := range []struct {
			transport string
			x         float64
		}{{restT, restX}, {graphQLT, gqlX}} {
			if t.x > facetsWithin {
				miss = append(miss, fmt.Sprintf("%s p50 %.2f× %s's > %.0f×", t.transport, t.x, q.Base, facetsWithin))
			}
		}
	}
	return miss
}

// floor2 rounds x down to two decimals, so that a ratio short of its
// target never prints as the target.
func floor2(x float64) float64 { return math.Floor(x*100) / 100 }

// jobREST returns jobsd's REST requests per second for one full job by
// id (0 when not measured).
func (r *report) jobREST() float64 {
	for i, q := range r.Mix {
		if q.Kind == jobKind && i < len(r.Runs) && len(r.Runs[i]) > 0 {
			return r.Runs[i][0].PerSecond()
		}
	}
	return 0
}

// failures are what makes the run fail: errors, answers that differ from
// SQL, cursors that could not be followed.
func (r *report) failures() []string {
	var out []string
	for i, runs := range r.Runs {
		for _, run := range runs {
			if run.Errors > 0 {
				var example string
				for p := range run.Problems {
					example = max(example, p) // one, the same each time
				}
				out = append(out, fmt.Sprintf("%s, %s: %d errors, e.g. %s", r.Mix[i].Name, run.Transport, run.Errors, example))
			}
		}
	}
	for _, e := range r.Exact {
		if len(e.Mismatches) > 0 {
			out = append(out, fmt.Sprintf("%s: %d of %d sampled answers differ from SQL", e.Query, len(e.Mismatches), e.Checked))
		}
	}
	for _, k := range r.Keysets {
		if len(k.Problems) > 0 {
			out = append(out, fmt.Sprintf("keyset %s, %s: %s", k.Filter, k.Transport, k.Problems[0]))
		}
	}
	return out
}

// markdown renders the report as the section of docs/bench-results.md for
// its N, markers included.
func (r *report) markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("%s\n## N = %s\n\n", beginMarker(r.N), itoa(r.N))
	p("Written by `N=%d make bench` on %s at commit `%s`.\n\n", r.N, r.Date.Format("2006-01-02 15:04 MST"), r.Commit)
	if f := r.failures(); len(f) > 0 {
		p("**This run FAILED:**\n\n")
		for _, s := range f {
			p("- %s\n", s)
		}
		p("\n")
	}
	m := r.Machine
	p("- Machine: %d CPUs (`nproc`), %s, %s memory; PostgreSQL %s, shared_buffers %s, on the same machine; "+
		"1-minute load average %s before the load, %s after the checks.\n",
		m.CPUs, m.CPU, m.Memory, m.PostgreSQL, m.SharedBuffers, m.LoadBefore, m.LoadAfter)
	p("- Data: %s postings of `jobsd seed --n %d`; import: %s; `VACUUM ANALYZE` after loading.\n", itoa(r.N), r.N, orNone(r.Import))
	p("- Load: `bin/benchload`, %d closed-loop connections on loopback, %s per query and transport (%s), "+
		"answers gzipped as browsers ask (inflated only where checked, as wrk does not inflate); jobsd started cold (ready after %s), no warm-up. "+
		"Each query type rotates through 500 values (seed %d).\n", r.Connections, r.Duration, r.order(), orNone(r.Ready), r.Seed)
	rssLine := fmt.Sprintf("- jobsd RSS (`process_resident_memory_bytes`): %.0f MiB when ready, peak %.0f MiB", mib(r.RSSStart), mib(r.RSSPeak))
	if r.large() {
		met := "met"
		if float64(r.RSSPeak) > rssAt1M {
			met = "NOT met"
		}
		rssLine += fmt.Sprintf(" (target ≤ 400 MB: %s)", met)
	}
	p("%s.\n\n", rssLine)

	p("| query | REST req/s | REST p50 | REST p99 | GraphQL req/s | GraphQL p50 | GraphQL p99 | GraphQL/REST | " +
		"PostGraphile req/s | ×PostGraphile | plain SQL req/s | ×plain SQL | errors | target met |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for i, q := range r.Mix {
		rest, gql := r.Runs[i][0], r.Runs[i][1]
		met := "yes"
		if miss := r.targetMisses(q, rest, gql); len(miss) > 0 {
			met = "no: " + strings.Join(miss, "; ")
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %d | %s |\n",
			q.Name, itoa(int(rest.PerSecond()+0.5)), fmtMS(rest.P50), fmtMS(rest.P99),
			itoa(int(gql.PerSecond()+0.5)), fmtMS(gql.P50), fmtMS(gql.P99), gql.PerSecond()/rest.PerSecond(),
			reference(q.PostGraphile, "%s", itoa(int(q.PostGraphile))), reference(q.PostGraphile, "%.1f", rest.PerSecond()/q.PostGraphile),
			reference(q.PlainSQL, "%s", itoa(int(q.PlainSQL))), reference(q.PlainSQL, "%.1f", rest.PerSecond()/q.PlainSQL),
			rest.Errors+gql.Errors, met)
	}
	p("\nPostGraphile and plain SQL: the measurements the targets were set with at N=200,000 on this kind of machine (— where it has none). ")
	if r.large() {
		p("Targets at this N: REST list p99 ≤ 100 ms, GraphQL within %.1f× of REST, RSS ≤ 400 MB; the throughput targets are N=200,000's.\n\n", graphQLWithin)
	} else {
		p("Targets: list queries ≥ 10× PostGraphile, ≥ 3× plain SQL (where measured) and p99 ≤ 50 ms (REST); job by id ≥ 7,000 req/s; " +
			"companies ≥ 4,000 req/s; a page with facets at p50 ≤ 2× the same page's without (REST and GraphQL); " +
			"GraphQL within 1.3× of REST (GraphQL/REST ≥ 0.77).\n\n")
	}
	if y := yardstickMarkdown(r.Yardsticks, r.YardstickFailure, r.N, r.large(), r.jobREST()); y != "" {
		p("%s\n", y)
	}
	for i, q := range r.Mix {
		if q.Kind != nearKind || i >= len(r.Runs) || len(r.Runs[i]) != 2 {
			continue
		}
		rest, gql := r.Runs[i][0], r.Runs[i][1]
		baseREST, baseGQL, ok := r.baseRuns(q)
		if !ok {
			continue
		}
		restX, gqlX := r.throughputRatios(q, rest, gql)
		p("Near: throughput of %s over %s's: REST %.0f / %.0f req/s = %.2f×, GraphQL %.0f / %.0f req/s = %.2f× "+
			"(target ≥ %.1f×); REST p99 %s (target ≤ %s).\n\n", q.Name, q.Base, rest.PerSecond(), baseREST.PerSecond(), restX,
			gql.PerSecond(), baseGQL.PerSecond(), gqlX, nearWithin, fmtMS(rest.P99), fmtMS(listP99At200k))
	}
	for i, q := range r.Mix {
		if q.Kind != facetKind {
			continue
		}
		rest, gql := r.Runs[i][0], r.Runs[i][1]
		baseREST, baseGQL, ok := r.baseRuns(q)
		if !ok {
			continue
		}
		restX, gqlX := r.facetRatios(q, rest, gql)
		at := ""
		if r.large() {
			at = " at N=200,000"
		}
		p("Facets: p50 of %s over %s's: REST %s / %s = %.2f×, GraphQL %s / %s = %.2f× (target%s ≤ %.0f×).\n\n",
			q.Name, q.Base, fmtMS(rest.P50), fmtMS(baseREST.P50), restX, fmtMS(gql.P50), fmtMS(baseGQL.P50), gqlX, at, facetsWithin)
	}
	p("Where the processors went during each run, as shares of all %d CPUs: jobsd, the PostgreSQL backends of its "+
		"database, the load generator, and the rest of the machine (other processes, the kernel); and jobsd's own "+
		"processor time per request:\n\n", r.Machine.CPUs)
	p("| query | REST jobsd / PostgreSQL / load / rest | REST jobsd CPU per request | " +
		"GraphQL jobsd / PostgreSQL / load / rest | GraphQL jobsd CPU per request |\n")
	p("|---|---:|---:|---:|---:|\n")
	for i, q := range r.Mix {
		p("| %s", q.Name)
		for _, run := range r.Runs[i] {
			c := run.CPU
			p(" | %.0f%% / %.0f%% / %.0f%% / %.0f%% | %.0f µs", 100*c.Jobsd, 100*c.Postgres, 100*c.Load, 100*c.Other,
				float64(c.JobsdPerRequest)/1e3)
		}
		p(" |\n")
	}
	p("\nValues rotated:\n\n")
	for _, q := range r.Mix {
		p("- %s: %s\n", q.Name, q.Rotation)
	}

	checked, wrong := 0, 0
	for _, e := range r.Exact {
		checked += e.Checked
		wrong += len(e.Mismatches)
	}
	p("\nExactness: %d sampled answers (every %dth value of each query type, REST and GraphQL) compared with the harness's own SQL "+
		"(count(*), the page's ids in the contract's order, the job's title and company, the companies' job counts, "+
		"the facets' values and counts): ", checked, sampleEvery)
	if wrong == 0 {
		p("all equal.\n")
	} else {
		p("**%d differ**:\n\n", wrong)
		n := 0
		for _, e := range r.Exact {
			for _, s := range e.Mismatches {
				if n++; n <= 20 {
					p("- %s: %s\n", e.Query, s)
				}
			}
		}
		if n > 20 {
			p("- … and %d more\n", n-20)
		}
	}

	p("\nKeyset pagination (`cursor` / `after`, 25 a page): cursors followed to page %d, then page 1 and that page fetched "+
		"alternately %d times each on one connection, median latency:\n\n", r.Pages, r.Times)
	p("| filter | transport | page reached | page 1 | deep page | ratio | ≤ %.1f |\n|---|---|---:|---:|---:|---:|---|\n", cursorWithin)
	for _, k := range r.Keysets {
		met := "yes"
		switch {
		case len(k.Problems) > 0:
			met = "no: " + k.Problems[0]
		case k.Ratio() > cursorWithin:
			met = "no"
		}
		p("| %s | %s | %d | %.2f ms | %.2f ms | %.2f | %s |\n", k.Filter, k.Transport, k.Page, ms(k.First), ms(k.Deep), k.Ratio(), met)
	}
	p("%s\n", endMarker)
	return b.String()
}

// reference formats a figure derived from one of the measurements the targets were set with,
// or "—" where the issue has none (measured is 0).
func reference(measured float64, format string, v any) string {
	if measured <= 0 {
		return "—"
	}
	return fmt.Sprintf(format, v)
}

func orNone(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}

// order says how the two transports' runs of a query type were ordered.
func (r *report) order() string {
	if r.Rounds <= 1 {
		return "REST, then GraphQL"
	}
	return fmt.Sprintf("in %d rounds of %s, REST and GraphQL alternating", r.Rounds, r.Duration/time.Duration(r.Rounds))
}

func ms(d time.Duration) float64   { return float64(d) / float64(time.Millisecond) }
func fmtMS(d time.Duration) string { return strconv.FormatFloat(ms(d), 'f', 1, 64) + " ms" }

// The markers around a generated section.
const endMarker = "<!-- bench:end -->"

func beginMarker(n int) string { return fmt.Sprintf("<!-- bench:begin N=%d -->", n) }

var beginRE = regexp.MustCompile(`<!-- bench:begin N=(\d+) -->`)

// writeSection puts the section of N into the markdown file: in place of
// the previous one, or before the first section of a larger N, or at the
// end. Text outside the markers is kept.
func writeSection(file string, n int, section string) error {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		b = []byte("# Benchmark results\n\nSections between `<!-- bench:begin N=… -->` and `" + endMarker +
			"` are written by `make bench`; the rest is written by hand.\n")
	} else if err != nil {
		return err
	}
	doc := string(b)
	begin := beginMarker(n)
	if i := strings.Index(doc, begin); i >= 0 {
		j := strings.Index(doc[i:], endMarker)
		if j < 0 {
			return fmt.Errorf("%s: %s without %s", file, begin, endMarker)
		}
		end := i + j + len(endMarker)
		if end < len(doc) && doc[end] == '\n' {
			end++
		}
		doc = doc[:i] + section + doc[end:]
	} else {
		at := len(doc)
		for _, m := range beginRE.FindAllStringSubmatchIndex(doc, -1) {
			if other, _ := strconv.Atoi(doc[m[2]:m[3]]); other > n {
				at = m[0]
				break
			}
		}
		if at == len(doc) {
			doc = strings.TrimRight(doc, "\n") + "\n\n" + section
		} else {
			doc = doc[:at] + section + "\n" + doc[at:]
		}
	}
	return os.WriteFile(file, []byte(doc), 0o644)
}
