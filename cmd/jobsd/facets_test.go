package main_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/store"
)

func TestFacets(t *testing.T) {
	s := startService(t)
	status, body, _ := s.get(t, "/api/v1/jobs?work_arrangement=remote&facets=work_arrangement,employment_type,skills,company,country,salary&facet_limit=3")
	require.Equal(t, http.StatusOK, status, "%v", body)
	facets := body["meta"].(map[string]any)["facets"].(map[string]any)
	vc := func(pairs ...any) []any {
		out := []any{}
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, map[string]any{"value": pairs[i], "count": float64(pairs[i+1].(int))})
		}
		return out
	}
	assert.Equal(t, vc("onsite", 5, "remote", 4, "hybrid", 3), facets["work_arrangement"], "its own filter left out")
	assert.Equal(t, vc("full-time", 3, "contract", 1), facets["employment_type"])
	assert.Equal(t, vc("Python", 2, "Django", 1, "Go", 1), facets["skills"])
	assert.Equal(t, vc("Globex", 2, "Acme Cloud", 1, "Hooli", 1), facets["company"])
	assert.Equal(t, vc("United States", 3, "United Kingdom", 1), facets["country"])
	buckets := facets["salary"].([]any)
	require.Len(t, buckets, 13)
	assert.Equal(t, map[string]any{"min": float64(125000), "max": float64(150000), "count": float64(2)}, buckets[5], "test-4 and test-12")
	assert.Equal(t, map[string]any{"min": float64(200000), "max": float64(225000), "count": float64(1)}, buckets[8], "test-9")
	assert.Equal(t, map[string]any{"min": float64(300000), "max": nil, "count": float64(0)}, buckets[12])

	// Exact: every skill count equals SQL's count for the same filter.
	ctx := context.Background()
	db, err := store.Open(ctx, s.dsn, store.Options{MaxOpenConns: 1})
	require.NoError(t, err)
	defer db.Close()
	_, body, _ = s.get(t, "/api/v1/jobs?work_arrangement=remote&facets=skills&facet_limit=100")
	for _, v := range body["meta"].(map[string]any)["facets"].(map[string]any)["skills"].([]any) {
		value := v.(map[string]any)["value"].(string)
		var n int
		require.NoError(t, db.NewRaw("SELECT count(*) FROM jobs WHERE work_arrangement = 'remote' AND ? = ANY(skills)", value).Scan(ctx, &n))
		assert.Equal(t, float64(n), v.(map[string]any)["count"], value)
	}

	// GraphQL counts the same.
	_, gql := s.graphql(t, `{ jobs(filter: {workArrangement: [REMOTE]}) { facets(fields: [WORK_ARRANGEMENT, SKILLS, SALARY], limit: 3) {
		field values { value count } buckets { min max count } } } }`, nil)
	require.Nil(t, gql["errors"])
	list := gql["data"].(map[string]any)["jobs"].(map[string]any)["facets"].([]any)
	require.Len(t, list, 3)
	assert.Equal(t, "WORK_ARRANGEMENT", list[0].(map[string]any)["field"])
	assert.Equal(t, facets["work_arrangement"], list[0].(map[string]any)["values"])
	assert.Equal(t, facets["skills"], list[1].(map[string]any)["values"])
	assert.Equal(t, buckets, list[2].(map[string]any)["buckets"])

	for _, q := range []string{"facets=colour", "facets=skills&facet_limit=0", "facet_limit=x"} {
		status, body, _ := s.get(t, "/api/v1/jobs?"+q)
		assert.Equal(t, http.StatusBadRequest, status, q)
		assert.True(t, strings.HasPrefix(body["error"].(map[string]any)["param"].(string), "facet"), q)
	}
}
