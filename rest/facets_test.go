package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

func TestFacets(t *testing.T) {
	env := apitest.New(t)
	h := env.REST()
	body := jobs(t, h, "work_arrangement=remote&facets=work_arrangement,employment_type,skills,company,country,salary&facet_limit=3")
	vc := func(pairs ...any) []domain.FacetValue {
		out := []domain.FacetValue{}
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, domain.FacetValue{Value: pairs[i].(string), Count: pairs[i+1].(int)})
		}
		return out
	}
	assert.Len(t, body.Meta.Facets, 6)
	assert.Equal(t, vc("onsite", 5, "remote", 4, "hybrid", 3), facetValues(t, body.Meta, "work_arrangement"), "its own filter left out")
	assert.Equal(t, vc("full-time", 3, "contract", 1), facetValues(t, body.Meta, "employment_type"))
	assert.Equal(t, vc("Python", 2, "Django", 1, "Go", 1), facetValues(t, body.Meta, "skills"))
	assert.Equal(t, vc("Globex", 2, "Acme Cloud", 1, "Hooli", 1), facetValues(t, body.Meta, "company"))
	assert.Equal(t, vc("United States", 3, "United Kingdom", 1), facetValues(t, body.Meta, "country"))
	b := buckets(t, body.Meta)
	require.Len(t, b, 13)
	assert.Equal(t, domain.SalaryBucket{Min: 125000, Max: ptr(150000.0), Count: 1}, b[5], "test-12 (test-4 is in GBP, left out without rates)")
	assert.Equal(t, domain.SalaryBucket{Min: 200000, Max: ptr(225000.0), Count: 1}, b[8], "test-9")
	assert.Equal(t, domain.SalaryBucket{Min: 300000, Max: nil, Count: 0}, b[12])

	// Exact: every skill count equals SQL's count for the same filter.
	ctx := context.Background()
	body = jobs(t, h, "work_arrangement=remote&facets=skills&facet_limit=100")
	skills := facetValues(t, body.Meta, "skills")
	require.NotEmpty(t, skills)
	for _, v := range skills {
		var n int
		require.NoError(t, env.DB.NewRaw("SELECT count(*) FROM jobs WHERE work_arrangement = 'remote' AND ? = ANY(skills)", v.Value).Scan(ctx, &n))
		assert.Equal(t, n, v.Count, v.Value)
	}

	for _, q := range []string{"facets=colour", "facets=skills&facet_limit=0", "facet_limit=x"} {
		e := fail(t, h, "/api/v1/jobs?"+q, http.StatusBadRequest)
		assert.True(t, strings.HasPrefix(e.Error.Param, "facet"), q)
	}
}
