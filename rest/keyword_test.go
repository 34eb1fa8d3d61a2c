package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// keywordPostings mention Kafka in their titles, summaries, skills and
// descriptions.
var keywordPostings = strings.Join([]string{
	`{"id":"kw-1","title":"Streaming Analyst","company":"Kw","posted_at":"2026-11-03T00:00:00Z","summary":"You will run our Kafka clusters."}`,
	`{"id":"kw-2","title":"Kafka Platform Engineer","company":"Kw","posted_at":"2026-10-01T00:00:00Z"}`,
	`{"id":"kw-3","title":"Data Engineer","company":"Kw","posted_at":"2026-11-01T00:00:00Z","skills":["Kafka"]}`,
	`{"id":"kw-5","title":"Data Engineer","company":"Kw","posted_at":"2026-11-02T00:00:00Z","skills":["Kafka"]}`,
	`{"id":"kw-4","title":"Data Engineer","company":"Kw","posted_at":"2026-11-02T00:00:00Z","skills":["Kafka"]}`,
	`{"id":"kw-6","title":"Platform Operator","company":"Kw","posted_at":"2026-11-04T00:00:00Z","description":"You will operate Kafka and ZooKeeper clusters."}`,
}, "\n")

// TestKeywordSearch: q ranks by relevance by default (title above company,
// skills and summary), ties newest first then by id; sort overrides it; the
// pages of a relevance list chain by cursor.
func TestKeywordSearch(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, keywordPostings) // and indexes the descriptions, as serve does in the background
	h := env.REST()

	assert.Equal(t, []string{"kw-6"}, ids(jobs(t, h, "q=zookeeper").Data), "found by its description alone")

	byRelevance := []string{"kw-2", "kw-4", "kw-5", "kw-3", "kw-1", "kw-6"}
	assert.Equal(t, byRelevance, ids(jobs(t, h, "q=kafka").Data), "relevance is the default with q; a description ranks below the rest")
	assert.Equal(t, []string{"kw-6", "kw-1", "kw-4", "kw-5", "kw-3", "kw-2"}, ids(jobs(t, h, "q=kafka&sort=newest").Data), "sort overrides it")
	assert.NotContains(t, ids(jobs(t, h, "q="+url.QueryEscape(`kafka -zookeeper`)).Data), "kw-6", "an excluded word of the description excludes the job")
	assert.Equal(t, []string{"kw-6"}, ids(jobs(t, h, "q="+url.QueryEscape(`"operate kafka"`)).Data), "a phrase of the description")
	assert.Empty(t, ids(jobs(t, h, "q="+url.QueryEscape(`"kafka operate"`)).Data), "its words in another order are no phrase of it")
	assert.Equal(t, []string{"kw-6"}, ids(jobs(t, h, "q="+url.QueryEscape(`platform zookeeper`)).Data), "words of the title and of the description together")

	// Walk the relevance order two at a time by cursor.
	var walked []string
	query := "q=kafka&limit=2"
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5, "the walk ends")
		body := jobs(t, h, query)
		walked = append(walked, ids(body.Data)...)
		assert.Equal(t, 6, body.Meta.Total)
		if !body.Meta.HasMore {
			break
		}
		require.NotNil(t, body.Meta.NextCursor)
		query = "q=kafka&limit=2&cursor=" + url.QueryEscape(*body.Meta.NextCursor)
	}
	assert.Equal(t, byRelevance, walked, "the cursor walk is the same order")

	// A relevance cursor is not a cursor of another order, and relevance needs q.
	cursor := jobs(t, h, "q=kafka&limit=2").Meta.NextCursor
	require.NotNil(t, cursor)
	for _, p := range []string{
		"/api/v1/jobs?q=kafka&sort=newest&cursor=" + url.QueryEscape(*cursor),
		"/api/v1/jobs?sort=relevance",
	} {
		assert.Equal(t, "invalid_parameter", fail(t, h, p, http.StatusBadRequest).Error.Code, p)
	}
}
