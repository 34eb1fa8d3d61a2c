package graph_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestInterpretFilter: interpretFilter reads a filter as GET
// /api/v1/normalize does (rest.TestInterpretFilter), as a typed
// NormalizedFilter whose members not given are null.
func TestInterpretFilter(t *testing.T) {
	c := gql(apitest.New(t))
	var resp struct {
		InterpretFilter map[string]any `json:"interpretFilter"`
	}
	require.NoError(t, c.Post(`{ interpretFilter(filter: {skills: ["k8s"], location: "Austin, TX", skillsMatch: ALL}) {
		skills skillsMatch tools location { city state country workArrangement } title { text } } }`, &resp))
	assert.Equal(t, map[string]any{
		"skills":      []any{"Kubernetes"},
		"skillsMatch": "ALL",
		"tools":       nil,
		"location":    map[string]any{"city": []any{"Austin"}, "state": []any{"Texas"}, "country": nil, "workArrangement": nil},
		"title":       nil,
	}, resp.InterpretFilter, "the same reading as REST's, typed")
}
