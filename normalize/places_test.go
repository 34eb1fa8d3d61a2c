package normalize

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

var (
	geoRefOnce sync.Once
	geoRefN    *Normalizer
	geoRefErr  error
)

// geoRefNormalizer returns a Normalizer with the reference data of
// JOBSD_REFDATA (or beside the repository), loaded once; the test is
// skipped without it.
func geoRefNormalizer(t *testing.T) *Normalizer {
	t.Helper()
	dir := refdatatest.Need(t, refdatatest.Cities)
	geoRefOnce.Do(func() { geoRefN, geoRefErr = New(WithRefData(dir)) })
	require.NoError(t, geoRefErr)
	return geoRefN
}

// TestAdmin1Aliases checks that GeoNames' names of the ISO subdivisions
// name them within their country.
func TestAdmin1Aliases(t *testing.T) {
	n := geoRefNormalizer(t)
	for _, tt := range []struct{ give, want string }{
		{"Lyon, Rhône-Alpes, France", "Lyon|Auvergne-Rhône-Alpes|France"},
		{"Villeurbanne, Rhone-Alpes, France", "Villeurbanne|Auvergne-Rhône-Alpes|France"},
		{"Villeurbanne, France", "Villeurbanne|Auvergne-Rhône-Alpes|France"},
		{"Berlin, State of Berlin, Germany", "Berlin|Berlin|Germany"},
		{"Pescara, Abruzzo, Italy", "Pescara|Abruzzo|Italy"},
		{"Ancona, The Marches, Italy", "Ancona|Marche|Italy"},
		{"Getafe, Madrid, Spain", "Getafe|Community of Madrid|Spain"},
		{"Bogota, Bogota D.C., Colombia", "Bogotá|Bogotá|Colombia"},
	} {
		t.Run(tt.give, func(t *testing.T) {
			var got []Place
			for _, p := range n.ParseLocation(tt.give).Places {
				got = append(got, n.Complete(p))
			}
			assert.Equal(t, placesOf(tt.want), got)
		})
	}
	assert.Equal(t, "Berlin", n.State("State of Berlin"))
	assert.Equal(t, "Autonomous City of Buenos Aires", n.State("Buenos Aires F.D."))
}

// TestBareCityByPopulation checks that with reference data a bare city
// name reads as the most populous city of that name, and that context
// still decides.
func TestBareCityByPopulation(t *testing.T) {
	n := geoRefNormalizer(t)
	for _, tt := range []struct{ give, want string }{
		{"Cambridge", "Cambridge|England|" + wantUK},
		{"Cambridge, MA", "Cambridge|Massachusetts|" + wantUS},
		{"Cambridge, Massachusetts", "Cambridge|Massachusetts|" + wantUS},
		{"Cambridge, UK", "Cambridge|England|" + wantUK},
		{"Cambridge, ON", "Cambridge|Ontario|Canada"},
		{"London", "London|England|" + wantUK},
		{"London, ON", "London|Ontario|Canada"},
		{"Portland", "Portland|Oregon|" + wantUS},
		{"Portland, ME", "Portland|Maine|" + wantUS},
		{"Arlington", "Arlington|Texas|" + wantUS},
		{"Arlington, VA", "Arlington|Virginia|" + wantUS},
		{"St. Petersburg", "Saint Petersburg|St.-Petersburg|Russian Federation"},
		{"St. Petersburg, FL", "St. Petersburg|Florida|" + wantUS},
		{"Valencia, Spain", "Valencia|Valencian Community|Spain"},
		// Victoria, Hong Kong (956,800 people in GeoNames) is a part of Hong
		// Kong, whose alternate name it is: the name is British Columbia's,
		// and in Hong Kong Hong Kong's.
		{"Victoria", "Victoria|British Columbia|Canada"},
		{"Victoria, Hong Kong", "Hong Kong||Hong Kong (Special Administrative Region of China)"},
		{"Hamilton", "Hamilton|Ontario|Canada"},
	} {
		t.Run(tt.give, func(t *testing.T) {
			var got, stored []Place
			for _, p := range n.ParseLocation(tt.give).Places {
				got = append(got, n.Complete(p))
				stored = append(stored, storedPlace(t, n, p))
			}
			assert.Equal(t, placesOf(tt.want), got)
			assert.Equal(t, placesOf(tt.want), stored, "stored")
			checkLocationIdempotent(t, n, tt.give)
		})
	}
	assert.Equal(t, "Cambridge", n.City("Cambridge"))
}

// TestBareCityCuratedOrder checks that without reference data a bare name
// reads as the first curated city of that name.
func TestBareCityCuratedOrder(t *testing.T) {
	n := newLocNormalizer(t)
	for give, want := range map[string]string{
		"Cambridge":     "Cambridge|Massachusetts|" + wantUS,
		"Portland":      "Portland|Oregon|" + wantUS,
		"Arlington":     "Arlington|Virginia|" + wantUS,
		"newcastle":     "Newcastle upon Tyne|England|" + wantUK,
		"Cambridge, UK": "Cambridge|England|" + wantUK,
	} {
		var got []Place
		for _, p := range n.ParseLocation(give).Places {
			got = append(got, n.Complete(p))
		}
		assert.Equal(t, placesOf(want), got, give)
	}
}

// TestPlaceOfAgreesWithText: a place given as its parts is the place its
// text reads as ("Zagreb" the city and the City of Zagreb).
func TestPlaceOfAgreesWithText(t *testing.T) {
	n := geoRefNormalizer(t)
	p := n.PlaceOf("Zagreb", "Zagreb", "Croatia")
	name, _, ok := n.geo.StateIn("Zagreb", "Croatia")
	require.True(t, ok)
	assert.Equal(t, Place{City: "Zagreb", State: name, Country: "Croatia"}, p, "a given city and state agree")
	assert.Equal(t, p, n.Complete(n.ParseLocation("Zagreb, Croatia").Places[0]), "as the text reads")
}
