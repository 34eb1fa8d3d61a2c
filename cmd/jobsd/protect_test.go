package main_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The server's middleware and the GraphQL endpoint's limits are tested in
// process in server (TestHTTPNiceties, TestGraphQLLimits); here, what
// takes the process's environment.

func TestIntrospectionCanBeTurnedOff(t *testing.T) {
	s := startService(t, "JOBSD_INTROSPECTION=false")
	_, body := s.graphql(t, `{ __schema { queryType { name } } }`, nil)
	require.NotNil(t, body["errors"])
	_, body = s.graphql(t, `{ jobs { pageInfo { total } } }`, nil)
	assert.Nil(t, body["errors"])
}
