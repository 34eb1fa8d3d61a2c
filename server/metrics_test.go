package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/server"
)

// TestGraphQLErrorsAreCounted checks jobsd_graphql_errors_total: every
// error of a GraphQL answer is counted by its code, whatever the answer's
// status, and answers without errors count nothing.
func TestGraphQLErrorsAreCounted(t *testing.T) {
	srv, key := newTestServer(t, &searchtest.Store{
		JobByIDFunc: func(_ context.Context, id string) (*domain.Job, error) {
			if id == "down-1" {
				return nil, domain.Errorf(domain.CodeUnavailable, "the database is unavailable")
			}
			return &domain.Job{ID: id, Title: "Engineer", Company: "Acme"}, nil
		},
	}, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	query := func(q string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql?query="+url.QueryEscape(q), nil)
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	counted := func() map[string]string {
		resp, err := http.Get(srv.URL + "/metrics")
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		out := map[string]string{}
		for line := range strings.SplitSeq(string(body), "\n") {
			if rest, ok := strings.CutPrefix(line, "jobsd_graphql_errors_total{"); ok {
				labels, value, _ := strings.Cut(rest, "} ")
				out[labels] = value
			}
		}
		return out
	}

	assert.Equal(t, http.StatusOK, query(`{ job(id: "a-1") { id title } }`))
	assert.Empty(t, counted(), "no errors, nothing counted")

	assert.Equal(t, http.StatusOK, query(`{ job(id: "not an id") { id } }`))
	assert.Equal(t, http.StatusOK, query(`{ a: job(id: "bad") { id } b: job(id: "worse") { id } }`))
	assert.Equal(t, http.StatusServiceUnavailable, query(`{ job(id: "down-1") { id } }`))
	query(`{ job(id: "a-1") { nosuchfield } }`) // a validation error
	assert.Equal(t, map[string]string{
		`code="invalid_parameter"`: "4",
		`code="unavailable"`:       "1",
	}, counted())
}

// metricsBody fetches /metrics from base.
func metricsBody(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(body)
}

// TestMetricsMethodsAreBounded: the method label is the request's method
// when it is a standard one, else "other": a made-up method adds no
// series of its own.
func TestMetricsMethodsAreBounded(t *testing.T) {
	srv, key := newTestServer(t, &searchtest.Store{}, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	tests := []struct {
		method, label string
	}{
		{http.MethodGet, "GET"},
		{http.MethodPost, "POST"},
		{http.MethodDelete, "DELETE"},
		{"FOOBAR", "other"},
		{"get", "other"},
		{"X" + strings.Repeat("Y", 200), "other"},
	}
	for _, tt := range tests {
		t.Run(tt.method[:min(len(tt.method), 10)], func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+"/api/v1/jobs", nil)
			require.NoError(t, err)
			req.Header.Set("x-api-key", key)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()

			body := metricsBody(t, srv.URL)
			assert.Contains(t, body, `method="`+tt.label+`"`)
			if tt.label == "other" {
				assert.NotContains(t, body, `method="`+tt.method+`"`, "a made-up method is not a label value")
			}
		})
	}
}

// TestHideMetrics: the handler HideMetrics wraps answers /metrics with the
// API's 404 and every other path as before; unwrapped, /metrics serves
// the metrics.
func TestHideMetrics(t *testing.T) {
	h, _ := newHandler(t, &searchtest.Store{}, slog.New(slog.NewJSONHandler(io.Discard, nil)), 0)
	tests := []struct {
		name    string
		handler http.Handler
		path    string
		status  int
	}{
		{"plain metrics", h, "/metrics", http.StatusOK},
		{"hidden metrics", server.HideMetrics(h), "/metrics", http.StatusNotFound},
		{"hidden healthz", server.HideMetrics(h), "/healthz", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			resp, err := http.Get(srv.URL + tt.path)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, tt.status, resp.StatusCode, "%s", body)
			if tt.status == http.StatusNotFound {
				assert.NotContains(t, string(body), "jobsd_http_requests_total")
				assert.Contains(t, string(body), `"not_found"`)
			}
		})
	}
}
