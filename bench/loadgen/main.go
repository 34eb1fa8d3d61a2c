// Command loadgen drives jobsd at a constant request rate (open loop: a
// slow answer does not slow the sending, and latency counts from when a
// request was due), checks every answer's status and rate-limit headers,
// and samples the server's resident memory from /metrics.
//
//	loadgen -base http://127.0.0.1:8080 -key KEY -rate 2000 -duration 10s -path /api/v1/jobs/x-1
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/jobsd-dev/jobsd/bench/internal/hostile"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

type result struct {
	status  int
	latency time.Duration
	problem string
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	base := fs.String("base", "http://127.0.0.1:8080", "jobsd's base URL")
	key := fs.String("key", "", "API key")
	rate := fs.Float64("rate", 2000, "requests per second")
	duration := fs.Duration("duration", 10*time.Second, "how long to send")
	workers := fs.Int("workers", 256, "concurrent requests at most")
	path := fs.String("path", "/api/v1/jobs?limit=10", "path to request")
	pathsFile := fs.String("paths", "", "file of paths, one a line, requested in turn (instead of -path)")
	allowed := fs.String("allow", "200,429", "statuses that are not a failure")
	closed := fs.Int("connections", 0, "closed loop: this many connections send back to back for -duration (then -rate is ignored)")
	method := fs.String("method", http.MethodGet, "GET, or POST to send each path's line as a GraphQL body to -base/graphql")
	checkHeaders := fs.Bool("check-headers", true, "check the rate-limit headers of every answer")
	hostileMode := fs.Bool("hostile", false, "POST the built-in hostile GraphQL operations in turn (instead of -path); GraphQL errors are expected")
	if err := fs.Parse(args); err != nil {
		return err
	}
	paths := []string{*path}
	graphQLErrorsAllowed := false
	if *hostileMode {
		paths, *method, graphQLErrorsAllowed = hostile.Bodies(), http.MethodPost, true
	}
	if *pathsFile != "" {
		var err error
		if paths, err = readLines(*pathsFile); err != nil {
			return err
		}
	}
	ok := map[int]bool{}
	for _, s := range strings.Split(*allowed, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-allow: %w", err)
		}
		ok[n] = true
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: *workers, MaxIdleConnsPerHost: *workers, MaxConnsPerHost: *workers, IdleConnTimeout: time.Minute,
	}}

	rssBefore, err := rss(client, *base)
	if err != nil {
		return fmt.Errorf("read /metrics: %w", err)
	}
	sender := func(path string, due time.Time) result {
		r := send(client, *method, *base, path, *key, due)
		if !*checkHeaders && strings.HasPrefix(r.problem, "header: ") {
			r.problem = ""
		}
		if graphQLErrorsAllowed && strings.HasPrefix(r.problem, "GraphQL errors: ") {
			r.problem = ""
		}
		return r
	}
	if *closed > 0 {
		*rate = 0
		*workers = *closed
	}
	total := int(*rate * duration.Seconds())
	if *closed > 0 {
		total = 1 << 30 // bounded by -duration below
	}
	type job struct {
		when time.Time
		path string
	}
	queue := *workers
	if *closed > 0 {
		queue = 0 // a request is made when a connection is free: latency counts from then
	}
	due := make(chan job, queue)
	var mu sync.Mutex
	var collected []result
	var wg sync.WaitGroup
	for range *workers {
		wg.Go(func() {
			for j := range due {
				res := sender(j.path, j.when)
				mu.Lock()
				collected = append(collected, res)
				mu.Unlock()
			}
		})
	}
	var rssPeak int64
	var timeline []string
	sampler, stopSampling := context.WithCancel(ctx)
	var sampled sync.WaitGroup
	sampled.Go(func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-sampler.Done():
				return
			case <-t.C:
				if v, err := rss(client, *base); err == nil {
					rssPeak = max(rssPeak, v)
					timeline = append(timeline, fmt.Sprintf("%.0f", mib(v)))
				}
			}
		}
	})

	start := time.Now()
	late := 0
	for i := range total {
		if *closed > 0 {
			if time.Since(start) >= *duration || ctx.Err() != nil {
				break
			}
			due <- job{when: time.Now(), path: paths[i%len(paths)]}
			continue
		}
		when := start.Add(time.Duration(float64(i) / *rate * float64(time.Second)))
		if d := time.Until(when); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				total = i
			}
		}
		if ctx.Err() != nil {
			break
		}
		j := job{when: when, path: paths[i%len(paths)]}
		select {
		case due <- j:
		default:
			late++ // every worker busy: send as soon as one frees
			due <- j
		}
	}
	close(due)
	wg.Wait()
	elapsed := time.Since(start)
	stopSampling()
	sampled.Wait()
	rssAfter, _ := rss(client, *base)

	counts := map[int]int{}
	var latencies []time.Duration
	problems := map[string]int{}
	for _, r := range collected {
		counts[r.status]++
		latencies = append(latencies, r.latency)
		if r.problem != "" {
			problems[r.problem]++
		}
		if !ok[r.status] {
			problems[fmt.Sprintf("status %d", r.status)]++
		}
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))]
	}
	if *closed > 0 {
		fmt.Fprintf(out, "sent %d requests in %.1fs on %d connections: %.0f/s\n", len(latencies), elapsed.Seconds(), *closed, float64(len(latencies))/elapsed.Seconds())
	} else {
		fmt.Fprintf(out, "sent %d requests in %.1fs (%.0f/s; %d sent late, all workers busy)\n", len(latencies), elapsed.Seconds(), float64(len(latencies))/elapsed.Seconds(), late)
	}
	keys := make([]int, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "status %d: %d\n", k, counts[k])
	}
	fmt.Fprintf(out, "latency from due time: p50 %s, p90 %s, p99 %s, max %s\n", pct(.5), pct(.9), pct(.99), pct(1))
	fmt.Fprintf(out, "server RSS: %.1f MiB before, %.1f MiB peak, %.1f MiB after; each second (MiB): %s\n",
		mib(rssBefore), mib(max(rssPeak, rssAfter)), mib(rssAfter), strings.Join(timeline, " "))
	if len(problems) > 0 {
		for p, n := range problems {
			fmt.Fprintf(out, "PROBLEM: %s ×%d\n", p, n)
		}
		return errors.New("some answers were wrong")
	}
	fmt.Fprintln(out, "every answer had an allowed status and correct rate-limit headers")
	return nil
}

// send makes one request and checks the rate-limit headers of the answer.
// With POST, path is a GraphQL request body sent to base/graphql.
func send(client *http.Client, method, base, path, key string, due time.Time) result {
	var req *http.Request
	var err error
	if method == http.MethodPost {
		req, err = http.NewRequest(http.MethodPost, base+"/graphql", strings.NewReader(path))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
	} else {
		req, err = http.NewRequest(method, base+path, nil)
	}
	if err != nil {
		return result{problem: err.Error()}
	}
	req.Header.Set("x-api-key", key)
	resp, err := client.Do(req)
	if err != nil {
		return result{latency: time.Since(due), problem: "transport: " + err.Error()}
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	r := result{status: resp.StatusCode, latency: time.Since(due)}
	if method == http.MethodPost && resp.StatusCode == http.StatusOK && strings.Contains(string(body), `"errors":`) {
		r.problem = "GraphQL errors: " + string(body[:min(len(body), 200)])
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if _, err := strconv.ParseFloat(resp.Header.Get(h), 64); err != nil {
			r.problem = "header: missing or bad " + h
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n < 1 {
			r.problem = "header: 429 without a whole-seconds Retry-After"
		}
	}
	return r
}

// rss reads process_resident_memory_bytes from the server's /metrics.
func rss(client *http.Client, base string) (int64, error) {
	resp, err := client.Get(base + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "process_resident_memory_bytes "); ok {
			f, err := strconv.ParseFloat(v, 64)
			return int64(f), err
		}
	}
	return 0, errors.New("no process_resident_memory_bytes")
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func readLines(name string) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no paths", name)
	}
	return out, nil
}
