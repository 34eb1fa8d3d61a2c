package rest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// SimilarPostings are backend engineers to rank against test-1 (Go,
// Kubernetes, PostgreSQL, Docker; San Francisco).
var similarPostings = strings.Join([]string{
	`{"id":"test-60","title":"Backend Engineer","company":"Sixty","posted_at":"2026-09-01T00:00:00Z","location":{"full":"Denver, CO"},"skills":["Kubernetes","PostgreSQL"]}`,
	`{"id":"test-61","title":"Back-End Developer","company":"Sixty","posted_at":"2026-11-01T00:00:00Z","location":{"full":"San Francisco, CA"},"skills":["Rust"]}`,
	`{"id":"test-62","title":"Backend Engineer","company":"Sixty","posted_at":"2026-11-02T00:00:00Z","location":{"full":"Paris, France"},"skills":["Rust"]}`,
}, "\n")

func TestSimilarJobs(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, similarPostings)
	h := env.REST()

	for _, tc := range []struct {
		id, query string
		want      []string
		total     int
	}{
		// Two shared skills, one, then same city, then newest.
		{"test-1", "", []string{"test-60", "test-9", "test-61", "test-62"}, 4},
		{"test-1", "?limit=2", []string{"test-60", "test-9"}, 4},
		// Same role, no specialization: every software engineer, newest first on ties.
		{"test-4", "?limit=3", []string{"test-62", "test-61", "test-1"}, 8},
		{"test-5", "", []string{}, 0},
		{"test-8", "", []string{}, 0},
	} {
		body := getJSON[list[domain.JobCard]](t, h, "/api/v1/jobs/"+tc.id+"/similar"+tc.query, 200)
		assert.Equal(t, tc.want, ids(body.Data), tc.id+tc.query)
		assert.Equal(t, tc.total, body.Meta.Total, tc.id)
		assert.Equal(t, len(tc.want) < tc.total, body.Meta.HasMore, tc.id)
	}
	for path, want := range map[string]int{
		"/api/v1/jobs/test-999/similar": 404, "/api/v1/jobs/Bad%20Id/similar": 400,
		"/api/v1/jobs/test-1/similar?limit=0": 400, "/api/v1/jobs/test-1/similar?offset=1": 400,
	} {
		fail(t, h, path, want)
	}
}
