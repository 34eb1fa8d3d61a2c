package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestCursorErrorsInEachTransportsTerms: a cursor that is none, or one of
// another order, is refused in REST's terms (cursor, meta.next_cursor) and
// in GraphQL's (after, pageInfo.endCursor), saying which.
func TestCursorErrorsInEachTransportsTerms(t *testing.T) {
	env := apitest.New(t)
	h := env.REST()
	e := fail(t, h, "/api/v1/jobs?cursor=abc", http.StatusBadRequest)
	assert.Equal(t, "cursor", e.Error.Param)
	assert.Equal(t, "cursor is not a cursor of a job list; pass the meta.next_cursor of the previous page unchanged", e.Error.Message)
	next := jobs(t, h, "limit=1&sort=oldest").Meta.NextCursor
	require.NotNil(t, next)
	e = fail(t, h, "/api/v1/jobs?cursor="+*next, http.StatusBadRequest)
	assert.Equal(t, "cursor is of the oldest order, not newest; ask with sort oldest, or without the cursor (the meta.next_cursor of the previous page)", e.Error.Message)

	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ jobs(after: \"abc\") { totalCount } }"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	env.GraphQL(graph.HandlerOptions{}).ServeHTTP(rec, req)
	var body struct {
		Errors []struct {
			Message    string
			Extensions struct{ Param string }
		}
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	require.Len(t, body.Errors, 1)
	assert.Equal(t, "after", body.Errors[0].Extensions.Param)
	assert.Equal(t, "after is not a cursor of a job list; pass the pageInfo.endCursor, or an edge's cursor, of the previous page unchanged", body.Errors[0].Message)
}
