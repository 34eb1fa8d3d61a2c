package main_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSimilarJobs(t *testing.T) {
	s := startService(t)
	// Backend engineers to rank against test-1 (Go, Kubernetes, PostgreSQL,
	// Docker; San Francisco).
	_, errOut, err := runJobsd(s.dsn, strings.NewReader(strings.Join([]string{
		`{"id":"test-60","title":"Backend Engineer","company":"Sixty","posted_at":"2026-09-01T00:00:00Z","location":{"full":"Denver, CO"},"skills":["Kubernetes","PostgreSQL"]}`,
		`{"id":"test-61","title":"Back-End Developer","company":"Sixty","posted_at":"2026-11-01T00:00:00Z","location":{"full":"San Francisco, CA"},"skills":["Rust"]}`,
		`{"id":"test-62","title":"Backend Engineer","company":"Sixty","posted_at":"2026-11-02T00:00:00Z","location":{"full":"Paris, France"},"skills":["Rust"]}`,
	}, "\n")), "import", "-")
	require.NoError(t, err, errOut)

	for _, tc := range []struct {
		id, query string
		want      []string
		total     float64
	}{
		// Two shared skills, one, then same city, then newest.
		{"test-1", "", []string{"test-60", "test-9", "test-61", "test-62"}, 4},
		{"test-1", "?limit=2", []string{"test-60", "test-9"}, 4},
		// Same role, no specialization: every software engineer, newest first on ties.
		{"test-4", "?limit=3", []string{"test-62", "test-61", "test-1"}, 8},
		{"test-5", "", []string{}, 0},
		{"test-8", "", []string{}, 0},
	} {
		status, body, _ := s.get(t, "/api/v1/jobs/"+tc.id+"/similar"+tc.query)
		require.Equal(t, http.StatusOK, status, "%v", body)
		assert.Equal(t, tc.want, ids(body["data"]), tc.id+tc.query)
		meta := body["meta"].(map[string]any)
		assert.Equal(t, tc.total, meta["total"], tc.id)
		assert.Equal(t, float64(len(tc.want)) < tc.total, meta["has_more"], tc.id)
	}
	for path, want := range map[string]int{
		"/api/v1/jobs/test-999/similar": 404, "/api/v1/jobs/Bad%20Id/similar": 400,
		"/api/v1/jobs/test-1/similar?limit=0": 400, "/api/v1/jobs/test-1/similar?offset=1": 400,
	} {
		status, _, _ := s.get(t, path)
		assert.Equal(t, want, status, path)
	}

	_, gql := s.graphql(t, `{ job(id: "test-1") { similar(limit: 3) { id title } } }`, nil)
	require.Nil(t, gql["errors"])
	assert.Equal(t, []string{"test-60", "test-9", "test-61"}, ids(gql["data"].(map[string]any)["job"].(map[string]any)["similar"]), "GraphQL agrees")
	_, gql = s.graphql(t, `{ company(name: "ACME cloud") { slug jobCount } }`, nil)
	assert.Equal(t, map[string]any{"company": map[string]any{"slug": "acme-cloud", "jobCount": float64(3)}}, gql["data"], "company by name")
	_, gql = s.graphql(t, `{ company(name: "x", slug: "y") { slug } }`, nil)
	assert.NotNil(t, gql["errors"], "slug or name, not both")
}
