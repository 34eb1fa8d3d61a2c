package titles

import (
	"testing"

	"github.com/jobsd-dev/jobsd/internal/wire"
	"github.com/stretchr/testify/require"
)

// TestCodecLayout fails when a type Encode writes gains, loses or changes
// a field: codec.go must then write it, normalize's cacheFormat
// (normalize/refdata_cache.go) be raised, and this signature updated.
func TestCodecLayout(t *testing.T) {
	types := []any{Taxonomy{}, lexicon{}, sense{}, Category{}, phrase{}, wordInfo{}, specPhrase{}, topic{}}
	got := wire.Layout(types...)
	const want = "1a35c350adcf7e53"
	require.Equal(t, want, got, "a type the taxonomy's codec writes changed: update codec.go, raise normalize's cacheFormat, then this signature")
}
