package graph_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestInterpretFilter: interpretFilter reads a filter as GET
// /api/v1/normalize does (rest.TestInterpretFilter). Its value is a JSON
// scalar whose shape is the filter's: a map here.
func TestInterpretFilter(t *testing.T) {
	c := gql(apitest.New(t))
	var resp struct {
		InterpretFilter map[string]any `json:"interpretFilter"`
	}
	require.NoError(t, c.Post(`{ interpretFilter(filter: {skills: ["k8s"], location: "Austin, TX"}) }`, &resp))
	assert.Equal(t, map[string]any{
		"skills":   []any{"Kubernetes"},
		"location": map[string]any{"city": []any{"Austin"}, "state": []any{"Texas"}},
	}, resp.InterpretFilter, "the same reading as REST's")
}
