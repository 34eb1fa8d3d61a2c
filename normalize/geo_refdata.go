package normalize

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
)

// geoRow is what the gazetteer uses of a row of GeoNames' cities file.
type geoRow struct {
	name, ascii, alternates, feature, country, admin1 string
	population                                        int
}

// loadGeoNames adds GeoNames' cities (over 15,000 people) and first-level
// subdivisions to the gazetteer (dir is the reference data's locations/).
// A curated city takes the alternate names, the subdivision and the
// population of its GeoNames row and stays first among its names'
// candidates; GeoNames' other cities follow by population, so "Portland"
// is still Oregon's and "Cambridge, ON" finds Ontario's.
func (g *gazetteer) loadGeoNames(dir string) error {
	admin1, err := g.loadAdmin1(filepath.Join(dir, "geonames_admin1_codes.tsv"))
	if err != nil {
		return err
	}
	rows, err := readGeoCities(filepath.Join(dir, "geonames_cities15000.txt.gz"))
	if err != nil {
		return err
	}
	slices.SortStableFunc(rows, func(a, b geoRow) int { return b.population - a.population })
	cities := make(map[string][]*city, 6*len(rows))
	for k, cs := range g.cities {
		cities[k] = cs
	}
	g.cities = cities
	added := make(map[string]bool, len(rows))
	var keys []string
	for _, r := range rows {
		country := g.ccodes[r.country]
		if country == "" {
			continue
		}
		stateName := ""
		if st := admin1[r.country+"."+r.admin1]; st != nil {
			stateName = st.Name
		}
		keys = appendKeys(keys[:0], r.name)
		if r.ascii != r.name {
			keys = appendKeys(keys, r.ascii)
		}
		for alt := range strings.SplitSeq(r.alternates, ",") {
			if usableAlternate(alt) {
				keys = appendKeys(keys, alt)
			}
		}
		if c := g.curatedCity(keys, stateName, country); c != nil {
			c.merged = true
			if c.State == "" {
				c.State = stateName
			}
			c.population = r.population
			g.addCityKeys(c, keys)
			continue
		}
		id := r.name + "\x00" + stateName + "\x00" + country
		// Sections of cities (PPLX: "Mitte", "Upper West Side") are no
		// cities of their own.
		if added[id] || r.feature == "PPLX" {
			continue
		}
		added[id] = true
		g.addCityKeys(&city{Name: r.name, State: stateName, Country: country, population: r.population}, keys)
	}
	for k, cs := range g.cities {
		if len(cs) > 1 {
			slices.SortStableFunc(cs, func(a, b *city) int { return compareCities(k, a, b) })
		}
	}
	return nil
}

// compareCities orders the candidates of key k: the curated cities it is
// a name or alias of, in file order; then the cities it is the name of;
// then those it is an alternate name of, each by population. A city's name
// so finds that city first.
func compareCities(k string, a, b *city) int {
	rank := func(c *city) int {
		switch {
		case c.curated > 0 && containsString(c.keys, k):
			return 0
		case placeKey(c.Name) == k:
			return 1
		}
		return 2
	}
	ra, rb := rank(a), rank(b)
	switch {
	case ra != rb:
		return ra - rb
	case ra == 0:
		return a.curated - b.curated
	}
	return b.population - a.population
}

// appendKeys appends the keys of name that keys lacks.
func appendKeys(keys []string, name string) []string {
	for _, k := range nameKeys(name) {
		if k != "" && !containsString(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// curatedCity returns the curated city a GeoNames row with these name keys
// is, if any: same name, same country, and same state unless the curated
// one has none.
func (g *gazetteer) curatedCity(keys []string, stateName, country string) *city {
	for _, k := range keys {
		for _, c := range g.curated[k] {
			if !c.merged && c.Country == country && (c.State == "" || c.State == stateName) {
				return c
			}
		}
	}
	return nil
}

// readGeoCities reads the columns the gazetteer uses of GeoNames' cities
// file: name, asciiname, alternatenames, feature code, country code,
// admin1 code and population.
func readGeoCities(path string) ([]geoRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("geonames cities: %w", err)
	}
	rows := make([]geoRow, 0, 33000)
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<22)
	var cols [15]string
	for line := 1; sc.Scan(); line++ {
		rest := sc.Text()
		n := 0
		for ; n < len(cols); n++ {
			var ok bool
			if cols[n], rest, ok = strings.Cut(rest, "\t"); !ok {
				break
			}
		}
		if n < len(cols) {
			return nil, fmt.Errorf("geonames cities line %d: %d columns, want 19", line, n+1)
		}
		pop, _ := strconv.Atoi(cols[14])
		// The scanner reuses its buffer: keep copies of the strings.
		rows = append(rows, geoRow{
			name: strings.Clone(cols[1]), ascii: strings.Clone(cols[2]), alternates: strings.Clone(cols[3]),
			feature: strings.Clone(cols[7]), country: strings.Clone(cols[8]), admin1: strings.Clone(cols[10]),
			population: pop,
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("geonames cities: %w", err)
	}
	return rows, nil
}

// usableAlternate keeps alternate names a person would type: written in
// Latin letters, capitalized, four characters or more. It drops airport
// codes (LON, YXU) and lower-case transliterations of other scripts.
func usableAlternate(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	if len(s) < 4 || !unicode.IsUpper(first) {
		return false
	}
	runes, lower := 0, false
	for _, c := range s {
		runes++
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z', c == ' ', c == '-', c == '.', c == '\'':
		case c < utf8.RuneSelf:
			return false
		case unicode.Is(unicode.Latin, c):
			lower = lower || unicode.IsLower(c)
		default:
			return false
		}
	}
	return runes >= 4 && lower
}

// admin1Affixes are words around GeoNames' subdivision names that the ISO
// names lack ("State of Berlin", "Rivers State", "Nairobi County").
var admin1Affixes = struct{ prefixes, suffixes []string }{
	[]string{"state of ", "city state ", "region of ", "province of ", "provincia de ", "departamento de "},
	[]string{" state", " county", " region", " department", " province", " prefecture", " governorate",
		" district", " oblast", " voivodeship", " sheng", " shi", " municipality", " territory"},
}

// loadAdmin1 reads GeoNames' first-level subdivisions: each one the
// gazetteer has (by its US postal code, or by name within the country) is
// that state; the others are added as states of reference data. It
// returns the states by "CC.code".
func (g *gazetteer) loadAdmin1(path string) (map[string]*state, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]*state{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		cc, code, _ := strings.Cut(cols[0], ".")
		country := g.ccodes[cc]
		if country == "" {
			continue
		}
		name, ascii := cols[1], cols[2]
		stripped := placeKey(name)
		for _, p := range admin1Affixes.prefixes {
			stripped = strings.TrimPrefix(stripped, p)
		}
		for _, s := range admin1Affixes.suffixes {
			stripped = strings.TrimSuffix(stripped, s)
		}
		var st *state
		if country == usName {
			if sts := g.statesByCode(code, usName, nil); len(sts) > 0 {
				st = sts[0]
			}
		}
		for _, k := range []string{placeKey(name), placeKey(ascii), stripped} {
			if st != nil {
				break
			}
			for _, s := range g.states[k] {
				if s.Country == country && !s.ref {
					st = s
					break
				}
			}
		}
		if st == nil {
			st = &state{Name: name, Country: country, ref: true}
			g.addState(st, ascii, stripped)
		}
		out[cols[0]] = st
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("geonames admin1: %w", err)
	}
	return out, nil
}
