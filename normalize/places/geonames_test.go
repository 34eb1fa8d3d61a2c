package places

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

// TestAdmin1Names checks every GeoNames subdivision of a country with ISO
// subdivisions: its name and ascii name find, within its country, the
// state its cities are in.
func TestAdmin1Names(t *testing.T) {
	n := geoRef(t)
	iso := map[string]bool{}
	for _, ct := range subdivisionTypes {
		iso[ct.country.Alpha2()] = true
	}
	// The state of a subdivision's cities, by "CC.code".
	rows, err := readGeoCities(refdatatest.Dir() + "/locations/geonames_cities15000.txt.gz")
	require.NoError(t, err)
	cityState := map[string]string{}
	for _, r := range rows {
		code := r.country + "." + r.admin1
		if !iso[r.country] || cityState[code] != "" || r.feature == "PPLX" {
			continue
		}
		for _, c := range n.cities[placeKey(r.name)] {
			if c.Name == r.name && c.Country == n.ccodes[r.country] && c.population == r.population {
				cityState[code] = c.State
				break
			}
		}
	}
	f, err := os.Open(refdatatest.Dir() + "/locations/geonames_admin1_codes.tsv")
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
		country := n.ccodes[cc]
		for _, name := range cols[1:3] {
			st, ok := n.state(name, country)
			if assert.True(t, ok, "%s %s", cols[0], name) {
				assert.Equal(t, want, st.Name, "%s %s", cols[0], name)
				checked++
			}
		}
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, checked, 600)
}

// TestCompareCities checks the order of a name's candidates.
func TestCompareCities(t *testing.T) {
	ma := &City{Name: "Cambridge", population: 110402, curated: 1, keys: []string{"cambridge"}}
	gb := &City{Name: "Cambridge", population: 145674, curated: 2, keys: []string{"cambridge"}}
	on := &City{Name: "Cambridge", population: 138479}
	lone := &City{Name: "Cambridge", curated: 3, keys: []string{"cambridge"}} // GeoNames lacks it
	alt := &City{Name: "Cantabrigia", population: 900000}
	for _, tt := range []struct {
		name string
		give []*City
		want []*City
	}{
		{"by population", []*City{ma, on, gb}, []*City{gb, on, ma}},
		{"names before alternate names", []*City{alt, ma}, []*City{ma, alt}},
		{"curated without population first", []*City{gb, lone}, []*City{lone, gb}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := slices.Clone(tt.give)
			slices.SortStableFunc(cs, func(a, b *City) int { return compareCities("cambridge", a, b, cityParts("cambridge", cs)) })
			assert.Equal(t, tt.want, cs)
		})
	}
}

// A subdivision named by its own name wins over one the name is only an
// alias of: "Zagreb" is the City of Zagreb (whose GeoNames name it is),
// not Zagreb County, whatever order they were added in.
func TestStateOwnNameBeforeAlias(t *testing.T) {
	n := geoRef(t)
	st, ok := n.state("Zagreb", "Croatia")
	require.True(t, ok)
	assert.Equal(t, "zagreb", placeKey(st.Name))
	p := Place{City: "Zagreb", State: st.Name, Country: "Croatia"}
	assert.Equal(t, p, n.Complete(n.ParseLocation("Zagreb, Croatia").Places[0]), "as the text reads")
}

// TestAdmin1AliasStates checks that GeoNames' names of the ISO
// subdivisions name them, ISO subdivisions, within their country.
func TestAdmin1AliasStates(t *testing.T) {
	n := geoRef(t)
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
			st, ok := n.state(tt.give, tt.country)
			if tt.want == "" {
				assert.False(t, ok, "%v", st)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tt.want, st.Name)
			assert.False(t, st.ref, "an ISO subdivision")
		})
	}
}
