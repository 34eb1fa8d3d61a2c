package graph_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/playground"
)

// TestPlaygroundExampleRuns: the document the playground opens with, and
// the one-line examples it suggests, run against the schema without errors
// (a newcomer's first query uses today's shapes).
func TestPlaygroundExampleRuns(t *testing.T) {
	c := gql(apitest.New(t))
	var resp map[string]any
	require.NoError(t, c.Post(playground.ExampleQuery, &resp))
	jobs := resp["jobs"].(map[string]any)
	assert.Contains(t, jobs, "edges")
	assert.Contains(t, jobs, "pageInfo")

	// The suggestions are comments "#   field(…) { … }": each is run as a
	// query of its own (the subscription is checked by its own tests).
	for _, m := range regexp.MustCompile(`(?m)^#   (.+)$`).FindAllStringSubmatch(playground.ExampleQuery, -1) {
		line := m[1]
		if regexp.MustCompile(`^subscription|…`).MatchString(line) {
			continue
		}
		var out map[string]any
		assert.NoError(t, c.Post("{ "+line+" }", &out), line)
	}
}
