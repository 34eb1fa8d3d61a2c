package graph_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/seed"
)

// TestSuggestQuery: suggest answers as GET /suggest does, its filter
// members typed as JobFilter's (skills a list), and its errors name the
// argument.
func TestSuggestQuery(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, seed.Write(&buf, seed.Options{N: 200, Seed: 3}))
	env := apitest.NewWithOptions(t, buf.String(), apitest.Options{})

	var resp struct {
		Data struct {
			Suggest []struct {
				Value  string
				Count  int
				Filter map[string]any
			}
		}
		Errors []gqlError
	}
	require.NoError(t, gqlPost(env, `{ suggest(field: SKILLS, prefix: "py", filter: {workArrangement: [REMOTE]}, limit: 3) {
  value count filter { skills company categoryRole categorySpecialization location } } }`, &resp))
	require.Empty(t, resp.Errors)
	rec := apitest.Get(t, env.REST(), "/api/v1/suggest?field=skills&prefix=py&work_arrangement=remote&limit=3")
	require.Equal(t, http.StatusOK, rec.Code)
	var rest struct {
		Data []struct {
			Value  string
			Count  int
			Filter map[string]string
		}
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &rest))
	require.NotEmpty(t, rest.Data)
	require.Len(t, resp.Data.Suggest, len(rest.Data))
	for i, s := range resp.Data.Suggest {
		assert.Equal(t, rest.Data[i].Value, s.Value)
		assert.Equal(t, rest.Data[i].Count, s.Count)
		assert.Equal(t, []any{rest.Data[i].Filter["skills"]}, s.Filter["skills"])
		assert.Nil(t, s.Filter["company"])
	}

	var bad struct{ Errors []gqlError }
	require.NoError(t, gqlPost(env, `{ suggest(field: TITLE, prefix: "a", limit: 0) { value } }`, &bad))
	require.Len(t, bad.Errors, 1)
	assert.Equal(t, "invalid_parameter", bad.Errors[0].Extensions.Code)
	assert.Equal(t, "limit", bad.Errors[0].Extensions.Param)
}
