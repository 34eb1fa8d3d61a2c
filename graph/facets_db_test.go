package graph_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestFacets: a search's facets count as REST's meta.facets does
// (rest.TestFacets asserts the same counts).
func TestFacets(t *testing.T) {
	c := gql(apitest.New(t))
	var resp struct {
		Jobs struct {
			Facets []struct {
				Field   string                `json:"field"`
				Values  []domain.FacetValue   `json:"values"`
				Buckets []domain.SalaryBucket `json:"buckets"`
			} `json:"facets"`
		} `json:"jobs"`
	}
	require.NoError(t, c.Post(`{ jobs(filter: {workArrangement: [REMOTE]}) { facets(fields: [WORK_ARRANGEMENT, SKILLS, SALARY], limit: 3) {
		field values { value count } buckets { min max count } } } }`, &resp))
	list := resp.Jobs.Facets
	require.Len(t, list, 3)
	vc := func(pairs ...any) []domain.FacetValue {
		out := []domain.FacetValue{}
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, domain.FacetValue{Value: pairs[i].(string), Count: pairs[i+1].(int)})
		}
		return out
	}
	assert.Equal(t, "WORK_ARRANGEMENT", list[0].Field)
	assert.Equal(t, vc("ONSITE", 5, "REMOTE", 4, "HYBRID", 3), list[0].Values, "its own filter left out, values spelled as the enum")
	assert.Equal(t, vc("Python", 2, "Django", 1, "Go", 1), list[1].Values)
	b := list[2].Buckets
	require.Len(t, b, 13)
	assert.Equal(t, domain.SalaryBucket{Min: 125000, Max: ptr(150000.0), Count: 1}, b[5], "test-12 (test-4 is in GBP, left out without rates)")
	assert.Equal(t, domain.SalaryBucket{Min: 200000, Max: ptr(225000.0), Count: 1}, b[8], "test-9")
	assert.Equal(t, domain.SalaryBucket{Min: 300000, Max: nil, Count: 0}, b[12])
}
