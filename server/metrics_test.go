package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph/graphtest"
	"github.com/jobsd-dev/jobsd/graph/model"
)

// TestGraphQLErrorsAreCounted checks jobsd_graphql_errors_total: every
// error of a GraphQL answer is counted by its code, whatever the answer's
// status, and answers without errors count nothing.
func TestGraphQLErrorsAreCounted(t *testing.T) {
	srv, key := newTestServer(t, &graphtest.Store{
		JobByIDFunc: func(_ context.Context, id string) (*model.Job, error) {
			if id == "down-1" {
				return nil, model.Errorf(model.CodeUnavailable, "the database is unavailable")
			}
			return &model.Job{ID: id, Title: "Engineer", Company: "Acme"}, nil
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
