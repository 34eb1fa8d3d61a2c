package main_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeywordSearch: q ranks by relevance by default (title above company,
// skills and summary), ties newest first then by id; sort overrides it; the
// pages of a relevance list chain by cursor in REST and GraphQL alike.
func TestKeywordSearch(t *testing.T) {
	s := startService(t)
	_, errOut, err := runJobsd(s.dsn, strings.NewReader(strings.Join([]string{
		`{"id":"kw-1","title":"Streaming Analyst","company":"Kw","posted_at":"2026-11-03T00:00:00Z","summary":"You will run our Kafka clusters."}`,
		`{"id":"kw-2","title":"Kafka Platform Engineer","company":"Kw","posted_at":"2026-10-01T00:00:00Z"}`,
		`{"id":"kw-3","title":"Data Engineer","company":"Kw","posted_at":"2026-11-01T00:00:00Z","skills":["Kafka"]}`,
		`{"id":"kw-5","title":"Data Engineer","company":"Kw","posted_at":"2026-11-02T00:00:00Z","skills":["Kafka"]}`,
		`{"id":"kw-4","title":"Data Engineer","company":"Kw","posted_at":"2026-11-02T00:00:00Z","skills":["Kafka"]}`,
		`{"id":"kw-6","title":"Platform Operator","company":"Kw","posted_at":"2026-11-04T00:00:00Z","description":"You will operate Kafka and ZooKeeper clusters."}`,
	}, "\n")), "import", "-")
	require.NoError(t, err, errOut)

	// serve indexes descriptions in the background, soon after an import.
	var status int
	var body map[string]any
	require.Eventually(t, func() bool {
		status, body, _ = s.get(t, "/api/v1/jobs?q=zookeeper")
		return status == http.StatusOK && len(ids(body["data"])) == 1
	}, 20*time.Second, 200*time.Millisecond, "the description is indexed")
	assert.Equal(t, []string{"kw-6"}, ids(body["data"]), "found by its description alone")

	byRelevance := []string{"kw-2", "kw-4", "kw-5", "kw-3", "kw-1", "kw-6"}
	status, body, _ = s.get(t, "/api/v1/jobs?q=kafka")
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, byRelevance, ids(body["data"]), "relevance is the default with q; a description ranks below the rest")
	status, body, _ = s.get(t, "/api/v1/jobs?q=kafka&sort=newest")
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, []string{"kw-6", "kw-1", "kw-4", "kw-5", "kw-3", "kw-2"}, ids(body["data"]), "sort overrides it")
	status, body, _ = s.get(t, "/api/v1/jobs?q="+url.QueryEscape(`kafka -zookeeper`))
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.NotContains(t, ids(body["data"]), "kw-6", "an excluded word of the description excludes the job")
	status, body, _ = s.get(t, "/api/v1/jobs?q="+url.QueryEscape(`"operate kafka"`))
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, []string{"kw-6"}, ids(body["data"]), "a phrase of the description")
	status, body, _ = s.get(t, "/api/v1/jobs?q="+url.QueryEscape(`"kafka operate"`))
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Empty(t, ids(body["data"]), "its words in another order are no phrase of it")
	status, body, _ = s.get(t, "/api/v1/jobs?q="+url.QueryEscape(`platform zookeeper`))
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, []string{"kw-6"}, ids(body["data"]), "words of the title and of the description together")

	// Walk the relevance order two at a time by cursor.
	var walked []string
	path := "/api/v1/jobs?q=kafka&limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5, "the walk ends")
		status, body, _ = s.get(t, path)
		require.Equal(t, http.StatusOK, status, "%v", body)
		walked = append(walked, ids(body["data"])...)
		meta := body["meta"].(map[string]any)
		assert.Equal(t, float64(6), meta["total"])
		if meta["has_more"] != true {
			break
		}
		path = "/api/v1/jobs?q=kafka&limit=2&cursor=" + url.QueryEscape(meta["next_cursor"].(string))
	}
	assert.Equal(t, byRelevance, walked, "the cursor walk is the same order")

	// GraphQL: the same order and the same chaining.
	const query = `query($after: String) { jobs(filter: {q: "kafka"}, limit: 3, after: $after) { nodes { id } pageInfo { hasMore endCursor } } }`
	_, gql := s.graphql(t, query, nil)
	require.Nil(t, gql["errors"], "%v", gql)
	page := gql["data"].(map[string]any)["jobs"].(map[string]any)
	got := ids(page["nodes"])
	info := page["pageInfo"].(map[string]any)
	require.Equal(t, true, info["hasMore"])
	_, gql = s.graphql(t, query, map[string]any{"after": info["endCursor"]})
	require.Nil(t, gql["errors"], "%v", gql)
	page = gql["data"].(map[string]any)["jobs"].(map[string]any)
	got = append(got, ids(page["nodes"])...)
	assert.Equal(t, byRelevance, got, "GraphQL agrees")
	assert.Equal(t, false, page["pageInfo"].(map[string]any)["hasMore"])

	// A relevance cursor is not a cursor of another order, and relevance needs q.
	status, body, _ = s.get(t, "/api/v1/jobs?q=kafka&limit=2")
	require.Equal(t, http.StatusOK, status)
	cursor := body["meta"].(map[string]any)["next_cursor"].(string)
	for _, p := range []string{
		"/api/v1/jobs?q=kafka&sort=newest&cursor=" + url.QueryEscape(cursor),
		"/api/v1/jobs?sort=relevance",
	} {
		status, body, _ = s.get(t, p)
		assert.Equal(t, http.StatusBadRequest, status, p)
		assert.Equal(t, "invalid_parameter", body["error"].(map[string]any)["code"], p)
	}
}
