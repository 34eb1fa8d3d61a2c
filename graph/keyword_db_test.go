package graph_test

import (
	"strings"
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestKeywordSearch: a keyword search ranks by relevance, and its pages
// chain by cursor, as REST's do (rest.TestKeywordSearch).
func TestKeywordSearch(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, strings.Join([]string{
		`{"id":"kw-1","title":"Streaming Analyst","company":"Kw","posted_at":"2026-11-03T00:00:00Z","summary":"You will run our Kafka clusters."}`,
		`{"id":"kw-2","title":"Kafka Platform Engineer","company":"Kw","posted_at":"2026-10-01T00:00:00Z"}`,
		`{"id":"kw-3","title":"Data Engineer","company":"Kw","posted_at":"2026-11-01T00:00:00Z","skills":["Kafka"]}`,
		`{"id":"kw-5","title":"Data Engineer","company":"Kw","posted_at":"2026-11-02T00:00:00Z","skills":["Kafka"]}`,
		`{"id":"kw-4","title":"Data Engineer","company":"Kw","posted_at":"2026-11-02T00:00:00Z","skills":["Kafka"]}`,
		`{"id":"kw-6","title":"Platform Operator","company":"Kw","posted_at":"2026-11-04T00:00:00Z","description":"You will operate Kafka and ZooKeeper clusters."}`,
	}, "\n"))
	c := gql(env)
	byRelevance := []string{"kw-2", "kw-4", "kw-5", "kw-3", "kw-1", "kw-6"}

	type page struct {
		Jobs struct {
			Nodes    []node `json:"nodes"`
			PageInfo struct {
				HasMore   bool    `json:"hasMore"`
				EndCursor *string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"jobs"`
	}
	const query = `query($after: String) { jobs(filter: {q: "kafka"}, limit: 3, after: $after) { nodes { id } pageInfo { hasMore endCursor } } }`
	var first page
	require.NoError(t, c.Post(query, &first))
	require.True(t, first.Jobs.PageInfo.HasMore)
	var second page
	require.NoError(t, c.Post(query, &second, gqlclient.Var("after", first.Jobs.PageInfo.EndCursor)))
	assert.Equal(t, byRelevance, append(nodeIDs(first.Jobs.Nodes), nodeIDs(second.Jobs.Nodes)...), "the same order as REST's")
	assert.False(t, second.Jobs.PageInfo.HasMore)
}
