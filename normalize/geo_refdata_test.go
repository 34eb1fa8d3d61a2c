package normalize

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	geoRefOnce sync.Once
	geoRefN    *Normalizer
	geoRefErr  error
)

// geoRefNormalizer returns a Normalizer with the reference data of
// JOBSD_REFDATA, loaded once; the test is skipped when it is unset.
func geoRefNormalizer(t *testing.T) *Normalizer {
	t.Helper()
	dir := refDataDir()
	if dir == "" {
		t.Skip("JOBSD_REFDATA unset")
	}
	geoRefOnce.Do(func() { geoRefN, geoRefErr = New(WithRefData(dir)) })
	require.NoError(t, geoRefErr)
	return geoRefN
}

// TestAdmin1Aliases checks that GeoNames' names of the ISO subdivisions
// name them within their country.
func TestAdmin1Aliases(t *testing.T) {
	n := geoRefNormalizer(t)
	for _, tt := range []struct{ give, country, want string }{
		{"State of Berlin", "Germany", "Berlin"},
		{"City state Bremen", "Germany", "Bremen"},
		{"Rhône-Alpes", "France", "Auvergne-Rhône-Alpes"},
		{"Rhone-Alpes", "France", "Auvergne-Rhône-Alpes"},
		{"Centre", "France", "Centre-Val de Loire"},
		{"Madrid", "Spain", "Community of Madrid"},
		{"Valencia", "Spain", "Valencian Community"},
		{"Castille-La Mancha", "Spain", "Castilla-La Mancha"},
		{"Castille and Leon", "Spain", "Castile and León"},
		{"Buenos Aires F.D.", "Argentina", "Autonomous City of Buenos Aires"},
		{"Buenos Aires", "Argentina", "Buenos Aires"},
		{"Bogota D.C.", "Colombia", "Bogotá"},
		{"Tolima Department", "Colombia", "Tolima"},
		{"The Marches", "Italy", "Marche"},
		{"Basilicate", "Italy", "Basilicata"},
		{"Nasarawa State", "Nigeria", "Nassarawa"},
		{"Nasarawa", "Nigeria", "Nassarawa"},
		{"Northern", "Australia", ""},
		{"Free", "South Africa", ""},
	} {
		t.Run(tt.give+", "+tt.country, func(t *testing.T) {
			st, ok := n.geo.state(tt.give, tt.country)
			if tt.want == "" {
				assert.False(t, ok, "%v", st)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.want, st.Name)
			assert.False(t, st.ref, "an ISO subdivision")
		})
	}
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
			assert.Equal(t, places(tt.want), got)
		})
	}
	assert.Equal(t, "Berlin", n.State("State of Berlin"))
	assert.Equal(t, "Autonomous City of Buenos Aires", n.State("Buenos Aires F.D."))
}

// TestAdmin1Names checks every GeoNames subdivision of a country with ISO
// subdivisions: its name and ascii name find, within its country, the
// state its cities are in.
func TestAdmin1Names(t *testing.T) {
	n := geoRefNormalizer(t)
	iso := map[string]bool{}
	for _, ct := range subdivisionTypes {
		iso[ct.country.Alpha2()] = true
	}
	// The state of a subdivision's cities, by "CC.code".
	rows, err := readGeoCities(refDataDir() + "/locations/geonames_cities15000.txt.gz")
	require.NoError(t, err)
	cityState := map[string]string{}
	for _, r := range rows {
		code := r.country + "." + r.admin1
		if !iso[r.country] || cityState[code] != "" || r.feature == "PPLX" {
			continue
		}
		for _, c := range n.geo.cities[placeKey(r.name)] {
			if c.Name == r.name && c.Country == n.geo.ccodes[r.country] && c.population == r.population {
				cityState[code] = c.State
				break
			}
		}
	}
	f, err := os.Open(refDataDir() + "/locations/geonames_admin1_codes.tsv")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	checked := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		cc, _, _ := strings.Cut(cols[0], ".")
		want := cityState[cols[0]]
		if !iso[cc] || want == "" {
			continue
		}
		country := n.geo.ccodes[cc]
		for _, name := range cols[1:3] {
			st, ok := n.geo.state(name, country)
			if assert.True(t, ok, "%s %s", cols[0], name) {
				assert.Equal(t, want, st.Name, "%s %s", cols[0], name)
				checked++
			}
		}
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, checked, 600)
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
			assert.Equal(t, places(tt.want), got)
			assert.Equal(t, places(tt.want), stored, "stored")
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
		assert.Equal(t, places(want), got, give)
	}
}

// TestCompareCities checks the order of a name's candidates.
func TestCompareCities(t *testing.T) {
	ma := &city{Name: "Cambridge", population: 110402, curated: 1, keys: []string{"cambridge"}}
	gb := &city{Name: "Cambridge", population: 145674, curated: 2, keys: []string{"cambridge"}}
	on := &city{Name: "Cambridge", population: 138479}
	lone := &city{Name: "Cambridge", curated: 3, keys: []string{"cambridge"}} // GeoNames lacks it
	alt := &city{Name: "Cantabrigia", population: 900000}
	for _, tt := range []struct {
		name string
		give []*city
		want []*city
	}{
		{"by population", []*city{ma, on, gb}, []*city{gb, on, ma}},
		{"names before alternate names", []*city{alt, ma}, []*city{ma, alt}},
		{"curated without population first", []*city{gb, lone}, []*city{lone, gb}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := slices.Clone(tt.give)
			slices.SortStableFunc(cs, func(a, b *city) int { return compareCities("cambridge", a, b, cityParts("cambridge", cs)) })
			assert.Equal(t, tt.want, cs)
		})
	}
}

// A subdivision named by its own name wins over one the name is only an
// alias of: "Zagreb" is the City of Zagreb (whose GeoNames name it is),
// not Zagreb County, whatever order they were added in.
func TestStateOwnNameBeforeAlias(t *testing.T) {
	n := geoRefNormalizer(t)
	st, ok := n.geo.state("Zagreb", "Croatia")
	require.True(t, ok)
	assert.Equal(t, "zagreb", placeKey(st.Name))
	p := n.PlaceOf("Zagreb", "Zagreb", "Croatia")
	assert.Equal(t, Place{City: "Zagreb", State: st.Name, Country: "Croatia"}, p, "a given city and state agree")
	assert.Equal(t, p, n.Complete(n.ParseLocation("Zagreb, Croatia").Places[0]), "as the text reads")
}
