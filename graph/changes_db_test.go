package graph_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

type change struct {
	ID     string `json:"id"`
	Change string `json:"change"`
	At     string `json:"at"`
}

type changePage struct {
	Nodes    []change `json:"nodes"`
	PageInfo struct {
		Limit      int    `json:"limit"`
		HasMore    bool   `json:"hasMore"`
		NextCursor string `json:"nextCursor"`
	} `json:"pageInfo"`
}

const changesQuery = `query($after: String, $limit: Int) { changes(after: $after, limit: $limit) {
	nodes { id change at } pageInfo { limit hasMore nextCursor } } }`

// changes asks for a page of the feed (after and limit nil: not given).
func changes(c *gqlclient.Client, after, limit any) (changePage, error) {
	var resp struct {
		Changes changePage `json:"changes"`
	}
	err := c.Post(changesQuery, &resp, gqlclient.Var("after", after), gqlclient.Var("limit", limit))
	return resp.Changes, err
}

// readChanges reads the feed from its beginning in pages of limit, and
// returns the changes and the cursor to poll with.
func readChanges(t *testing.T, c *gqlclient.Client, limit int) ([]change, string) {
	t.Helper()
	var all []change
	var after any
	for range 1000 {
		page, err := changes(c, after, limit)
		require.NoError(t, err)
		require.LessOrEqual(t, len(page.Nodes), limit)
		require.NotEmpty(t, page.PageInfo.NextCursor)
		all = append(all, page.Nodes...)
		after = page.PageInfo.NextCursor
		if !page.PageInfo.HasMore {
			return all, page.PageInfo.NextCursor
		}
	}
	t.Fatal("the feed does not end")
	return nil, ""
}

// TestChangeFeed reads the feed as REST does (rest.TestChangeFeed): pages
// that chain by their cursors, the changes in order, the cursor of the
// last page to poll with.
func TestChangeFeed(t *testing.T) {
	env := apitest.New(t)
	c := gql(env)
	at := time.Date(2026, 11, 26, 10, 0, 2, 0, time.UTC)
	env.Close(t, at, "test-3", "test-7")

	whole, end := readChanges(t, c, 1000)
	require.GreaterOrEqual(t, len(whole), len(apitest.AllIDs)+2)
	assert.Equal(t, []change{{"test-3", "CLOSED", "2026-11-26T10:00:02Z"}, {"test-7", "CLOSED", "2026-11-26T10:00:02Z"}}, whole[len(whole)-2:])
	open := map[string]bool{}
	for _, ch := range whole {
		_, err := time.Parse(time.RFC3339, ch.At)
		require.NoError(t, err)
		switch ch.Change {
		case "OPENED", "UPDATED":
			open[ch.ID] = true
		case "CLOSED":
			delete(open, ch.ID)
		}
	}
	var want []string
	for _, id := range apitest.AllIDs {
		if id != "test-3" && id != "test-7" {
			want = append(want, id)
		}
	}
	var got []string
	for id := range open {
		got = append(got, id)
	}
	slices.Sort(want)
	slices.Sort(got)
	assert.Equal(t, want, got, "replaying the feed gives the open postings")

	for _, limit := range []int{1, 5} {
		paged, pagedEnd := readChanges(t, c, limit)
		assert.Equal(t, whole, paged, "pages of %d", limit)
		assert.Equal(t, end, pagedEnd, "pages of %d", limit)
	}

	// The cursors are REST's.
	rec := apitest.Get(t, env.REST(), "/api/v1/changes?limit=1000")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Body.String(), `"next_cursor":"`+end+`"`)

	page, err := changes(c, end, nil)
	require.NoError(t, err)
	assert.Empty(t, page.Nodes)
	assert.False(t, page.PageInfo.HasMore)
	assert.Equal(t, end, page.PageInfo.NextCursor, "the end polls with its own cursor")
	assert.Equal(t, 100, page.PageInfo.Limit)

	page, err = changes(c, nil, 5000)
	require.NoError(t, err)
	assert.Equal(t, 1000, page.PageInfo.Limit, "clamped")
}

func TestChangeFeedErrors(t *testing.T) {
	env := apitest.New(t)
	c := gql(env)
	first, err := changes(c, nil, 1)
	require.NoError(t, err)
	for _, tc := range []struct {
		after, limit any
		param        string
	}{
		{nil, 0, "limit"},
		{nil, -2, "limit"},
		{"garbage", nil, "after"},
		{first.PageInfo.NextCursor + "x", nil, "after"},
	} {
		_, err := changes(c, tc.after, tc.limit)
		errs := errorsOf(t, err)
		assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, "%v %v", tc.after, tc.limit)
		assert.Equal(t, tc.param, errs[0].Extensions.Param)
	}

	closed := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	env.Close(t, closed, "test-2")
	_, err = env.Store.Purge(context.Background(), closed.Add(time.Second))
	require.NoError(t, err)
	_, err = changes(c, first.PageInfo.NextCursor, nil)
	errs := errorsOf(t, err)
	assert.Equal(t, "gone", errs[0].Extensions.Code, errs[0].Message)
	assert.Equal(t, "after", errs[0].Extensions.Param)
	_, err = changes(c, nil, nil)
	require.NoError(t, err, "the feed starts again without after")
}

// TestClosedJob: job(id:) of a closed posting is null with the gone error
// and when it closed; the fast path answers it as gqlgen does.
func TestClosedJob(t *testing.T) {
	env := apitest.New(t)
	at := time.Date(2026, 11, 26, 10, 0, 2, 0, time.UTC)
	env.Close(t, at, "test-1")
	c := gql(env)
	for _, q := range []string{
		`{ job(id: "test-1") { id title } }`,
		`query($id: ID!) { job(id: $id) { id title company } }`,
		`{ job(id: "test-1") { id employer { name } } }`,
	} {
		var resp struct {
			Job *struct {
				ID string `json:"id"`
			} `json:"job"`
		}
		err := c.Post(q, &resp, gqlclient.Var("id", "test-1"))
		errs := errorsOf(t, err)
		assert.Nil(t, resp.Job, q)
		require.Len(t, errs, 1, q)
		assert.Equal(t, "gone", errs[0].Extensions.Code, q)
		assert.Equal(t, "2026-11-26T10:00:02Z", errs[0].Extensions.ClosedAt, q)
		assert.Equal(t, []any{"job"}, errs[0].Path, q)
	}

	var resp struct {
		Job *struct {
			ID string `json:"id"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-2") { id } }`, &resp))
	require.NotNil(t, resp.Job, "an open posting")
	_, err := env.Store.Purge(context.Background(), at.Add(time.Second))
	require.NoError(t, err)
	var purged struct {
		Job *struct {
			ID string `json:"id"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-1") { id } }`, &purged))
	assert.Nil(t, purged.Job, "purged: null without error")
}
