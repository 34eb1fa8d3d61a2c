package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gzipped returns s compressed as jobsd's gzip middleware sends it.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// TestSendReadsOnlyWhatItNeeds checks that a measured request still
// reports every status other than 200 while skipping the bodies it does
// not keep.
func TestSendReadsOnlyWhatItNeeds(t *testing.T) {
	long := `{"data":{"job":{"description":"` + string(bytes.Repeat([]byte("x"), 5000)) + `"}}}`
	answers := map[string]struct {
		status int
		body   string
	}{
		"/rest-ok":      {http.StatusOK, `{"data":{"id":"a-1"}}`},
		"/rest-missing": {http.StatusNotFound, `{"error":{"code":"not_found","message":"no job has id a-2"}}`},
		"/gql-ok":       {http.StatusOK, long},
		"/gql-errors":   {http.StatusOK, `{"errors":[{"message":"boom"}],"data":null}`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[r.URL.Path]
		if r.URL.Path == "/graphql" { // the body names the answer
			name, _ := io.ReadAll(r.Body)
			a = answers[string(name)]
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(a.status)
		_, _ = w.Write(gzipped(t, a.body))
	}))
	defer srv.Close()
	c := newClient(srv.URL, "key", 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		path      string
		transport string
		whole     bool
		wantBody  string
		wantErr   string
	}{
		{"REST kept", "/rest-ok", restT, true, `{"data":{"id":"a-1"}}`, ""},
		{"REST not kept", "/rest-ok", restT, false, "", ""},
		{"REST error not kept", "/rest-missing", restT, false, `{"error":{"code":"not_found","message":"no job has id a-2"}}`, "status 404"},
		{"GraphQL kept", "/gql-ok", graphQLT, true, long, ""},
		{"GraphQL not kept", "/gql-ok", graphQLT, false, "", ""},
		{"GraphQL errors not kept", "/gql-errors", graphQLT, false, "", ""}, // counted by jobsd: see drive
	} {
		t.Run(tc.name, func(t *testing.T) {
			kase := testCase{REST: tc.path}
			if tc.transport == graphQLT {
				kase = testCase{GraphQL: []byte(tc.path)}
			}
			body, err := c.send(ctx, kase, tc.transport, tc.whole)
			if tc.wantErr == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
			}
			assert.Equal(t, tc.wantBody, string(body))
		})
	}
}

func TestMetricSumsSeries(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `# HELP jobsd_graphql_errors_total Errors in GraphQL answers.
# TYPE jobsd_graphql_errors_total counter
jobsd_graphql_errors_total{code="internal"} 2
jobsd_graphql_errors_total{code="timeout"} 3
jobsd_graphql_errors_total_other 100
process_resident_memory_bytes 1.2345e+08
`)
	}))
	defer srv.Close()
	c := newClient(srv.URL, "", 1)
	ctx := context.Background()
	v, err := c.metric(ctx, graphQLErrorsMetric)
	require.NoError(t, err)
	assert.Equal(t, 5.0, v)
	v, err = c.metric(ctx, "process_resident_memory_bytes")
	require.NoError(t, err)
	assert.Equal(t, 1.2345e8, v)
	_, err = c.metric(ctx, "jobsd_absent")
	assert.ErrorIs(t, err, errNoMetric)
}

// TestDriveCountsGraphQLErrors checks that a measured GraphQL run, which
// does not look into the answers it does not keep, still counts the
// errors jobsd says it sent with status 200.
func TestDriveCountsGraphQLErrors(t *testing.T) {
	var calls, sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			if n := sent.Load(); n > 0 {
				fmt.Fprintf(w, "jobsd_graphql_errors_total{code=\"internal\"} %d\n", n)
			}
			_, _ = io.WriteString(w, "process_resident_memory_bytes 1e+08\n")
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		if calls.Add(1) <= 3 { // the first three answers carry an error
			sent.Add(1)
			_, _ = io.WriteString(w, `{"errors":[{"message":"internal error","extensions":{"code":"internal"}}],"data":null}`)
			return
		}
		_, _ = io.WriteString(w, `{"data":{"job":null}}`)
	}))
	defer srv.Close()
	c := newClient(srv.URL, "key", 2)
	q := query{Name: "job", Cases: []testCase{{GraphQL: []byte(`{"query":"{ job(id: \"a-1\") { id } }"}`)}}}
	none := func(int) bool { return false }
	cpu := func() cpuSample { return cpuSample{} }
	res := c.drive(context.Background(), q, graphQLT, 2, 100*time.Millisecond, 0, newRSSSampler(srv.URL), cpu, none)
	assert.Greater(t, res.Requests, 3)
	assert.Equal(t, 3, res.Errors)
	assert.Len(t, res.Problems, 1)

	res = c.drive(context.Background(), q, graphQLT, 2, 50*time.Millisecond, 0, newRSSSampler(srv.URL), cpu, none)
	assert.Zero(t, res.Errors, "errors counted before the run are not this run's")
}

// TestDriveReportsAnUnreadableCount checks that a GraphQL run whose error
// count cannot be read fails, rather than passing as if none were sent.
func TestDriveReportsAnUnreadableCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			_, _ = io.WriteString(w, "jobsd_graphql_errors_total{code=\"internal\"} many\nprocess_resident_memory_bytes 1e+08\n")
			return
		}
		_, _ = io.WriteString(w, `{"data":{"job":null}}`)
	}))
	defer srv.Close()
	c := newClient(srv.URL, "key", 1)
	q := query{Name: "job", Cases: []testCase{{GraphQL: []byte(`{"query":"{ job(id: \"a-1\") { id } }"}`)}}}
	res := c.drive(context.Background(), q, graphQLT, 1, 20*time.Millisecond, 0, newRSSSampler(srv.URL),
		func() cpuSample { return cpuSample{} }, func(int) bool { return false })
	assert.Equal(t, 1, res.Errors)
	for problem := range res.Problems {
		assert.Contains(t, problem, "could not read jobsd's jobsd_graphql_errors_total")
	}
}

// TestRunResultAdd checks that two rounds of a run add up as one run of
// their combined time would: counts summed, shares weighted by time,
// jobsd's time per request by requests, percentiles over both rounds.
func TestRunResultAdd(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		var d []time.Duration
		for _, v := range n {
			d = append(d, time.Duration(v)*time.Millisecond)
		}
		return d
	}
	first := runResult{Query: "q", Transport: restT, Requests: 3, Elapsed: time.Second, Errors: 1,
		Problems: map[string]int{"timeout": 1}, RSSPeak: 100, Samples: map[int][]byte{0: []byte("a")},
		CPU: cpuShare{Jobsd: 0.6, Postgres: 0.2, Load: 0.1, Other: 0.1, JobsdPerRequest: 100 * time.Microsecond},
		P50: 2 * time.Millisecond, P99: 3 * time.Millisecond, latencies: ms(1, 2, 3)}
	second := runResult{Query: "q", Transport: restT, Requests: 1, Elapsed: 3 * time.Second, Errors: 2,
		Problems: map[string]int{"timeout": 1, "status 500": 1}, RSSPeak: 50, Samples: map[int][]byte{0: []byte("b"), 1: []byte("c")},
		CPU:       cpuShare{Jobsd: 0.2, Postgres: 0.6, Load: 0.1, Other: 0.1, JobsdPerRequest: 500 * time.Microsecond},
		latencies: ms(10)}

	sum := runResult{}.add(first).add(second)
	assert.Equal(t, "q", sum.Query)
	assert.Equal(t, restT, sum.Transport)
	assert.Equal(t, 4, sum.Requests)
	assert.Equal(t, 4*time.Second, sum.Elapsed)
	assert.InDelta(t, 1.0, sum.PerSecond(), 1e-9)
	assert.Equal(t, 3, sum.Errors)
	assert.Equal(t, map[string]int{"timeout": 2, "status 500": 1}, sum.Problems)
	assert.Equal(t, int64(100), sum.RSSPeak)
	assert.Equal(t, map[int][]byte{0: []byte("a"), 1: []byte("c")}, sum.Samples, "the first round's samples first")
	assert.InDelta(t, 0.3, sum.CPU.Jobsd, 1e-9)    // (0.6·1 + 0.2·3) / 4
	assert.InDelta(t, 0.5, sum.CPU.Postgres, 1e-9) // (0.2·1 + 0.6·3) / 4
	assert.InDelta(t, 0.1, sum.CPU.Load, 1e-9)
	assert.Equal(t, 200*time.Microsecond, sum.CPU.JobsdPerRequest) // (100·3 + 500·1) / 4
	assert.Equal(t, ms(1, 2, 3, 10), sum.latencies)
	assert.Equal(t, percentile(ms(1, 2, 3, 10), 0.50), sum.P50)
	assert.Equal(t, 10*time.Millisecond, sum.P99)
	assert.NotEqual(t, first.P50, sum.P50, "not a round's own percentile")
	assert.Equal(t, map[string]int{"timeout": 1}, first.Problems, "the rounds are left as they were")
}

// TestDriveContinuesTheRotation checks that a later round goes on with
// the cases where the earlier rounds left off, and keeps no samples once
// the first pass is over.
func TestDriveContinuesTheRotation(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			_, _ = io.WriteString(w, "process_resident_memory_bytes 1e+08\n")
			return
		}
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		_, _ = io.WriteString(w, `{"data":[]}`)
	}))
	defer srv.Close()
	c := newClient(srv.URL, "key", 1)
	q := query{Name: "q", Cases: []testCase{{REST: "/a"}, {REST: "/b"}, {REST: "/c"}}}
	all := func(int) bool { return true }
	cpu := func() cpuSample { return cpuSample{} }

	res := c.drive(context.Background(), q, restT, 1, 20*time.Millisecond, 2, newRSSSampler(srv.URL), cpu, all)
	require.Greater(t, res.Requests, 1)
	mu.Lock()
	assert.Equal(t, []string{"/c", "/a"}, paths[:2], "the third case first: two were sent before")
	mu.Unlock()
	assert.Contains(t, res.Samples, 2, "the first pass's last case is kept")
	assert.NotContains(t, res.Samples, 0, "a case of the second pass is not")
}
