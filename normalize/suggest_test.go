package normalize

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/places"
)

// TestLocationTermsAreValuesOfTheirOwn: every suggested location is read
// by the location filter as itself, so that no two suggestions count the
// same jobs under two names; a borough, which the filter reads as its
// city, is one of that city's spellings (with and without the reference
// data).
func TestLocationTermsAreValuesOfTheirOwn(t *testing.T) {
	setups := map[string]*Normalizer{"curated": newLocNormalizer(t)}
	if dir := refdatatest.Find(refdatatest.Cities); dir != "" {
		n, err := New(WithRefData(dir))
		require.NoError(t, err)
		setups["refdata"] = n
	}
	for name, n := range setups {
		t.Run(name, func(t *testing.T) {
			terms := n.LocationTerms()
			require.NotEmpty(t, terms)
			for _, term := range terms {
				read := n.ParseLocation(term.Filter)
				require.Len(t, read.Places, 1, "%q", term.Filter)
				assert.Equal(t, term.Filter, places.PlaceText(n.geo.Complete(read.Places[0])), "read as another place")
			}
			i := slices.IndexFunc(terms, func(t SuggestTerm) bool { return t.Value == "New York, New York, United States" })
			require.GreaterOrEqual(t, i, 0)
			assert.True(t, slices.ContainsFunc(terms[i].Spellings, func(s string) bool { return strings.HasPrefix(fold.Fold(s), "brooklyn") }),
				"a borough finds its city: %q", terms[i].Spellings)
			assert.False(t, slices.ContainsFunc(terms, func(t SuggestTerm) bool { return t.Value == "Brooklyn, New York, United States" }))
		})
	}
}
