package main_test

import (
	"encoding/json"
	"io"
	"net/http"
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
