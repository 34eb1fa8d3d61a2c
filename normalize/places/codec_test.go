package places

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/wire"
)

// TestCodecLayout fails when a type Encode writes gains, loses or changes
// a field: codec.go must then write it, normalize's cacheFormat
// (normalize/refdata_cache.go) be raised, and this signature updated.
func TestCodecLayout(t *testing.T) {
	types := []any{Gazetteer{}, City{}, state{}}
	got := wire.Layout(types...)
	const want = "5da907ba3cb48e91"
	require.Equal(t, want, got, "a type the gazetteer's codec writes changed: update codec.go, raise normalize's cacheFormat, then this signature")
}
