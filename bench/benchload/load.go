package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

// Transports of a query.
const (
	restT    = "REST"
	graphQLT = "GraphQL"
)

// runResult is the measurement of one query type through one transport.
type runResult struct {
	Query     string
	Transport string
	Requests  int
	Elapsed   time.Duration
	P50, P99  time.Duration
	Errors    int
	// Problems are examples of the errors, with how often each occurred.
	Problems map[string]int
	// RSSPeak is jobsd's peak resident memory during the run.
	RSSPeak int64
	// CPU is where the machine's processor time went during the run.
	CPU cpuShare
	// Samples are the bodies of the sampled cases, by case index.
	Samples map[int][]byte
	// latencies are the requests' latencies, sorted (for add).
	latencies []time.Duration
}

// add returns the measurement of r's and o's runs together, two rounds of
// one query type through one transport: their requests, time, errors and
// latencies summed, the RSS peak the higher, the processor shares
// weighted by time and jobsd's time per request by requests. Samples are
// kept from the first round that has them.
func (r runResult) add(o runResult) runResult {
	if r.Requests == 0 && r.Elapsed == 0 {
		return o
	}
	sum := runResult{Query: r.Query, Transport: r.Transport, Requests: r.Requests + o.Requests,
		Elapsed: r.Elapsed + o.Elapsed, Errors: r.Errors + o.Errors, RSSPeak: max(r.RSSPeak, o.RSSPeak),
		Problems: maps.Clone(r.Problems), Samples: maps.Clone(o.Samples)}
	for p, k := range o.Problems {
		sum.Problems[p] += k
	}
	maps.Copy(sum.Samples, r.Samples)
	if t := (r.Elapsed + o.Elapsed).Seconds(); t > 0 {
		wr, wo := r.Elapsed.Seconds()/t, o.Elapsed.Seconds()/t
		sum.CPU = cpuShare{Jobsd: r.CPU.Jobsd*wr + o.CPU.Jobsd*wo, Postgres: r.CPU.Postgres*wr + o.CPU.Postgres*wo,
			Load: r.CPU.Load*wr + o.CPU.Load*wo, Other: r.CPU.Other*wr + o.CPU.Other*wo}
	}
	if sum.Requests > 0 {
		sum.CPU.JobsdPerRequest = (r.CPU.JobsdPerRequest*time.Duration(r.Requests) +
			o.CPU.JobsdPerRequest*time.Duration(o.Requests)) / time.Duration(sum.Requests)
	}
	sum.latencies = append(slices.Clone(r.latencies), o.latencies...)
	slices.Sort(sum.latencies)
	sum.P50, sum.P99 = percentile(sum.latencies, 0.50), percentile(sum.latencies, 0.99)
	return sum
}

// PerSecond is the run's throughput.
func (r runResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// client sends the harness's requests to one jobsd.
//
// The load goes through fasthttp's client, as bombardier does: it reads
// and writes on the caller's goroutine with pooled buffers, where
// net/http's transport hands each request to two goroutines of its own
// per connection and allocates per request. Measured on the job-by-id
// run, net/http's client took a quarter of the machine's two CPUs away
// from jobsd and PostgreSQL; wrk, which the targets were measured with, would take a
// fraction of that. Answers are asked for gzipped, as browsers ask; in
// measured runs only the answers kept for the checks are inflated (see
// send).
type client struct {
	fast *fasthttp.HostClient
	http *http.Client // for /metrics
	base string
	key  string
}

func newClient(base, key string, conns int) *client {
	u, _ := url.Parse(base) // run checked it
	return &client{
		base: base, key: key,
		fast: &fasthttp.HostClient{
			Addr: u.Host, IsTLS: u.Scheme == "https", MaxConns: conns, MaxIdleConnDuration: time.Minute,
			ReadTimeout: 60 * time.Second, WriteTimeout: 60 * time.Second,
		},
		http: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
			MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, IdleConnTimeout: time.Minute,
		}},
	}
}

// do sends one case through a transport and returns the body of its
// answer, inflated, or what was wrong with it: a status other than 200, a
// transport error, GraphQL errors.
func (c *client) do(ctx context.Context, tc testCase, transport string) ([]byte, error) {
	return c.send(ctx, tc, transport, true)
}

// send sends one case as do does, but looks into the body of an answer
// with status 200 only when whole says so: measured runs read the others
// without inflating them, as wrk and bombardier do not inflate answers
// either. Inflating every full job took the load generator from 12% to
// 20% of the two CPUs. The errors of GraphQL answers not looked into are
// counted by jobsd (jobsd_graphql_errors_total), which drive reads.
func (c *client) send(ctx context.Context, tc testCase, transport string, whole bool) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	if transport == graphQLT {
		req.SetRequestURI(c.base + "/graphql")
		req.Header.SetMethod(http.MethodPost)
		req.Header.SetContentType("application/json")
		req.SetBodyRaw(tc.GraphQL)
	} else {
		req.SetRequestURI(c.base + tc.REST)
	}
	req.Header.Set("x-api-key", c.key)
	req.Header.Set("Accept-Encoding", "gzip")
	if err := c.fast.Do(req, resp); err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	body := resp.Body()
	if !whole && resp.StatusCode() == http.StatusOK {
		return nil, nil
	}
	if bytes.Equal(resp.Header.ContentEncoding(), []byte("gzip")) {
		var err error
		if body, err = resp.BodyGunzip(); err != nil {
			return nil, fmt.Errorf("read body: %w", err)
		}
	}
	body = bytes.Clone(body) // resp's buffers go back to the pool
	if resp.StatusCode() != http.StatusOK {
		return body, fmt.Errorf("status %d: %.200s", resp.StatusCode(), body)
	}
	// A GraphQL answer's "errors" member; inside strings the quotes
	// would be escaped.
	if transport == graphQLT && bytes.Contains(body, []byte(`"errors":`)) {
		return body, fmt.Errorf("GraphQL errors: %.200s", body)
	}
	return body, nil
}

// drive sends the cases of q in turn through a transport on conns
// connections, each sending its next request when its answer is in
// (closed loop), for d. The rotation starts at the sent-th request (the
// requests of earlier rounds); the bodies of the first pass over the
// cases whose index sample accepts are kept.
func (c *client) drive(ctx context.Context, q query, transport string, conns int, d time.Duration, sent int, rss *rssSampler, cpu func() cpuSample, sample func(int) bool) runResult {
	res := runResult{Query: q.Name, Transport: transport, Problems: map[string]int{}, Samples: map[int][]byte{}}
	var next atomic.Int64
	var mu sync.Mutex
	var latencies []time.Duration
	var wg sync.WaitGroup
	rss.reset()
	// jobsd's count of the errors in GraphQL answers, read before and
	// after the run (absent until it has counted one).
	var countErr error
	graphQLErrors := func() float64 {
		if transport != graphQLT {
			return 0
		}
		v, err := c.metric(ctx, graphQLErrorsMetric)
		if err != nil && !errors.Is(err, errNoMetric) {
			countErr = err
		}
		return v
	}
	errorsBefore := graphQLErrors()
	cpuBefore := cpu()
	start := time.Now()
	deadline := start.Add(d)
	for range conns {
		wg.Go(func() {
			var mine []time.Duration
			for time.Now().Before(deadline) && ctx.Err() == nil {
				k := sent + int(next.Add(1)-1)
				i := k % len(q.Cases)
				t0 := time.Now()
				keep := k < len(q.Cases) && sample(i)
				body, err := c.send(ctx, q.Cases[i], transport, keep)
				mine = append(mine, time.Since(t0))
				if err != nil || keep {
					mu.Lock()
					if err != nil {
						res.Errors++
						res.Problems[problemKey(err)]++
					}
					if keep {
						res.Samples[i] = body
					}
					mu.Unlock()
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Requests = len(latencies)
	res.RSSPeak = rss.runPeak()
	res.CPU = cpu().since(cpuBefore, res.Requests)
	counted := int(graphQLErrors() - errorsBefore)
	switch {
	case countErr != nil:
		res.Errors++
		res.Problems["could not read jobsd's "+graphQLErrorsMetric+": "+countErr.Error()]++
	case counted > res.Errors:
		// The answers send saw fail (any status but 200, and the errors
		// of the answers kept) may be among those jobsd counted: only the
		// rest are new. jobsd counts errors, not answers.
		res.Problems["GraphQL errors counted by jobsd ("+graphQLErrorsMetric+")"] += counted - res.Errors
		res.Errors = counted
	}
	slices.Sort(latencies)
	res.P50, res.P99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
	res.latencies = latencies
	return res
}

// problemKey shortens an error for counting alike ones together.
func problemKey(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// percentile returns the p-quantile of sorted latencies (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

// rssSampler reads jobsd's resident memory from /metrics several times a
// second, keeping the peak of the whole benchmark and of the current run,
// on a connection of its own (the load's are busy).
type rssSampler struct {
	peak, run atomic.Int64
	metrics   *client
}

func newRSSSampler(base string) *rssSampler {
	return &rssSampler{metrics: newClient(base, "", 2)}
}

// sample polls until ctx ends.
func (s *rssSampler) sample(ctx context.Context) {
	c := s.metrics
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		if f, err := c.metric(ctx, "process_resident_memory_bytes"); err == nil {
			v := int64(f)
			for _, a := range []*atomic.Int64{&s.peak, &s.run} {
				for {
					old := a.Load()
					if v <= old || a.CompareAndSwap(old, v) {
						break
					}
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *rssSampler) reset()         { s.run.Store(0) }
func (s *rssSampler) runPeak() int64 { return s.run.Load() }

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// errNoMetric is metric's error for a metric /metrics does not list.
var errNoMetric = errors.New("not in /metrics")

// graphQLErrorsMetric is jobsd's count of the errors in GraphQL answers.
const graphQLErrorsMetric = "jobsd_graphql_errors_total"

// metric reads a metric from jobsd's /metrics: the sum of its series (one
// for a number without labels), or an error when it has none.
func (c *client) metric(ctx context.Context, name string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sum, found := 0.0, false
	for sc.Scan() {
		line := sc.Text()
		series, ok := strings.CutPrefix(line, name)
		if !ok || series == "" || (series[0] != ' ' && series[0] != '{') {
			continue
		}
		v, err := strconv.ParseFloat(series[strings.LastIndexByte(series, ' ')+1:], 64)
		if err != nil {
			return 0, fmt.Errorf("%s in /metrics: %w", name, err)
		}
		sum, found = sum+v, true
	}
	if !found {
		return 0, fmt.Errorf("%s: %w", name, errNoMetric)
	}
	return sum, nil
}

// cpuSample is the processor time used so far: by jobsd, by the
// PostgreSQL backends serving its database, by this process, and by the
// whole machine (busy and total, in /proc/stat's ticks). Zero where it
// could not be read.
type cpuSample struct {
	jobsd, postgres, self float64 // seconds
	busy, total           float64 // ticks
	at                    time.Time
}

// cpuShare is how the machine's processors were used during a run, as
// fractions of all of them, and jobsd's processor time per request.
type cpuShare struct {
	Jobsd, Postgres, Load, Other float64
	JobsdPerRequest              time.Duration
}

// clockTicks is Linux's USER_HZ, the unit of /proc's processor times.
const clockTicks = 100

// processCPU returns the processor time a process has used, in seconds,
// from /proc/PID/stat (0 when it cannot be read).
func processCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 12th and 13th of them.
	_, rest, ok := bytes.Cut(b, []byte(") "))
	f := strings.Fields(string(rest))
	if !ok || len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (u + st) / clockTicks
}

// cpu samples the processor times; pids are the PostgreSQL backends'.
func (s *rssSampler) cpu(ctx context.Context, pids []int) cpuSample {
	c := cpuSample{at: time.Now()}
	c.jobsd, _ = s.metrics.metric(ctx, "process_cpu_seconds_total")
	for _, pid := range pids {
		c.postgres += processCPU(pid)
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		c.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		for i, f := range strings.Fields(line)[1:] {
			v, _ := strconv.ParseFloat(f, 64)
			c.total += v
			if i != 3 && i != 4 { // idle, iowait
				c.busy += v
			}
		}
	}
	return c
}

// since returns the shares of the processors between an earlier sample
// and c, and jobsd's time per request of n requests. A backend that
// started between the samples counts from zero, one that ended is lost.
func (c cpuSample) since(before cpuSample, n int) cpuShare {
	var sh cpuShare
	wall := c.at.Sub(before.at).Seconds() * float64(runtime.NumCPU())
	if wall <= 0 || c.total <= before.total {
		return sh
	}
	sh.Jobsd = (c.jobsd - before.jobsd) / wall
	sh.Postgres = max(0, c.postgres-before.postgres) / wall
	sh.Load = (c.self - before.self) / wall
	sh.Other = max(0, (c.busy-before.busy)/(c.total-before.total)-sh.Jobsd-sh.Postgres-sh.Load)
	if n > 0 {
		sh.JobsdPerRequest = time.Duration((c.jobsd - before.jobsd) / float64(n) * float64(time.Second))
	}
	return sh
}
