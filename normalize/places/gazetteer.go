// Place gazetteer: the cities, states and countries known, how they load, and their lookup by name or code.

package places

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/biter777/countries"

	"github.com/jobsd-dev/jobsd/domain"
)

// City is a city of the gazetteer. A name's candidates are the curated
// ones (cities.json) in file order; with reference data, the cities it
// names by population, then those it is an alternate name of (see
// compareCities).
type City struct {
	Name    string   `json:"name"`
	State   string   `json:"state"`
	Country string   `json:"country"`
	Aliases []string `json:"aliases"`
	// Lat and Lng are the city's point in degrees (GeoNames' with
	// reference data, cities.json's without), rounded as NearKey writes
	// them.
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`

	population int
	curated    int      // 1 + position in cities.json; 0 for reference data
	keys       []string // the keys of a curated city's own name and aliases
	merged     bool     // a reference-data row has enriched it already
}

// state is a first-level subdivision: ISO 3166-2 ones from
// github.com/biter777/countries (renamed and given aliases by
// states.json), and, with reference data, GeoNames' admin1 ones the ISO
// list lacks.
type state struct {
	Name    string
	Country string
	Code    string // the letters after "CC-" in its ISO 3166-2 code ("TX", "ON", "NSW"), "" when numeric
	ref     bool   // known only from reference data
}

// stateVocab is an entry of states.json: the English name and aliases of
// the ISO 3166-2 subdivision Code.
type stateVocab struct {
	Code    string   `json:"code"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"`
}

// subdivisionTypes are the countries whose ISO 3166-2 subdivisions serve
// as states, in the order their codes are preferred, each with the
// subdivision types that are first-level (nil: all of them). Elsewhere the
// ISO list mixes levels or spells names in ways nobody types; reference
// data (GeoNames admin1) covers those countries.
var subdivisionTypes = []struct {
	country countries.CountryCode
	types   []string
}{
	{countries.US, nil}, {countries.CA, nil}, {countries.AU, nil},
	{countries.GB, []string{"Country", "Province"}},
	{countries.IN, nil}, {countries.DE, nil},
	{countries.FR, []string{"Metropolitan Region", "Overseas Region"}},
	{countries.ES, []string{"Autonomous Community", "Autonomous City"}},
	{countries.IT, []string{"Region"}},
	{countries.NL, []string{"Province"}},
	{countries.CH, nil}, {countries.AT, nil}, {countries.BR, nil}, {countries.MX, nil},
	{countries.JP, nil}, {countries.AR, nil}, {countries.CO, nil}, {countries.ZA, nil},
	{countries.NG, nil}, {countries.MY, nil},
}

// Gazetteer resolves city, state and country names.
type Gazetteer struct {
	// nearPoints is every city's point once, by latitude, built on first
	// use (points).
	pointsOnce sync.Once
	nearPoints []Point
	cities     map[string][]*City  // key of a name or alias → candidates, most likely first
	states     map[string][]*state // key of a name or alias → states, ISO ones first
	codes      map[string][]*state // upper-case ISO 3166-2 suffix → states, US first
	curated    map[string][]*City  // key of a curated city's name, to merge reference data into
	countries  map[string]string   // key of a country name or alias → canonical name
	official   map[string]bool     // keys of the library's own country names
	ccodes     map[string]string   // ISO 3166-1 alpha-2 and alpha-3 → canonical name
	regions    map[string]bool     // keys of regions that name no place (EMEA, Europe)
}

// Load reads the gazetteer of cities.json, states.json and
// country_aliases.json in vocab (normalize's embedded vocabularies), with
// the countries and ISO 3166-2 subdivisions of biter777/countries.
func Load(vocabDir fs.FS) (*Gazetteer, error) {
	g := &Gazetteer{
		cities: map[string][]*City{}, states: map[string][]*state{}, codes: map[string][]*state{},
		curated: map[string][]*City{}, countries: map[string]string{}, official: map[string]bool{},
		ccodes: map[string]string{}, regions: map[string]bool{},
	}
	var cities []*City
	var vocab []stateVocab
	aliases := map[string]string{}
	for name, dst := range map[string]any{"cities.json": &cities, "states.json": &vocab, "country_aliases.json": &aliases} {
		b, err := fs.ReadFile(vocabDir, name)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, dst); err != nil {
			return nil, fmt.Errorf("vocabulary %s: %w", name, err)
		}
	}
	for _, c := range countries.All() {
		name := c.String()
		k := placeKey(name)
		g.countries[k], g.official[k] = name, true
		g.ccodes[c.Alpha2()], g.ccodes[c.Alpha3()] = name, name
		if short, _, ok := strings.Cut(name, " ("); ok {
			if k := placeKey(short); g.countries[k] == "" {
				g.countries[k] = name
			}
		}
	}
	for alias, name := range aliases {
		canonical, ok := g.country(name)
		if !ok {
			return nil, fmt.Errorf("vocabulary country_aliases.json: %q names no country", name)
		}
		g.countries[placeKey(alias)] = canonical
	}
	for _, r := range regionNames {
		g.regions[placeKey(r)] = true
	}
	if err := g.loadSubdivisions(vocab); err != nil {
		return nil, err
	}
	for i, c := range cities {
		country, ok := g.country(c.Country)
		if !ok {
			return nil, fmt.Errorf("vocabulary cities.json: %s: unknown country %q", c.Name, c.Country)
		}
		c.Country, c.curated = country, i+1
		if c.Lat == 0 && c.Lng == 0 || math.Abs(c.Lat) >= 90 || math.Abs(c.Lng) > 180 {
			return nil, fmt.Errorf("vocabulary cities.json: %s: lat and lng must be the city's point in degrees", c.Name)
		}
		c.Lat, c.Lng = domain.RoundCoordinate(c.Lat), domain.RoundCoordinate(c.Lng)
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			c.keys = append(c.keys, nameKeys(name)...)
		}
		if c.State != "" {
			st, ok := g.state(c.State, country)
			if !ok {
				return nil, fmt.Errorf("vocabulary cities.json: %s: unknown state %q of %s", c.Name, c.State, country)
			}
			c.State = st.Name
		}
		g.addCity(c, append([]string{c.Name}, c.Aliases...)...)
		for _, k := range nameKeys(c.Name) {
			g.curated[k] = append(g.curated[k], c)
		}
	}
	return g, nil
}

// loadSubdivisions adds the ISO 3166-2 subdivisions of the countries in
// subdivisionTypes as states, named as states.json says.
func (g *Gazetteer) loadSubdivisions(vocab []stateVocab) error {
	byCode := map[string]stateVocab{}
	for _, v := range vocab {
		byCode[v.Code] = v
	}
	for _, ct := range subdivisionTypes {
		country := ct.country.String()
		for _, sd := range ct.country.Subdivisions() {
			if ct.types != nil && !slices.Contains(ct.types, string(sd.SubdivisionType())) {
				continue
			}
			name, aliases := subdivisionName(sd.String())
			code := string(sd)
			if v, ok := byCode[code]; ok {
				if v.Name != "" {
					aliases = append(aliases, name)
					name = v.Name
				}
				aliases = append(aliases, v.Aliases...)
				delete(byCode, code)
			}
			_, suffix, _ := strings.Cut(code, "-")
			if !allLetters(suffix) {
				suffix = ""
			}
			g.addState(&state{Name: name, Country: country, Code: suffix}, aliases...)
		}
	}
	for code := range byCode {
		return fmt.Errorf("vocabulary states.json: %s is no subdivision of a country in subdivisionTypes", code)
	}
	return nil
}

// subdivisionName reads the library's name of a subdivision: the first of
// the names it gives ("Wales; Cymru", "País Vasco / Euskal Herria"),
// without notes in brackets, inverted forms put right ("Madrid, Comunidad
// de" → "Comunidad de Madrid"); the others are aliases.
func subdivisionName(s string) (string, []string) {
	var names []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '/' }) {
		for _, open := range []string{" (", " ["} {
			if i := strings.Index(part, open); i > 0 {
				part = part[:i]
			}
		}
		if head, tail, ok := strings.Cut(part, ", "); ok {
			part = tail + " " + head
		}
		if part = strings.TrimSpace(part); part != "" {
			names = append(names, part)
		}
	}
	if len(names) == 0 {
		return s, nil
	}
	return names[0], append(names[1:], s)
}

func (g *Gazetteer) addState(st *state, aliases ...string) {
	seen := map[string]bool{}
	for _, name := range append([]string{st.Name}, aliases...) {
		for _, k := range nameKeys(name) {
			if k != "" && !seen[k] {
				seen[k] = true
				g.states[k] = append(g.states[k], st)
			}
		}
	}
	if st.Code != "" {
		g.codes[st.Code] = append(g.codes[st.Code], st)
	}
}

func (g *Gazetteer) addCity(c *City, names ...string) {
	var keys []string
	for _, name := range names {
		keys = appendKeys(keys, name)
	}
	g.addCityKeys(c, keys)
}

// addCityKeys files c under keys, after the cities there.
func (g *Gazetteer) addCityKeys(c *City, keys []string) {
	for _, k := range keys {
		if !slices.Contains(g.cities[k], c) {
			g.cities[k] = append(g.cities[k], c)
		}
	}
}

// country returns the canonical name of the country s names: a name or
// alias, an ISO 3166-1 code, or a spelling the library knows.
func (g *Gazetteer) country(s string) (string, bool) {
	k := placeKey(s)
	if k == "" {
		return "", false
	}
	if name, ok := g.countries[k]; ok {
		return name, true
	}
	if code := codeOf(s); code != "" {
		name, ok := g.ccodes[code]
		return name, ok
	}
	if len(k) >= 4 {
		if c := countries.ByName(s); c != countries.Unknown {
			return c.String(), true
		}
	}
	return "", false
}

// state returns the state s names (a name, alias or code), in country when
// country is given; codes without a country are read as those of the
// United States, Canada and Australia, in that order.
func (g *Gazetteer) state(s, country string) (*state, bool) {
	// A state the text names by its own name before one it is an alias
	// of: "Zagreb" is the City of Zagreb's name and an alias of Zagreb
	// County.
	key := placeKey(s)
	var first *state
	for _, st := range g.states[key] {
		if country == "" || st.Country == country {
			if placeKey(st.Name) == key {
				return st, true
			}
			if first == nil {
				first = st
			}
		}
	}
	if first != nil {
		return first, true
	}
	if code := codeOf(s); code != "" {
		if sts := g.statesByCode(code, country, nil); len(sts) > 0 {
			return sts[0], true
		}
	}
	return nil, false
}

// statesByCode returns the states with an ISO 3166-2 code: those of country
// when it is given, else those of the United States, Canada and Australia
// and of the countries in also.
func (g *Gazetteer) statesByCode(code, country string, also []string) []*state {
	var out []*state
	for _, st := range g.codes[code] {
		switch {
		case country != "":
			if st.Country == country {
				out = append(out, st)
			}
		case st.Country == usName || st.Country == caName || st.Country == auName || slices.Contains(also, st.Country):
			out = append(out, st)
		}
	}
	return out
}

var (
	usName = countries.US.String()
	caName = countries.CA.String()
	auName = countries.AU.String()
)

// FindCity returns the most likely city named s in the state and country
// given ("" for any), and false when the gazetteer has none.
func (g *Gazetteer) FindCity(s, state, country string) (*City, bool) {
	for _, c := range g.cityCands(placeKey(s)) {
		if c.fits(state, country) {
			return c, true
		}
	}
	return nil, false
}

func (c *City) fits(state, country string) bool {
	return (state == "" || c.State == state) && (country == "" || c.Country == country)
}

// cityCands returns the cities a key names, most likely first; metro
// phrasings name their city ("Greater Boston", "Seattle Area", "Denver
// Metro", "Quebec City").
func (g *Gazetteer) cityCands(key string) []*City {
	if cs := g.cities[key]; len(cs) > 0 || key == "" {
		return cs
	}
	k, area := key, false
	for changed := true; changed; {
		changed = false
		for _, prefix := range []string{"greater ", "metro ", "city of ", "downtown ", "central "} {
			if t, ok := strings.CutPrefix(k, prefix); ok {
				k, changed = t, true
			}
		}
		for _, suffix := range []string{" area", " metro", " metropolitan", " metroplex", " region", " city", " downtown"} {
			if t, ok := strings.CutSuffix(k, suffix); ok {
				k, changed, area = t, true, true
			}
		}
	}
	if k == key {
		return nil
	}
	if cs := g.cities[k]; len(cs) > 0 || !area {
		return cs
	}
	// A metro area named by its cities ("Washington DC-Baltimore Area",
	// "Raleigh-Durham-Chapel Hill Area") is its first city's.
	for words := strings.Fields(k); len(words) > 0; words = words[:len(words)-1] {
		if cs := g.cities[strings.Join(words, " ")]; len(cs) > 0 {
			return cs
		}
	}
	return nil
}

// codeOf returns s in capitals when it could be a code (two or three
// letters, dots aside: "TX", "on", "N.Y."), else "".
func codeOf(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, ".", ""))
	if len(s) < 2 || len(s) > 3 || !allLetters(s) {
		return ""
	}
	return strings.ToUpper(s)
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// regionNames name regions, time zones and non-places that location text
// carries and that are no city, state or country: they are left out
// rather than read as a wrong place.
var regionNames = []string{
	"EMEA", "APAC", "APJ", "LATAM", "LATAM", "AMER", "AMERS", "NAMER", "NORAM", "Americas", "North America",
	"South America", "Latin America", "Central America", "Caribbean", "Europe", "European Union", "EU", "EEA",
	"Western Europe", "Eastern Europe", "Central Europe", "Northern Europe", "Southern Europe", "CEE", "Nordics",
	"Nordic", "Scandinavia", "DACH", "Benelux", "Baltics", "Balkans", "Asia", "Asia Pacific", "Asia-Pacific",
	"Southeast Asia", "South Asia", "East Asia", "Middle East", "MENA", "GCC", "Africa", "Sub-Saharan Africa",
	"Oceania", "ANZ", "Global", "International", "World", "Earth", "Any location", "All locations",
	"Multiple", "Various", "Multiple locations", "Various locations", "Several locations", "Many locations",
	"N/A", "NA", "TBD", "TBA", "Unknown", "Not specified", "Flexible", "Nationwide", "Other", "Others",
	"Field", "Travel", "On the road", "In the field", "Confidential", "Undisclosed", "See description",
	"Pacific Northwest", "PNW", "Midwest", "Northeast", "Southeast", "Southwest", "West Coast", "East Coast",
	"New England", "Mountain West", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "CET", "CEST", "EET",
	"GMT", "UTC", "BST", "AEST", "JST", "SGT",
}

// StateIn returns the canonical name and the ISO 3166-2 code letters of
// the state s names in the country given ("" for any), and false when the
// gazetteer has none.
func (g *Gazetteer) StateIn(s, country string) (name, code string, ok bool) {
	st, ok := g.state(s, country)
	if !ok {
		return "", "", false
	}
	return st.Name, st.Code, true
}

// Cities calls yield with every city of the gazetteer once, until yield
// returns false.
func (g *Gazetteer) Cities(yield func(*City) bool) {
	seen := map[*City]bool{}
	for _, cs := range g.cities {
		for _, c := range cs {
			if seen[c] {
				continue
			}
			seen[c] = true
			if !yield(c) {
				return
			}
		}
	}
}
