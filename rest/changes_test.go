package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// change is one entry of the change feed.
type change struct {
	ID     string `json:"id"`
	Change string `json:"change"`
	At     string `json:"at"`
}

// feedPage is a page of GET /changes.
type feedPage struct {
	Data []change `json:"data"`
	Meta struct {
		Limit      int    `json:"limit"`
		HasMore    bool   `json:"has_more"`
		NextCursor string `json:"next_cursor"`
	} `json:"meta"`
}

// changesPage serves GET /changes with the cursor (none when "") and the
// limit (none when 0), and requires 200.
func changesPage(t *testing.T, h http.Handler, after string, limit int) feedPage {
	t.Helper()
	q := url.Values{}
	if after != "" {
		q.Set("after", after)
	}
	if limit != 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return getJSON[feedPage](t, h, "/api/v1/changes?"+q.Encode(), http.StatusOK)
}

// readFeed reads the feed after the cursor to its end in pages of limit,
// and returns the changes and the cursor to poll with.
func readFeed(t *testing.T, h http.Handler, after string, limit int) ([]change, string) {
	t.Helper()
	var all []change
	for range 1000 {
		page := changesPage(t, h, after, limit)
		require.LessOrEqual(t, len(page.Data), limit)
		require.NotEmpty(t, page.Meta.NextCursor, "a next cursor on every page")
		all = append(all, page.Data...)
		after = page.Meta.NextCursor
		if !page.Meta.HasMore {
			return all, after
		}
		require.Len(t, page.Data, limit, "a page with more after it is full")
	}
	t.Fatal("the feed does not end")
	return nil, ""
}

// openAfter replays changes: the postings open at the end.
func openAfter(t *testing.T, changes []change) []string {
	t.Helper()
	open := map[string]bool{}
	for _, c := range changes {
		switch c.Change {
		case "opened", "updated":
			open[c.ID] = true
		case "closed":
			delete(open, c.ID)
		default:
			t.Fatalf("change %q of %s", c.Change, c.ID)
		}
	}
	out := []string{}
	for id := range open {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func TestChangeFeed(t *testing.T) {
	env := apitest.New(t)
	h := env.REST()
	at := time.Date(2026, 11, 26, 10, 0, 2, 0, time.UTC)
	env.Close(t, at, "test-3", "test-7")

	whole, end := readFeed(t, h, "", 1000)
	for _, c := range whole {
		parsed, err := time.Parse(time.RFC3339, c.At)
		require.NoError(t, err, "at %q", c.At)
		assert.Equal(t, parsed.UTC().Format(time.RFC3339), c.At, "RFC 3339 UTC, to the second")
	}
	require.GreaterOrEqual(t, len(whole), len(apitest.AllIDs)+2)
	assert.Equal(t, []change{{"test-3", "closed", "2026-11-26T10:00:02Z"}, {"test-7", "closed", "2026-11-26T10:00:02Z"}}, whole[len(whole)-2:])

	// Replaying the feed gives the open postings.
	open := ids(jobs(t, h, "limit=100").Data)
	slices.Sort(open)
	assert.Equal(t, open, openAfter(t, whole))
	assert.Len(t, open, len(apitest.AllIDs)-2)

	// Pages of any size chain without a skip or a repeat, to the same end.
	for _, limit := range []int{1, 5, 7} {
		paged, pagedEnd := readFeed(t, h, "", limit)
		assert.Equal(t, whole, paged, "pages of %d", limit)
		assert.Equal(t, end, pagedEnd, "pages of %d", limit)
	}

	// At the end: an empty page whose cursor is the one it was asked with,
	// until a change lands.
	page := changesPage(t, h, end, 0)
	assert.Equal(t, []change{}, page.Data)
	assert.False(t, page.Meta.HasMore)
	assert.Equal(t, end, page.Meta.NextCursor)
	env.Close(t, at.Add(time.Hour), "test-5")
	page = changesPage(t, h, end, 0)
	assert.Equal(t, []change{{"test-5", "closed", "2026-11-26T11:00:02Z"}}, page.Data)
	assert.NotEqual(t, end, page.Meta.NextCursor)
	assert.Empty(t, changesPage(t, h, page.Meta.NextCursor, 0).Data)

	// Page sizes.
	assert.Equal(t, 100, changesPage(t, h, "", 0).Meta.Limit, "the default")
	assert.Equal(t, 1000, changesPage(t, h, "", 5000).Meta.Limit, "clamped")
	assert.Equal(t, 1000, getJSON[feedPage](t, h, "/api/v1/changes?limit=99999999999999999999", http.StatusOK).Meta.Limit)
	one := changesPage(t, h, "", 1)
	assert.Len(t, one.Data, 1)
	assert.True(t, one.Meta.HasMore)
}

func TestChangeFeedErrors(t *testing.T) {
	env := apitest.New(t)
	h := env.REST()
	first := changesPage(t, h, "", 1)
	require.True(t, first.Meta.HasMore)
	jobCursor := jobs(t, h, "limit=1").Meta.NextCursor
	require.NotNil(t, jobCursor)
	for _, tc := range []struct {
		query, code, param string
	}{
		{"limit=0", "invalid_parameter", "limit"},
		{"limit=-1", "invalid_parameter", "limit"},
		{"limit=abc", "invalid_parameter", "limit"},
		{"limit=2.5", "invalid_parameter", "limit"},
		{"after=garbage", "invalid_parameter", "after"},
		{"after=", "invalid_parameter", "after"},
		{"after=" + url.QueryEscape(*jobCursor), "invalid_parameter", "after"},
		{"after=" + first.Meta.NextCursor + "x", "invalid_parameter", "after"},
		{"cursor=" + first.Meta.NextCursor, "unknown_parameter", "cursor"},
		{"offset=3", "unknown_parameter", "offset"},
	} {
		e := fail(t, h, "/api/v1/changes?"+tc.query, http.StatusBadRequest).Error
		assert.Equal(t, tc.code, e.Code, tc.query)
		assert.Equal(t, tc.param, e.Param, tc.query)
	}
	assert.Contains(t, fail(t, h, "/api/v1/changes?aftr=x", http.StatusBadRequest).Error.Message, `did you mean "after"`)

	// A purge moves the feed's start past a cursor: gone, and the feed
	// starts again without one.
	closed := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	env.Close(t, closed, "test-2")
	_, err := env.Store.Purge(context.Background(), closed.Add(time.Second))
	require.NoError(t, err)
	e := fail(t, h, "/api/v1/changes?after="+first.Meta.NextCursor, http.StatusGone).Error
	assert.Equal(t, "gone", e.Code)
	assert.Equal(t, "after", e.Param)
	assert.Empty(t, e.ClosedAt)
	assert.NotEmpty(t, changesPage(t, h, "", 0).Meta.NextCursor)
}

func TestClosedJobIsGone(t *testing.T) {
	env := apitest.New(t)
	h := env.REST()
	at := time.Date(2026, 11, 26, 10, 0, 2, 0, time.UTC)
	env.Close(t, at, "test-1")

	rec := apitest.Get(t, h, "/api/v1/jobs/test-1", "X-Request-ID", "req-gone")
	require.Equal(t, http.StatusGone, rec.Code, rec.Body)
	e := apitest.Decode[errorBody](t, rec.Body.Bytes()).Error
	assert.Equal(t, "gone", e.Code)
	assert.Equal(t, "2026-11-26T10:00:02Z", e.ClosedAt)
	assert.Equal(t, "req-gone", e.RequestID)
	assert.NotEmpty(t, e.Message)
	assert.Empty(t, e.Param)
	assert.NotContains(t, ids(jobs(t, h, "limit=100").Data), "test-1", "a closed posting is in no list")

	// Purged: unknown.
	_, err := env.Store.Purge(context.Background(), at.Add(time.Second))
	require.NoError(t, err)
	assert.Equal(t, "not_found", fail(t, h, "/api/v1/jobs/test-1", http.StatusNotFound).Error.Code)
}
