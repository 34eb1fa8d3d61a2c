package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRestFacetValues: GraphQL's enum-spelled facet values compare with
// REST's and the database's spellings; other fields and values outside the
// enum are kept.
func TestRestFacetValues(t *testing.T) {
	in := []facetValue{{"HYBRID", 3}, {"FULL_TIME", 2}, {"gig", 1}, {"Per Diem", 1}}
	assert.Equal(t, []facetValue{{"hybrid", 3}, {"full-time", 2}, {"gig", 1}, {"Per Diem", 1}}, restFacetValues("employment_type", in))
	assert.Equal(t, []facetValue{{"hybrid", 3}, {"full-time", 2}, {"gig", 1}, {"Per Diem", 1}}, restFacetValues("work_arrangement", in))
	assert.Equal(t, in, restFacetValues("skills", in), "not an enum-typed field")
	assert.Equal(t, "HYBRID", in[0].Value, "the answer's values are not changed in place")
}
