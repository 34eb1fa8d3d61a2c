package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCounts(t *testing.T) {
	out := "import: 50 jobs written from 50 lines, 0 invalid skipped, in 0.1s (500 jobs/s)\n" +
		"import: 40 opened, 10 updated, 0 unchanged, 1000 closed; snapshot of source \"livecrawl_1\"\n"
	assert.Equal(t, importCounts{Opened: 40, Updated: 10, Closed: 1000, OK: true}, parseCounts(out))
	assert.False(t, parseCounts("import: refused").OK)
}

func TestListMix(t *testing.T) {
	mix := []query{
		{Name: "a", Kind: listKind, Cases: []testCase{{REST: "a0"}, {REST: "a1"}}},
		{Name: "job", Kind: jobKind, Cases: []testCase{{REST: "j0"}}},
		{Name: "b", Kind: listKind, Cases: []testCase{{REST: "b0"}, {REST: "b1"}, {REST: "b2"}}},
	}
	cases, kinds, names := listMix(mix)
	var rest []string
	for _, c := range cases {
		rest = append(rest, c.REST)
	}
	assert.Equal(t, []string{"a0", "b0", "a1", "b1", "b2"}, rest)
	assert.Equal(t, []int{0, 1, 0, 1, 1}, kinds)
	assert.Equal(t, []string{"a", "b"}, names)
}

// liveReport is a live result with the given live figures against a quiet
// phase of 1,000 requests a second at p50 2 ms, p99 10 ms.
func liveReport(liveRate int, liveP99, lagP95 time.Duration, wrong int) *liveResult {
	ms := time.Millisecond
	phase := func(n int, p50, p99 time.Duration) phaseResult {
		return phaseResult{Requests: n, Elapsed: time.Second, P50: p50, P99: p99,
			ByType: []typeLatency{{Requests: n, P50: p50, P99: p99}}}
	}
	r := &liveResult{
		Config: liveConfig{N: 200000, Conns: 16, Duration: 30 * time.Second, Interval: 3 * time.Second, New: 40, Updates: 10,
			Crawl: 10000, CloseEvery: 10, Poll: 20 * ms, Commit: "abc1234", Database: "a copy"},
		Date: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), Source: "livecrawl_1", Types: []string{"newest 25, no filter"},
		Quiet: phase(1000, 2*ms, 10*ms), Live: phase(liveRate, 3*ms, liveP99),
		Snapshot: importRun{Elapsed: 2 * time.Second, Counts: importCounts{Unchanged: 9000, Closed: 1000, OK: true}},
		Lag:      lagStats{N: 10, P50: 40 * ms, P95: lagP95, Max: lagP95}, Polls: 500,
		SnapshotWatch: totalWatch{Before: 10000, After: 9000}, SnapshotLag: 60 * ms, SnapshotVisible: true,
		CrawlMarker: "via livecrawl 1",
	}
	r.Quiet.CPU = cpuShare{Jobsd: 0.5, Postgres: 0.2, Load: 0.05, Other: 0.1, JobsdPerRequest: 200 * time.Microsecond}
	r.Live.CPU = cpuShare{Jobsd: 0.4, Postgres: 0.2, Load: 0.05, Other: 0.05, JobsdPerRequest: 300 * time.Microsecond}
	r.Live.Imports = 0.2
	r.Quiet.Index = map[string]float64{"jobsd_index_builds_total": 0, "jobsd_index_changes_applied_total": 0}
	r.Live.Index = map[string]float64{"jobsd_index_builds_total": 1, "jobsd_index_changes_applied_total": 600,
		"jobsd_index_sql_answers_total": 3}
	for range wrong {
		r.Wrong = append(r.Wrong, "batch 1: total 17")
	}
	return r
}

func TestLiveMarkdown(t *testing.T) {
	md := liveReport(900, 20*time.Millisecond, 100*time.Millisecond, 0).markdown()
	assert.True(t, strings.HasPrefix(md, "<!-- bench-live:begin N=200000 -->\n### Live scenario, N = 200,000\n"), md)
	assert.True(t, strings.HasSuffix(md, "<!-- bench-live:end -->\n"), md)
	for _, want := range []string{
		"| quiet | 1,000 | 2.0 ms | 10.0 ms | 0 | 50% / 20% / 5% / 0% / 10% | 200 µs |",
		"| live | 900 | 3.0 ms | 20.0 ms | 0 | 40% / 20% / 5% / 20% / 5% | 300 µs |",
		"| live / quiet | 0.90 | 1.50 | 2.00 | | | 1.50 |",
		"p50 40 ms, p95 100 ms, max 100 ms over 10 imports",
		"The snapshot's closes, watched the same way in the crawl's total (`company=via livecrawl 1`, its companies' names ending so: 10,000 → 9,000): shown 60 ms after its exit.",
		"Wrong totals (neither the count before nor after, or back to before), in both: 0 in 500 polls.",
		"| newest 25, no filter | 2.0 ms | 10.0 ms | 3.0 ms | 20.0 ms |",
		"0 opened, 0 updated, 9000 unchanged, 1000 closed",
		"at commit `abc1234`",
		"no wrong total. Met.",
		"jobsd's index (its /metrics) during the quiet phase, then the live one: builds 0 / 1, changed jobs applied 0 / 600, " +
			"lists answered in SQL — / 3.",
	} {
		assert.Contains(t, md, want)
	}

	md = liveReport(700, 150*time.Millisecond, 1500*time.Millisecond, 2).markdown()
	assert.Contains(t, md, "Not met: live throughput 0.70× quiet < 0.8×; live p99 150.0 ms > 100 ms; "+
		"visibility lag p95 1500 ms > 1000 ms; 2 wrong totals.")
	r := liveReport(1000, time.Millisecond, time.Millisecond, 0)
	r.Lag = lagStats{}
	assert.Equal(t, []string{"no visibility lag measured"}, r.targetMisses())
}

func TestLiveFailures(t *testing.T) {
	r := liveReport(700, 150*time.Millisecond, 1500*time.Millisecond, 0)
	assert.Empty(t, r.failures(), "missed targets are reported, not failed")
	r.Live.Errors = 3
	r.Wrong = []string{"x"}
	r.Problems = []string{"the snapshot did not run"}
	assert.Equal(t, []string{"3 requests failed (quiet 0, live 3)", "1 wrong totals observed", "the snapshot did not run"}, r.failures())
}

func TestPlaceLiveSection(t *testing.T) {
	quiet := "# R\n\n" + beginMarker(200000) + "\nquiet 200k\n" + endMarker + "\n\n" + beginMarker(1000000) + "\nquiet 1M\n" + endMarker + "\n"
	live := func(n int, body string) string { return liveBeginMarker(n) + "\n" + body + "\n" + liveEndMarker + "\n" }

	// Right after the quiet section of its N.
	doc, err := placeLiveSection(quiet, 200000, live(200000, "one"))
	require.NoError(t, err)
	assert.Equal(t, "# R\n\n"+beginMarker(200000)+"\nquiet 200k\n"+endMarker+"\n\n"+live(200000, "one")+"\n"+
		beginMarker(1000000)+"\nquiet 1M\n"+endMarker+"\n", doc)

	// In place of the one before; the rest kept.
	again, err := placeLiveSection(doc, 200000, live(200000, "two"))
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(doc, "one", "two", 1), again)

	// At the end without a quiet section of its N.
	doc, err = placeLiveSection("# R\n", 5000, live(5000, "x"))
	require.NoError(t, err)
	assert.Equal(t, "# R\n\n"+live(5000, "x"), doc)

	_, err = placeLiveSection(liveBeginMarker(5000)+"\nx\n", 5000, live(5000, "y"))
	assert.Error(t, err)

	// The quiet writer still finds and replaces its own section.
	file := filepath.Join(t.TempDir(), "r.md")
	require.NoError(t, os.WriteFile(file, []byte(quiet), 0o644))
	require.NoError(t, rewriteFile(file, func(doc string) (string, error) { return placeLiveSection(doc, 200000, live(200000, "one")) }))
	require.NoError(t, writeSection(file, 200000, beginMarker(200000)+"\nquiet again\n"+endMarker+"\n"))
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(b), "quiet again\n"+endMarker+"\n\n"+live(200000, "one"))
	assert.NotContains(t, string(b), "quiet 200k")
}

func TestIndexText(t *testing.T) {
	assert.Empty(t, indexText(map[string]float64{}, nil), "a jobsd without the index's metrics")
}

// TestPrintFailures: each failure on a line after "FAILED:", and an error
// naming what failed; nothing and no error without failures.
func TestPrintFailures(t *testing.T) {
	var out strings.Builder
	require.NoError(t, printFailures(&out, nil, "the soak"))
	assert.Empty(t, out.String())
	err := printFailures(&out, []string{"p99 over target", "an answer differs"}, "the soak")
	require.EqualError(t, err, "the soak failed (see above)")
	assert.Equal(t, "FAILED: p99 over target\nFAILED: an answer differs\n", out.String())
}
