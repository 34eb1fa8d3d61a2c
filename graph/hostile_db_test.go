package graph_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestHostileInput: injections and extreme values in GraphQL arguments are
// answered (HTTP 200), with errors that are never internal; nothing is
// written, and no internal error is logged.
func TestHostileInput(t *testing.T) {
	env := apitest.New(t)
	var log bytes.Buffer
	env.LogTo(&log)
	c := gql(env) // after LogTo: its handler logs to log
	before := env.Fingerprint(t)
	for _, q := range []string{
		`{ jobs(filter: {company: "'; DROP TABLE jobs; --", skills: ["\u0000"]}) { nodes { id } } }`,
		`{ jobs(filter: {salaryMin: 1e308, salaryMax: 1e308}) { nodes { id } } }`,
		`{ jobs(limit: 2147483647, offset: 2147483647) { nodes { id } } }`,
		`{ job(id: "test-1' OR '1'='1") { id } }`,
		`{ jobs(after: "\u0000") { nodes { id } } }`,
	} {
		var data map[string]any
		if err := c.Post(q, &data); err != nil { // an HTTP status other than 200 is an error without errors
			for _, e := range errorsOf(t, err) {
				assert.NotEqual(t, "internal", e.Extensions.Code, q)
			}
		}
	}
	assert.Equal(t, before, env.Fingerprint(t), "the database is unchanged")
	assert.NotContains(t, log.String(), `"level":"ERROR"`, "no internal errors were logged")
}
