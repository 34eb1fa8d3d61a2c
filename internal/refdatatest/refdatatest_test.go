package refdatatest

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDir: $JOBSD_REFDATA when set, else ../shared/data beside the
// module's root, which is two directories above this package's.
func TestDir(t *testing.T) {
	t.Setenv("JOBSD_REFDATA", "/somewhere/data")
	assert.Equal(t, "/somewhere/data", Dir())
	assert.Empty(t, Find(Cities), "nothing is there")

	t.Setenv("JOBSD_REFDATA", "")
	want, err := filepath.Abs("../../../shared/data")
	assert.NoError(t, err)
	assert.Equal(t, want, Dir())
}
