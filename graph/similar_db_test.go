package graph_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestSimilarJobs: a job's similar jobs rank as REST's do
// (rest.TestSimilarJobs), and a company is found by its name.
func TestSimilarJobs(t *testing.T) {
	env := apitest.New(t)
	// Backend engineers to rank against test-1 (Go, Kubernetes, PostgreSQL,
	// Docker; San Francisco).
	env.Import(t, strings.Join([]string{
		`{"id":"test-60","title":"Backend Engineer","company":"Sixty","posted_at":"2026-09-01T00:00:00Z","location":{"full":"Denver, CO"},"skills":["Kubernetes","PostgreSQL"]}`,
		`{"id":"test-61","title":"Back-End Developer","company":"Sixty","posted_at":"2026-11-01T00:00:00Z","location":{"full":"San Francisco, CA"},"skills":["Rust"]}`,
		`{"id":"test-62","title":"Backend Engineer","company":"Sixty","posted_at":"2026-11-02T00:00:00Z","location":{"full":"Paris, France"},"skills":["Rust"]}`,
	}, "\n"))
	c := gql(env)

	var similar struct {
		Job struct {
			Similar []struct {
				ID    string `json:"id"`
				Title string `json:"title"`
			} `json:"similar"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-1") { similar(limit: 3) { id title } } }`, &similar))
	var got []string
	for _, s := range similar.Job.Similar {
		got = append(got, s.ID)
	}
	assert.Equal(t, []string{"test-60", "test-9", "test-61"}, got, "as REST ranks them")

	type company struct {
		Slug     string `json:"slug"`
		JobCount int    `json:"jobCount"`
	}
	var byName struct {
		Company *company `json:"company"`
	}
	require.NoError(t, c.Post(`{ company(name: "ACME cloud") { slug jobCount } }`, &byName))
	assert.Equal(t, &company{Slug: "acme-cloud", JobCount: 3}, byName.Company, "company by name")
	var both map[string]any
	assert.NotEmpty(t, errorsOf(t, c.Post(`{ company(name: "x", slug: "y") { slug } }`, &both)), "slug or name, not both")
}
