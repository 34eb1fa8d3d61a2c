package terms

import (
	"testing"

	"github.com/jobsd-dev/jobsd/internal/wire"
	"github.com/stretchr/testify/require"
)

// TestCodecLayout fails when a type EncodeVocabs writes gains, loses or
// changes a field: codec.go must then write it, normalize's cacheFormat
// (normalize/refdata_cache.go) be raised, and this signature updated.
func TestCodecLayout(t *testing.T) {
	types := []any{Vocab{}, Term{}, typoIndex{}}
	got := wire.Layout(types...)
	const want = "089489e4790d9912"
	require.Equal(t, want, got, "a type the vocabularies' codec writes changed: update codec.go, raise normalize's cacheFormat, then this signature")
}
