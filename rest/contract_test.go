package rest_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContractCopyIsCurrent: docs/api-contract.md, the contract the code
// follows, is the team's current contract (../shared/api-contract.md beside
// the repository, where a checkout has it), so that a maintainer needs
// nothing outside the repository. When the contract changes, copy it and
// change the code with it.
func TestContractCopyIsCurrent(t *testing.T) {
	shared, err := os.ReadFile("../../shared/api-contract.md")
	if os.IsNotExist(err) {
		t.Skip("no ../shared/api-contract.md beside the repository to compare with")
	}
	require.NoError(t, err)
	copied, err := os.ReadFile("../docs/api-contract.md")
	require.NoError(t, err)
	assert.Equal(t, string(shared), string(copied), "docs/api-contract.md differs from the shared contract: copy it and follow the change")
}
