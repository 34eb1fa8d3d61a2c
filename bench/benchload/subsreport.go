package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// The subscriptions scenario's section of the results file.
const subsEndMarker = "<!-- bench-subs:end -->"

// subsBeginMarker begins the section of the scenario at n; a run with one
// subscription a socket (as browser tabs open them) has a section of its
// own.
func subsBeginMarker(n, perSocket int) string {
	if perSocket == 1 {
		return fmt.Sprintf("<!-- bench-subs:begin N=%d one-a-socket -->", n)
	}
	return fmt.Sprintf("<!-- bench-subs:begin N=%d -->", n)
}

// placeSubsSection returns doc with section, the subscriptions
// scenario's at n with perSocket subscriptions a socket, in place of the
// one written before, or else after the scenario's section of n with many
// a socket, the live scenario's, or the quiet one's, or else at the end.
func placeSubsSection(doc string, n, perSocket int, section string) (string, error) {
	return placeSection(doc, section, subsBeginMarker(n, perSocket), subsEndMarker,
		[2]string{subsBeginMarker(n, 0), subsEndMarker},
		[2]string{liveBeginMarker(n), liveEndMarker}, [2]string{beginMarker(n), endMarker})
}

// The subscriptions targets, on 2 cores: delivery lag, CPU, memory, and the list mix kept.
const (
	subsLagP95     = time.Second
	subsLagP99     = 2 * time.Second
	subsCPUCores   = 1.0
	subsRSSAbove   = 300 << 20
	subsMixRatio   = 0.8
	subsIdleCPU    = 0.01 // "no CPU": the idle subscriptions together add at most 1% of a core
	subsIdleMemory = 20 << 10
)

// perSub is the resident memory each open subscription added.
func (r *subsResult) perSub() float64 {
	return (r.RSSIdle - r.RSSBefore) / float64(max(r.Config.N, 1))
}

// rssAbove is the most jobsd's memory stood above its level without
// subscriptions.
func (r *subsResult) rssAbove() float64 {
	return max(r.RSSIdle, r.RSSLive) - r.RSSBefore
}

// mixWithout is the list mix's throughput without subscriptions: the mean
// of its runs before they opened and after they closed.
func (r *subsResult) mixWithout() float64 {
	if len(r.MixWithout) == 0 {
		return 0
	}
	sum := 0.0
	for _, p := range r.MixWithout {
		sum += p.PerSecond()
	}
	return sum / float64(len(r.MixWithout))
}

// lag returns the lag at quantile p.
func (r *subsResult) lag(p float64) time.Duration { return percentile(r.Lags, p) }

// failures are what makes the scenario fail: events lost, repeated or
// wrong, errors of the imports or the subscriptions.
func (r *subsResult) failures() []string {
	var out []string
	if r.Lost+r.Repeated+r.Wrong+r.Unexpect > 0 {
		out = append(out, fmt.Sprintf("%d events lost, %d repeated, %d for postings the filter does not give, %d not ADDED", r.Lost, r.Repeated, r.Wrong, r.Unexpect))
	}
	if len(r.ImportErrors) > 0 {
		out = append(out, fmt.Sprintf("%d imports failed: %s", len(r.ImportErrors), r.ImportErrors[0]))
	}
	for _, k := range slices.Sorted(maps.Keys(r.Problems)) {
		out = append(out, fmt.Sprintf("%d× %s", r.Problems[k], k))
	}
	return out
}

// targetMisses lists the targets the run missed.
func (r *subsResult) targetMisses() []string {
	var out []string
	check := func(ok bool, what string) {
		if !ok {
			out = append(out, what)
		}
	}
	check(r.lag(0.95) <= subsLagP95, "delivery lag p95 ≤ 1 s")
	check(r.lag(0.99) <= subsLagP99, "delivery lag p99 ≤ 2 s")
	check(r.LiveCPU <= subsCPUCores, "jobsd CPU ≤ 1 core")
	check(r.rssAbove() <= subsRSSAbove, "RSS ≤ 300 MB above no subscribers")
	check(ratio(r.MixWith.PerSecond(), r.mixWithout()) >= subsMixRatio, "list mix ≥ 0.8× with the subscriptions open")
	check(r.IdleCPU-r.BaseCPU <= subsIdleCPU, "idle subscriptions cost no CPU")
	check(r.perSub() <= subsIdleMemory, "an idle subscription < 20 KB")
	return out
}

// markdown is the scenario's section.
func (r *subsResult) markdown() string {
	c := r.Config
	var b strings.Builder
	title, memory := "Subscriptions", "memory per idle subscription"
	if c.PerSocket == 1 {
		title, memory = "Subscriptions, one a socket,", "memory per idle subscription with its socket"
	}
	fmt.Fprintf(&b, "%s\n## %s at N = %d (commit %s)\n\n", subsBeginMarker(c.DBN, c.PerSocket), title, c.DBN, c.Commit)
	fmt.Fprintf(&b, "Database: %s. %d subscriptions of distinct filters (skills, cities, work arrangements, countries, category roles) "+
		"over %d WebSockets (%d a socket, graphql-transport-ws), opened in %.1f s; then %d new postings a second "+
		"(one `jobsd import` a second) for %s: %d imports, %d postings. Every subscription's events for those postings were compared "+
		"with the postings a `jobs` query of its filter gives afterwards.\n\n",
		c.Database, c.N, r.Sockets, c.PerSocket, r.Opened.Seconds(), c.Rate, c.Duration, r.Imports, r.Postings)
	fmt.Fprintf(&b, "| measure | value | target |\n|---|---:|---|\n")
	fmt.Fprintf(&b, "| events received / expected | %d / %d | all, once |\n", r.Events, r.Expected)
	fmt.Fprintf(&b, "| lost / repeated / wrong | %d / %d / %d | 0 |\n", r.Lost, r.Repeated, r.Wrong+r.Unexpect)
	fmt.Fprintf(&b, "| delivery lag p50 / p95 / p99 / max (import's end → event received) | %s / %s / %s / %s | p95 ≤ 1 s, p99 ≤ 2 s |\n",
		lagText(r.lag(0.5)), lagText(r.lag(0.95)), lagText(r.lag(0.99)), lagText(r.lag(1)))
	fmt.Fprintf(&b, "| jobsd CPU while postings land | %.2f cores | ≤ 1 core |\n", r.LiveCPU)
	fmt.Fprintf(&b, "| jobsd RSS without / idle with / peak landing | %.0f / %.0f / %.0f MiB | ≤ 300 MB above without |\n",
		mib(int64(r.RSSBefore)), mib(int64(r.RSSIdle)), mib(int64(r.RSSLive)))
	fmt.Fprintf(&b, "| %s | %.1f KB | < 20 KB |\n", memory, r.perSub()/1024)
	fmt.Fprintf(&b, "| jobsd CPU idle for %s, without / with the subscriptions | %.3f / %.3f cores | no more with them |\n", c.Idle, r.BaseCPU, r.IdleCPU)
	var without []string
	for _, p := range r.MixWithout {
		without = append(without, fmt.Sprintf("%.0f", p.PerSecond()))
	}
	fmt.Fprintf(&b, "| list mix (REST, %d connections) without (before they open, after they close) / with the subscriptions open | %s / %.0f req/s (%.2f× the mean without) | ≥ 0.8× |\n",
		c.Conns, strings.Join(without, ", "), r.MixWith.PerSecond(), ratio(r.MixWith.PerSecond(), r.mixWithout()))
	if m := r.targetMisses(); len(m) > 0 {
		fmt.Fprintf(&b, "\nTargets missed: %s.\n", strings.Join(m, "; "))
	} else {
		b.WriteString("\nEvery target met.\n")
	}
	if f := r.failures(); len(f) > 0 {
		fmt.Fprintf(&b, "\nProblems: %s.\n", strings.Join(f, "; "))
	}
	b.WriteString("\n" + subsEndMarker + "\n")
	return b.String()
}
