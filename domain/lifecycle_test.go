package domain_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
)

// TestChangeKindsInGraphQL: the change feed's and the subscriptions' kinds
// read their GraphQL names only (upper case, of the enum) and write them.
func TestChangeKindsInGraphQL(t *testing.T) {
	var c domain.ChangeKind
	var j domain.JobChangeKind
	for _, tc := range []struct {
		in   any
		into interface{ UnmarshalGQL(any) error }
		ok   bool
	}{
		{"OPENED", &c, true}, {"CLOSED", &c, true}, {"opened", &c, false}, {"ADDED", &c, false}, {1, &c, false},
		{"ADDED", &j, true}, {"REMOVED", &j, true}, {"added", &j, false}, {"OPENED", &j, false}, {nil, &j, false},
	} {
		err := tc.into.UnmarshalGQL(tc.in)
		assert.Equal(t, tc.ok, err == nil, "%v: %v", tc.in, err)
	}
	var b bytes.Buffer
	domain.JobRemoved.MarshalGQL(&b)
	domain.ChangeUpdated.MarshalGQL(&b)
	assert.Equal(t, `"REMOVED""UPDATED"`, b.String())
}
