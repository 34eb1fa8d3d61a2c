package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// loggedAddr returns the addr of the service's first log line with the
// message msg, or "" when it logged none.
func loggedAddr(s *service, msg string) string {
	for line := range strings.SplitSeq(s.logs.String(), "\n") {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == msg {
			return entry.Addr
		}
	}
	return ""
}

// fetch GETs a URL (or sends method to it) and returns the status and body.
func fetch(t *testing.T, method, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// TestMetricsListener: by default /metrics is on the main listener; with
// --metrics-addr or JOBSD_METRICS_ADDR it is served on that listener only,
// which serves nothing else, and the main listener answers it with 404.
// A made-up method is counted as "other", never as a label of its own.
func TestMetricsListener(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	tests := []struct {
		name     string
		flags    []string
		env      []string
		separate bool
	}{
		{"default", nil, nil, false},
		{"flag", []string{"--metrics-addr", "127.0.0.1:0"}, nil, true},
		{"env", nil, []string{"JOBSD_METRICS_ADDR=127.0.0.1:0"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startServiceWith(t, dsn, tt.flags, tt.env...)
			status, _ := fetch(t, "FOOBAR", s.base+"/api/v1/jobs")
			assert.NotEqual(t, http.StatusOK, status)
			metricsAt := s.base
			if tt.separate {
				addr := loggedAddr(s, "metrics listening")
				require.NotEmpty(t, addr, "the metrics listener's address is logged: %s", s.logs)
				metricsAt = "http://" + addr
				status, body := fetch(t, http.MethodGet, s.base+"/metrics")
				assert.Equal(t, http.StatusNotFound, status, "the main listener no longer serves /metrics")
				assert.False(t, strings.Contains(body, "jobsd_http_requests_total"), "no metrics on the main listener")
				status, _ = fetch(t, http.MethodGet, metricsAt+"/healthz")
				assert.Equal(t, http.StatusNotFound, status, "the metrics listener serves /metrics only")
				status, _ = fetch(t, http.MethodGet, s.base+"/healthz")
				assert.Equal(t, http.StatusOK, status, "the main listener serves the rest")
			} else {
				assert.Empty(t, loggedAddr(s, "metrics listening"))
			}
			status, body := fetch(t, http.MethodGet, metricsAt+"/metrics")
			require.Equal(t, http.StatusOK, status)
			assert.True(t, strings.Contains(body, "jobsd_http_requests_total"), "the metrics are served")
			assert.True(t, strings.Contains(body, `method="other"`), "a made-up method is counted as other")
			assert.False(t, strings.Contains(body, "FOOBAR"), "a made-up method adds no series")
		})
	}
}

// TestRedisURLPasswordIsMasked: whatever is wrong with REDIS_URL or
// --redis-url, serve's messages never hold its password; a URL that does
// not parse is a usage error.
func TestRedisURLPasswordIsMasked(t *testing.T) {
	tests := []struct {
		name, url string
		code      int
		want      string
	}{
		{"bad escape", "redis://jobsd:s3cr%zzet@127.0.0.1:6379/0", 2, "--redis-url (REDIS_URL) is not a valid URL"},
		{"space", "redis://jobsd:s3cret word@127.0.0.1:6379/0", 2, "--redis-url (REDIS_URL) is not a valid URL"},
		{"bad database", "redis://jobsd:s3cret@127.0.0.1:6379/abc", 1, "redis://jobsd:xxxxx@127.0.0.1:6379/abc"},
		{"bad option", "redis://jobsd:s3cret@127.0.0.1:6379/0?bogus=1", 1, "redis://jobsd:xxxxx@127.0.0.1:6379/0?bogus=1"},
		{"bad scheme", "http://jobsd:s3cret@127.0.0.1:6379/0", 1, "http://jobsd:xxxxx@127.0.0.1:6379/0"},
	}
	for _, tt := range tests {
		for _, how := range []string{"env", "flag"} {
			t.Run(tt.name+" "+how, func(t *testing.T) {
				args := []string{"serve", "--addr", "127.0.0.1:0"}
				env := append(os.Environ(), "DATABASE_URL=postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
				if how == "env" {
					env = append(env, "REDIS_URL="+tt.url)
				} else {
					args = append(args, "--redis-url", tt.url)
				}
				cmd := exec.Command(binary, args...)
				cmd.Env = env
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stderr, &stderr
				err := cmd.Run()
				var exit *exec.ExitError
				require.True(t, errors.As(err, &exit), "serve must fail: %v", err)
				assert.Equal(t, tt.code, exit.ExitCode(), stderr.String())
				assert.Contains(t, stderr.String(), tt.want)
				assert.NotContains(t, stderr.String(), "s3cr")
			})
		}
	}
}

// TestProfilerHidesCommandLine: the profiler's listener serves the
// profiles but not /debug/pprof/cmdline (the command line can hold
// secrets); the main listener serves no profiler at all.
func TestProfilerHidesCommandLine(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	s := startServiceWith(t, dsn, []string{"--debug-addr", "127.0.0.1:0", "--playground-key", "jobsd_s3cret"})
	addr := loggedAddr(s, "profiler listening")
	require.NotEmpty(t, addr, "the profiler's address is logged: %s", s.logs)
	debug := "http://" + addr
	tests := []struct {
		url    string
		status int
	}{
		{debug + "/debug/pprof/cmdline", http.StatusNotFound},
		{debug + "/debug/pprof/cmdline?debug=1", http.StatusNotFound},
		{debug + "/debug/pprof/", http.StatusOK},
		{debug + "/debug/pprof/goroutine?debug=1", http.StatusOK},
		{debug + "/debug/pprof/symbol", http.StatusOK},
		{s.base + "/debug/pprof/cmdline", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			status, body := fetch(t, http.MethodGet, tt.url)
			assert.Equal(t, tt.status, status)
			assert.NotContains(t, body, "s3cret", "the command line is not served")
		})
	}
}

// TestPlaygroundKeyNeedsLoopback: serve refuses --playground-key (or
// JOBSD_PLAYGROUND_KEY) with a usage error naming the flag unless it
// listens on loopback only; on loopback, or without a key, it goes on to
// the database (here one that cannot answer).
func TestPlaygroundKeyNeedsLoopback(t *testing.T) {
	const key = "jobsd_s3cretplaygroundkey"
	tests := []struct {
		name string
		args []string
		env  []string
		code int
		want string
	}{
		{"all IPv4", []string{"--addr", "0.0.0.0:0", "--playground-key", key}, nil, 2, "--playground-key (JOBSD_PLAYGROUND_KEY)"},
		{"no host", []string{"--addr", ":0", "--playground-key", key}, nil, 2, "--playground-key"},
		{"all IPv6", []string{"--addr", "[::]:0", "--playground-key", key}, nil, 2, "--playground-key"},
		{"public IP", []string{"--addr", "192.0.2.1:0", "--playground-key", key}, nil, 2, "--playground-key"},
		{"name", []string{"--addr", "jobsd.example:0", "--playground-key", key}, nil, 2, "--playground-key"},
		{"environment", nil, []string{"JOBSD_ADDR=0.0.0.0:0", "JOBSD_PLAYGROUND_KEY=" + key}, 2, "--playground-key"},
		{"127.0.0.1", []string{"--addr", "127.0.0.1:0", "--playground-key", key}, nil, 1, "database"},
		{"127.0.0.2", []string{"--addr", "127.0.0.2:0", "--playground-key", key}, nil, 1, "database"},
		{"localhost", []string{"--addr", "localhost:0", "--playground-key", key}, nil, 1, "database"},
		{"::1", []string{"--addr", "[::1]:0", "--playground-key", key}, nil, 1, "database"},
		{"loopback env", nil, []string{"JOBSD_ADDR=127.0.0.1:0", "JOBSD_PLAYGROUND_KEY=" + key}, 1, "database"},
		{"no key", []string{"--addr", "0.0.0.0:0"}, nil, 1, "database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binary, append([]string{"serve"}, tt.args...)...)
			cmd.Env = append(append(os.Environ(), "DATABASE_URL=postgres://nobody@127.0.0.1:1/none?connect_timeout=1"), tt.env...)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stderr, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "serve must fail: %v", err)
			assert.Equal(t, tt.code, exit.ExitCode(), stderr.String())
			assert.Contains(t, stderr.String(), tt.want)
			assert.NotContains(t, stderr.String(), key, "the key is never printed")
		})
	}
}
