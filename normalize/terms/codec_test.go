package terms

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCodecLayout fails when a type EncodeVocabs writes gains, loses or
// changes a field: codec.go must then write it, normalize's cacheFormat
// (normalize/refdata_cache.go) be raised, and this signature updated.
func TestCodecLayout(t *testing.T) {
	types := []any{Vocab{}, Term{}, typoIndex{}}
	h := sha256.New()
	for _, v := range types {
		rt := reflect.TypeOf(v)
		fmt.Fprintf(h, "%s{", rt.Name())
		for i := range rt.NumField() {
			fmt.Fprintf(h, "%s %s;", rt.Field(i).Name, rt.Field(i).Type)
		}
		fmt.Fprint(h, "}\n")
	}
	got := hex.EncodeToString(h.Sum(nil))[:16]
	const want = "089489e4790d9912"
	require.Equal(t, want, got, "a type the vocabularies' codec writes changed: update codec.go, raise normalize's cacheFormat, then this signature")
}
