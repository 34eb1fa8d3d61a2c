package normalize

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/biter777/countries"
	"golang.org/x/text/unicode/norm"

	"github.com/jobsd-dev/jobsd/domain"
)

// Place is one location: a city, state and country, each "" when unknown.
type Place struct {
	City, State, Country string
}

// ParsedLocation is free location text understood: its places and the
// work arrangement it states (at most one of Remote, Hybrid and Onsite;
// hybrid wins over remote, remote over on-site).
type ParsedLocation struct {
	Places []Place
	Remote bool
	Hybrid bool
	Onsite bool
}

// Arrangement returns the work arrangement the text states, and false when
// it states none: the one reading of the import (a job's location sets a
// missing arrangement) and of the location filter.
func (p ParsedLocation) Arrangement() (domain.WorkArrangement, bool) {
	switch {
	case p.Hybrid:
		return domain.WorkArrangementHybrid, true
	case p.Remote:
		return domain.WorkArrangementRemote, true
	case p.Onsite:
		return domain.WorkArrangementOnsite, true
	}
	return "", false
}

// city is a city of the gazetteer. A name's candidates are the curated
// ones (cities.json) in file order; with reference data, the cities it
// names by population, then those it is an alternate name of (see
// compareCities).
type city struct {
	Name    string   `json:"name"`
	State   string   `json:"state"`
	Country string   `json:"country"`
	Aliases []string `json:"aliases"`

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

// gazetteer resolves city, state and country names.
type gazetteer struct {
	cities    map[string][]*city  // key of a name or alias → candidates, most likely first
	states    map[string][]*state // key of a name or alias → states, ISO ones first
	codes     map[string][]*state // upper-case ISO 3166-2 suffix → states, US first
	curated   map[string][]*city  // key of a curated city's name, to merge reference data into
	countries map[string]string   // key of a country name or alias → canonical name
	official  map[string]bool     // keys of the library's own country names
	ccodes    map[string]string   // ISO 3166-1 alpha-2 and alpha-3 → canonical name
	regions   map[string]bool     // keys of regions that name no place (EMEA, Europe)
}

func loadGazetteer() (*gazetteer, error) {
	g := &gazetteer{
		cities: map[string][]*city{}, states: map[string][]*state{}, codes: map[string][]*state{},
		curated: map[string][]*city{}, countries: map[string]string{}, official: map[string]bool{},
		ccodes: map[string]string{}, regions: map[string]bool{},
	}
	var cities []*city
	var vocab []stateVocab
	aliases := map[string]string{}
	for name, dst := range map[string]any{"cities.json": &cities, "states.json": &vocab, "country_aliases.json": &aliases} {
		b, err := vocabFS.ReadFile("vocab/" + name)
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
func (g *gazetteer) loadSubdivisions(vocab []stateVocab) error {
	byCode := map[string]stateVocab{}
	for _, v := range vocab {
		byCode[v.Code] = v
	}
	for _, ct := range subdivisionTypes {
		country := ct.country.String()
		for _, sd := range ct.country.Subdivisions() {
			if ct.types != nil && !containsString(ct.types, string(sd.SubdivisionType())) {
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

func (g *gazetteer) addState(st *state, aliases ...string) {
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

func (g *gazetteer) addCity(c *city, names ...string) {
	var keys []string
	for _, name := range names {
		keys = appendKeys(keys, name)
	}
	g.addCityKeys(c, keys)
}

// addCityKeys files c under keys, after the cities there.
func (g *gazetteer) addCityKeys(c *city, keys []string) {
	for _, k := range keys {
		if !containsCity(g.cities[k], c) {
			g.cities[k] = append(g.cities[k], c)
		}
	}
}

// nameKeys returns the keys a name is found by: its own and, for German
// umlauts, the spelling with ae, oe, ue ("Düsseldorf", "Duesseldorf").
func nameKeys(name string) []string {
	keys := []string{placeKey(name)}
	if strings.ContainsAny(name, "äöüÄÖÜ") {
		keys = append(keys, placeKey(umlautSpellings.Replace(name)))
	}
	return keys
}

var umlautSpellings = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue")

// placeKeyWords are abbreviations of place names spelled out ("St. Louis" =
// "Saint Louis", "Ft. Worth" = "Fort Worth").
var placeKeyWords = map[string]string{"st": "saint", "ste": "sainte", "sankt": "saint", "ft": "fort", "mt": "mount"}

// latinLetters spells the Latin letters with diacritics (and a few
// others) as plain lower-case letters: "é" → "e", "ß" → "ss", "ł" → "l".
var latinLetters = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'ø': "o", 'Ø': "o", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ł': "l",
		'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i", 'ħ': "h", 'Ħ': "h"}
	for _, rng := range [][2]rune{{0xC0, 0x24F}, {0x1E00, 0x1EFF}} {
		for r := rng[0]; r <= rng[1]; r++ {
			if _, ok := m[r]; ok || !unicode.IsLetter(r) {
				continue
			}
			var base []rune
			for _, d := range norm.NFD.String(string(r)) {
				if !unicode.Is(unicode.Mn, d) {
					base = append(base, unicode.ToLower(d))
				}
			}
			if len(base) > 0 && base[0] < utf8.RuneSelf {
				m[r] = string(base)
			}
		}
	}
	return m
}()

// placeKey returns the form place names are compared in: lower case,
// without diacritics, punctuation as spaces, apostrophes dropped, "&" as
// "and", runs of single letters joined ("U.S.A." = "usa", "D.C." = "dc")
// and abbreviations spelled out ("St." = "saint").
func placeKey(s string) string {
	buf := make([]byte, 0, len(s)+4)
	inWord := false
	add := func(spelled string) {
		if !inWord && len(buf) > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, spelled...)
		inWord = true
	}
	for _, r := range s {
		if r < utf8.RuneSelf {
			c := byte(r)
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case c == '\'' || c == '`':
				continue
			case c == '&':
				inWord = false
				add("and")
				inWord = false
				continue
			default:
				inWord = false
				continue
			}
			if !inWord && len(buf) > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, c)
			inWord = true
			continue
		}
		switch {
		case r == '’' || r == '‘' || r == '´' || r == 'ʻ' || unicode.Is(unicode.Mn, r):
		case latinLetters[r] != "":
			add(latinLetters[r])
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			add(string(unicode.ToLower(r)))
		default:
			inWord = false
		}
	}
	key := string(buf)
	needs := false
	for w := range strings.SplitSeq(key, " ") {
		if isOneLetter(w) || placeKeyWords[w] != "" {
			needs = true
			break
		}
	}
	if !needs {
		return key
	}
	var b strings.Builder
	b.Grow(len(key) + 8)
	prevOne := false
	for i, w := range strings.Split(key, " ") {
		one := isOneLetter(w)
		if full := placeKeyWords[w]; full != "" {
			w = full
		}
		if i > 0 && !(one && prevOne) {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		prevOne = one
	}
	return b.String()
}

func isOneLetter(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	return size == len(w) && unicode.IsLetter(r)
}

// country returns the canonical name of the country s names: a name or
// alias, an ISO 3166-1 code, or a spelling the library knows.
func (g *gazetteer) country(s string) (string, bool) {
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
func (g *gazetteer) state(s, country string) (*state, bool) {
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
func (g *gazetteer) statesByCode(code, country string, also []string) []*state {
	var out []*state
	for _, st := range g.codes[code] {
		switch {
		case country != "":
			if st.Country == country {
				out = append(out, st)
			}
		case st.Country == usName || st.Country == caName || st.Country == auName || containsString(also, st.Country):
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

// city returns the city s names that fits the state and country given.
func (g *gazetteer) city(s, state, country string) (*city, bool) {
	for _, c := range g.cityCands(placeKey(s)) {
		if c.fits(state, country) {
			return c, true
		}
	}
	return nil, false
}

func (c *city) fits(state, country string) bool {
	return (state == "" || c.State == state) && (country == "" || c.Country == country)
}

// cityCands returns the cities a key names, most likely first; metro
// phrasings name their city ("Greater Boston", "Seattle Area", "Denver
// Metro", "Quebec City").
func (g *gazetteer) cityCands(key string) []*city {
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

func containsCity(list []*city, c *city) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// City returns the canonical name of a city ("SF" → San Francisco,
// "Austin, TX" → Austin), or s trimmed when unknown (as is any text longer
// than MaxLocationLength, and so for State and Country).
func (n *Normalizer) City(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if tooLong(s, MaxLocationLength) {
		return s
	}
	if c, ok := n.geo.city(s, "", ""); ok {
		// A city whose name is first another's ("Saint-Louis", Senegal)
		// is kept as given.
		if d, ok := n.geo.city(c.Name, "", ""); ok && d.Name == c.Name {
			return c.Name
		}
		return s
	}
	if strings.ContainsAny(s, ",-(/ ") {
		if p := n.ParseLocation(s); len(p.Places) == 1 && p.Places[0].City != "" {
			if c, ok := n.geo.city(p.Places[0].City, "", ""); ok && c.Name == p.Places[0].City {
				return c.Name
			}
		}
	}
	return s
}

// State returns the canonical name of a state or province ("CA" →
// California, "Bayern" → Bavaria), or s trimmed when unknown.
func (n *Normalizer) State(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if tooLong(s, MaxLocationLength) {
		return s
	}
	if st, ok := n.geo.state(s, ""); ok {
		return st.Name
	}
	return s
}

// Country returns the canonical name of a country ("USA" → United States),
// or s trimmed when unknown.
func (n *Normalizer) Country(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if tooLong(s, MaxLocationLength) {
		return s
	}
	if c, ok := n.geo.country(s); ok {
		return c
	}
	return s
}

// Complete returns p with the state and country it implies filled in, as
// an imported job records them: those of its city when the city is known
// and fits, the country of its state. ParseLocation leaves them out where
// the text reads back without them.
func (n *Normalizer) Complete(p Place) Place {
	if p.City != "" {
		if c, ok := n.geo.city(p.City, p.State, p.Country); ok {
			if p.State == "" {
				p.State = c.State
			}
			if p.Country == "" {
				p.Country = c.Country
			}
		}
	}
	if p.State != "" && p.Country == "" {
		if st, ok := n.geo.state(p.State, ""); ok {
			p.Country = st.Country
		}
	}
	return p
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

// placeNoise are words of location text that name no place ("Multiple
// Locations", "US only", "Suite 400"); placeFillers join the place to what
// is around it ("Remote in the US", "Based in Berlin").
var (
	placeNoise = map[string]bool{
		"multiple": true, "various": true, "several": true, "many": true, "all": true, "locations": true,
		"location": true, "cities": true, "offices": true, "office": true, "more": true, "other": true,
		"others": true, "only": true, "preferred": true, "required": true, "must": true, "be": true,
		"located": true, "based": true, "resident": true, "residents": true, "residing": true, "reside": true,
		"living": true, "candidates": true, "eligible": true, "open": true, "any": true, "where": true,
		"across": true, "throughout": true, "area": true, "region": true, "hq": true, "headquarters": true,
		"campus": true, "suite": true, "ste": true, "floor": true, "building": true, "bldg": true, "unit": true,
		"downtown": true, "nationwide": true, "tbd": true, "tba": true, "approved": true, "states": true,
		"countries": true, "country": true, "please": true, "note": true, "hub": true, "work": true, "job": true,
		"citizen": true, "citizens": true, "authorized": true, "authorised": true, "confidential": true,
	}
	placeFillers = map[string]bool{
		"in": true, "from": true, "within": true, "near": true, "around": true, "the": true, "of": true,
		"at": true, "for": true, "and": true, "or": true, "a": true, "an": true, "to": true, "on": true, "out": true,
		"but": true, "preferably": true, "ideally": true,
	}
	timeZoneWords = map[string]bool{"time": true, "zone": true, "zones": true, "timezone": true, "timezones": true, "tz": true, "hours": true, "overlap": true}
)

// arrangementRE finds the phrases of work arrangements in location text.
var arrangementRE = regexp.MustCompile(`(?i)\b(?:100\s*%\s*remote|fully[\s-]+remote|remote[\s-]+(?:first|friendly|only|ok|eligible|optional|possible)|remote(?:ly)?|wfh|work(?:ing)?[\s-]+from[\s-]+(?:home|anywhere)|home[\s-]*(?:based|office)|tele-?(?:commut|work)\w*|distributed|anywhere|worldwide|virtual|hybrid|on[\s-]?site|in[\s-]office|office[\s-]based|in[\s-]person)\b`)

var notApplicableRE = regexp.MustCompile(`(?i)\bn/a\b`)

// scheduleRE matches how often or how much a job asks to be somewhere,
// which location text carries beside places: "2 days/week", "3x per week",
// "4 days a week", "25% travel", "Mon-Fri". Its words ("week") are no
// places.
var scheduleRE = regexp.MustCompile(`(?i)\b\d+(?:\s*(?:-|to)\s*\d+)?\s*(?:x|times|days?|d)\s*(?:/|a|an|per|each|every)?\s*(?:week|wk|month|mo)\b|\b\d+\s*%\s*travel\b|\b(?:mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?)\s*(?:-|to|through|thru)\s*(?:thu(?:rsday)?|fri(?:day)?)\b`)

// mayHoldSchedule reports whether text has what every match of scheduleRE
// has, a digit or the start of a weekday: the regular expression costs a
// quarter of a location's parse.
func mayHoldSchedule(text string) bool {
	if strings.ContainsAny(text, "0123456789") {
		return true
	}
	lower := strings.ToLower(text)
	for _, day := range []string{"mon", "tue", "wed", "thu"} {
		if strings.Contains(lower, day) {
			return true
		}
	}
	return false
}

// arrangement removes the work-arrangement phrases of text, noting them in
// out, and returns what is left.
func arrangement(text string, out *ParsedLocation) string {
	if mayHoldSchedule(text) {
		text = scheduleRE.ReplaceAllString(text, " ")
	}
	lower := strings.ToLower(text)
	if strings.Contains(lower, "n/a") {
		text = notApplicableRE.ReplaceAllString(text, " ")
		lower = strings.ToLower(text)
	}
	hint := false
	for _, s := range []string{"remot", "wfh", "home", "tele", "distrib", "anywhere", "worldwide", "virtual", "hybrid", "site", "office", "person"} {
		if strings.Contains(lower, s) {
			hint = true
			break
		}
	}
	if !hint {
		return text
	}
	var remote, hybrid, onsite bool
	text = arrangementRE.ReplaceAllStringFunc(text, func(m string) string {
		m = strings.ToLower(m)
		switch {
		case strings.Contains(m, "hybrid"):
			hybrid = true
		case strings.Contains(m, "home"):
			remote = true
		case strings.Contains(m, "site") || strings.Contains(m, "office") || strings.Contains(m, "person"):
			onsite = true
		default:
			remote = true
		}
		return ","
	})
	switch {
	case hybrid:
		out.Hybrid = true
	case remote:
		out.Remote = true
	case onsite:
		out.Onsite = true
	}
	return text
}

// ParseLocation reads free location text: places separated by ";", "|",
// "/", " or ", " and ", " & " or listed city after city, each "city,
// state, country" with any part left out, in any order or without commas
// ("Austin TX", "US-CA-San Francisco"), with postal codes, metro names
// ("Bay Area"), regions ("EMEA", left out) and remote, hybrid or on-site
// phrases. Places hold what the text says, canonically spelled; the state
// or country a city implies is added only where the city's name alone
// would be read as another place. A text longer than MaxLocationLength
// names nothing.
func (n *Normalizer) ParseLocation(text string) ParsedLocation {
	var out ParsedLocation
	if tooLong(text, MaxLocationLength) {
		return out
	}
	for _, r := range n.geo.readText(text, &out) {
		for _, p := range n.geo.stable(r) {
			if !containsPlace(out.Places, p) {
				out.Places = append(out.Places, p)
			}
		}
	}
	return out
}

// readText returns the places text names as read, noting its work
// arrangement in out.
func (g *gazetteer) readText(text string, out *ParsedLocation) []locReading {
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
		case unicode.IsSpace(r) || unicode.IsControl(r) || r == '_':
			return ' '
		case unicode.Is(unicode.Cf, r): // zero-width and direction marks
			return -1
		}
		return r
	}, strings.ToValidUTF8(text, " "))
	text = arrangement(text, out)
	var all []locReading
	for _, seg := range g.segments(text) {
		rs := g.places(g.parts(seg))
		for i := 0; i < len(rs); i++ {
			// "London, Greater London, England": one city named twice.
			if i+1 < len(rs) && samePlace(rs[i], rs[i+1]) {
				rs[i+1] = mergeReadings(rs[i], rs[i+1])
				continue
			}
			all = append(all, rs[i])
		}
	}
	return all
}

// samePlace reports whether two places read one after the other are one:
// the same city, and no state or country told apart.
func samePlace(ra, rb locReading) bool {
	a, b := ra.place, rb.place
	if a.City == "" || a.City != b.City || (a.State != "" && b.State != "" && a.State != b.State) ||
		(a.Country != "" && b.Country != "" && a.Country != b.Country) {
		return false
	}
	st, country := ra.state, b.Country
	if st == nil {
		st, country = rb.state, a.Country
	}
	return st == nil || country == "" || st.Country == country
}

func mergeReadings(a, b locReading) locReading {
	if b.place.State == "" {
		b.place.State, b.state = a.place.State, a.state
	}
	if b.place.Country == "" {
		b.place.Country = a.place.Country
	}
	if b.city == nil {
		b.city = a.city
	}
	return b
}

func containsPlace(list []Place, p Place) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

// segments splits text into the texts of its places: at ";", "|", line
// breaks and bullets, and at "/", " or ", " and ", " & ", "+" unless these
// are part of a name ("Trinidad and Tobago", "Dallas/Fort Worth").
func (g *gazetteer) segments(text string) []string {
	var out []string
	for _, seg := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ';' || r == '|' || r == '\n' || r == '•' || r == '·'
	}) {
		out = append(out, g.splitWeak(seg)...)
	}
	return out
}

var weakSeps = []string{"/", " or ", " and ", " & ", "+"}

func (g *gazetteer) splitWeak(seg string) []string {
	var out []string
	start := 0 // of the current segment
	for i := 0; i < len(seg); i++ {
		for _, sep := range weakSeps {
			if i+len(sep) > len(seg) || !strings.EqualFold(seg[i:i+len(sep)], sep) {
				continue
			}
			// The comma-separated part around the separator, which may be a
			// name containing it.
			l := strings.LastIndexAny(seg[start:i], ",:()") + 1 + start
			r := strings.IndexAny(seg[i+len(sep):], ",:()")
			if r < 0 {
				r = len(seg)
			} else {
				r += i + len(sep)
			}
			if g.knownName(seg[l:r]) {
				continue
			}
			// A country's name with a comma ("Korea, Republic of").
			if l > start {
				if l2 := strings.LastIndexAny(seg[start:l-1], ",:()") + 1 + start; g.countries[placeKey(seg[l2:r])] != "" {
					continue
				}
			}
			out = append(out, seg[start:i])
			start = i + len(sep)
			i = start - 1
			break
		}
	}
	return append(out, seg[start:])
}

// maxPlaceText is the most bytes of a text that may be a place's name:
// the longest name known is about 200 bytes, and a text this long even
// with spaces and punctuation between its words is none. splitWeak asks
// knownName about the text around each separator, so without this bound
// "a/a/a/…" costs time quadratic in its length.
const maxPlaceText = 1024

// knownName reports whether s is, as a whole, the name of a city, state
// or country.
func (g *gazetteer) knownName(s string) bool {
	if len(s) > maxPlaceText {
		return false
	}
	k := placeKey(s)
	return k != "" && (len(g.cityCands(k)) > 0 || len(g.states[k]) > 0 || g.countries[k] != "")
}

// locPart is one comma-separated part of a place's text with its readings.
type locPart struct {
	text    string   // as written, trimmed
	key     string   // placeKey(text)
	cities  []*city  // the cities it may name, most likely first
	states  []*state // the states it names by name
	country string   // the country it names by name
	code    string   // in capitals, when it could be a code
	upper   bool     // the code is written in capitals
}

func (g *gazetteer) newPart(text string) *locPart {
	p := &locPart{text: text, key: placeKey(text)}
	p.cities = g.cityCands(p.key)
	p.states = g.states[p.key]
	p.country = g.countries[p.key]
	if p.code = codeOf(text); p.code != "" {
		p.upper = strings.IndexFunc(text, unicode.IsLower) < 0
	}
	return p
}

// named reports whether the part names a place other than by a code.
func (p *locPart) named() bool {
	return len(p.cities) > 0 || len(p.states) > 0 || p.country != ""
}

// codeCountry returns the country the part names by its ISO 3166-1 code
// (a three-letter one only in capitals: "USA", not "can").
func (g *gazetteer) codeCountry(p *locPart) string {
	if p.code == "" || (len(p.code) == 3 && !p.upper) {
		return ""
	}
	return g.ccodes[p.code]
}

// known reports whether the part names a place, by name or by code.
func (g *gazetteer) known(p *locPart) bool {
	return p.named() || (p.code != "" && (len(g.statesByCode(p.code, "", nil)) > 0 || g.codeCountry(p) != ""))
}

// parts splits the text of one place into its parts: at commas, colons,
// spaced dashes and brackets (unless part of a name, "Frankfurt (Oder)"),
// then each part cleaned and, when it is no name as a whole, split where
// a state or country ends it ("Austin TX 78701", "US-CA-San Francisco").
func (g *gazetteer) parts(seg string) []*locPart {
	seg = strings.ReplaceAll(seg, ":", ",")
	if strings.ContainsAny(seg, "()[]") {
		pieces := strings.Split(seg, ",")
		for i, piece := range pieces {
			if strings.ContainsAny(piece, "()[]") && !g.knownName(piece) {
				pieces[i] = bracketsAsCommas.Replace(piece)
			}
		}
		seg = strings.Join(pieces, ",")
	}
	seg = dashes.Replace(seg)
	if strings.Count(seg, ",") > 0 {
		// A country's name with a comma ("Bonaire, Sint Eustatius And
		// Saba", "Korea, Republic of") stays one part: its comma becomes a
		// look-alike.
		pieces := strings.Split(seg, ",")
		for i := 0; i+1 < len(pieces); i++ {
			if joined := pieces[i] + "\u201a" + pieces[i+1]; strings.TrimSpace(pieces[i+1]) != "" && g.countries[placeKey(joined)] != "" {
				pieces[i+1] = joined
				pieces[i] = ""
			}
		}
		seg = strings.Join(pieces, ",")
	}
	var out []*locPart
	raws := strings.Split(seg, ",")
	for i, raw := range raws {
		if i+1 < len(raws) && streetAddress(raw) {
			continue
		}
		out = append(out, g.partsOf(raw)...)
	}
	return out
}

// streetAddress reports whether a part is a street address ("123 Main
// St"): a number and at least two words.
func streetAddress(s string) bool {
	words := strings.Fields(s)
	return len(words) >= 3 && allDigits(strings.TrimRight(words[0], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-"))
}

// directions are words before a state or country that name a part of it.
var directions = map[string]bool{
	"north": true, "south": true, "east": true, "west": true, "central": true, "northern": true,
	"southern": true, "eastern": true, "western": true, "upstate": true, "downstate": true, "rural": true,
	"coastal": true, "greater": true, "northeast": true, "northwest": true, "southeast": true, "southwest": true,
}

var (
	bracketsAsCommas = strings.NewReplacer("(", ",", ")", ",", "[", ",", "]", ",")
	// dashes: spaced ones separate parts ("Austin - TX"), others join words.
	dashes = strings.NewReplacer("–", "-", "—", "-", "−", "-", " -", ",", "- ", ",")
)

// cleanPart trims spaces and punctuation around a part and collapses its
// spaces.
func cleanPart(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
	})
	return strings.Join(strings.Fields(s), " ")
}

func (g *gazetteer) partsOf(raw string) []*locPart {
	t := cleanPart(raw)
	if t == "" || g.regions[placeKey(t)] {
		return nil
	}
	if p := g.newPart(t); g.known(p) {
		return []*locPart{p}
	}
	t = dropWords(t)
	if t == "" || g.regions[placeKey(t)] {
		return nil
	}
	p := g.newPart(t)
	if g.known(p) {
		return []*locPart{p}
	}
	if strings.Contains(t, "-") {
		if ps := g.splitHyphens(t); ps != nil {
			return ps
		}
	}
	if ps := g.splitSuffix(t); ps != nil {
		return ps
	}
	if nameLike(t) {
		return []*locPart{p}
	}
	return nil
}

// dropWords removes from a part what names no place: words with digits
// (postal codes, suite numbers), noise words, and filler words (in lower
// case, or leading) when other words remain. A part about time zones is
// dropped whole.
func dropWords(t string) string {
	words := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(t, "-based", " based"), "-Based", " based"))
	// In a part written in capitals ("REMOTE IN USA") capitals tell no
	// codes from words.
	allCaps := !slices.ContainsFunc(words, func(w string) bool {
		return strings.IndexFunc(w, unicode.IsLower) >= 0 && strings.IndexFunc(w, unicode.IsDigit) < 0
	})
	kept := words[:0]
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, ".'\"*"))
		if timeZoneWords[lw] {
			return ""
		}
		switch {
		case strings.IndexFunc(w, unicode.IsDigit) >= 0:
		case placeNoise[lw]:
		case placeFillers[lw] && len(words) > 1 && (w == lw || allCaps || (i == 0 && len(kept) == 0 && w != strings.ToUpper(w))):
		// A Dutch postal code's letters ("1012 AB Amsterdam").
		case len(w) == 2 && i > 0 && len(words[i-1]) == 4 && allDigits(words[i-1]) && w == strings.ToUpper(w):
		default:
			kept = append(kept, w)
		}
	}
	return cleanPart(strings.Join(kept, " "))
}

func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// nameLike reports whether an unknown part may still be a place's name,
// kept as given: a few words, starting with a letter, that read alone would
// be kept whole.
func nameLike(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsLetter(r) && utf8.RuneCountInString(t) >= 2 && len(strings.Fields(t)) <= 4 &&
		!strings.ContainsAny(t, "()[]{}<>:,;|/+&") && !containsWord(t, "or", "and") && cleanPart(t) == t && dropWords(t) == t
}

// containsWord reports whether one of words is a word of t, in any case.
func containsWord(t string, words ...string) bool {
	for _, w := range strings.Fields(t) {
		for _, x := range words {
			if strings.EqualFold(w, x) {
				return true
			}
		}
	}
	return false
}

// splitHyphens reads "US-CA-San Francisco" and "Austin-TX": a part whose
// hyphen-separated pieces include a state or country; and a city's
// district ("Berlin-Mitte") as the city.
func (g *gazetteer) splitHyphens(t string) []*locPart {
	var ps []*locPart
	region := false
	for piece := range strings.SplitSeq(t, "-") {
		for _, p := range g.partsOf(piece) {
			region = region || len(p.states) > 0 || p.country != "" || (p.upper && g.known(p))
			ps = append(ps, p)
		}
	}
	switch {
	case len(ps) < 2:
		return nil
	case region:
		return ps
	case len(ps[0].cities) > 0 && !slices.ContainsFunc(ps[1:], g.known):
		return ps[:1]
	}
	return nil
}

// splitSuffix reads a part without commas ("Austin TX", "Berlin Germany",
// "Toronto ON Canada"): a known state or country at its end, a place
// before it. A lower-case code counts only after a city it fits ("austin
// tx").
func (g *gazetteer) splitSuffix(t string) []*locPart {
	words := strings.Fields(t)
	if len(words) > 8 {
		return nil
	}
	for k := min(3, len(words)-1); k >= 1; k-- {
		sp := g.newPart(cleanPart(strings.Join(words[len(words)-k:], " ")))
		named := len(sp.states) > 0 || sp.country != ""
		if !named && (k != 1 || sp.code == "") {
			continue
		}
		prefix := strings.Join(words[:len(words)-k], " ")
		if named && directions[strings.ToLower(prefix)] {
			sp.cities = nil // "Northern California", "Upstate New York": a region's part
			return []*locPart{sp}
		}
		head := g.partsOf(prefix)
		if len(head) == 0 {
			continue
		}
		// A name counts; a code if written in capitals and known by itself
		// ("TX", "DE") or else if it fits the city before it ("austin tx",
		// "Sao Paulo SP").
		global := sp.code != "" && (len(g.statesByCode(sp.code, "", nil)) > 0 || g.codeCountry(sp) != "")
		if !(named && len(sp.key) > 3) && !(sp.upper && global) && !g.fitsCode(head[len(head)-1], sp) {
			continue
		}
		return append(head, sp)
	}
	return nil
}

// fitsCode reports whether a lower-case code after a city is that city's
// state or country ("austin tx").
func (g *gazetteer) fitsCode(cityPart, code *locPart) bool {
	for _, c := range cityPart.cities {
		for _, st := range g.stateCands(code, "", []string{c.Country}) {
			if c.State == st.Name && c.Country == st.Country {
				return true
			}
		}
		if c.Country == code.country || c.Country == g.codeCountry(code) {
			return true
		}
	}
	return false
}

// stateCands returns the states a part may name: by name (in country when
// given) or by code (in country, else in the United States, Canada,
// Australia and the countries in also).
func (g *gazetteer) stateCands(p *locPart, country string, also []string) []*state {
	var out []*state
	for _, st := range p.states {
		if country == "" || st.Country == country {
			out = append(out, st)
		}
	}
	if p.code != "" {
		for _, st := range g.statesByCode(p.code, country, also) {
			if !containsState(out, st) {
				out = append(out, st)
			}
		}
	}
	return out
}

func containsState(list []*state, st *state) bool {
	for _, s := range list {
		if s == st {
			return true
		}
	}
	return false
}

// locReading is a place read from parts, with the city it is (nil when
// unknown) and its score.
type locReading struct {
	place Place
	city  *city
	state *state
	score int
}

// locRole is what a part is in a place.
type locRole uint8

const (
	roleCity locRole = iota
	roleState
	roleCountry
	roleSkip // an unknown part between or after a city and its state or country
)

// placePatterns are the orders a place's parts come in, the usual ones
// first (an earlier pattern wins a tie), with a penalty for the unusual.
var placePatterns = []struct {
	roles   []locRole
	penalty int
}{
	{[]locRole{roleCity, roleState, roleCountry}, 0},
	{[]locRole{roleCity, roleState}, 0},
	{[]locRole{roleCity, roleCountry}, 0},
	{[]locRole{roleState, roleCountry}, 0},
	{[]locRole{roleCity}, 0},
	{[]locRole{roleState}, 0},
	{[]locRole{roleCountry}, 0},
	{[]locRole{roleCountry, roleState, roleCity}, 3},
	{[]locRole{roleCountry, roleCity}, 3},
	{[]locRole{roleState, roleCity}, 3},
	{[]locRole{roleCountry, roleState}, 3},
	{[]locRole{roleCity, roleSkip, roleCountry}, 10},
	{[]locRole{roleCity, roleSkip, roleState}, 10},
	{[]locRole{roleCity, roleState, roleSkip, roleCountry}, 10},
	// A district or county after a place ("Chicago, IL (Loop)").
	{[]locRole{roleCity, roleSkip}, 10},
	{[]locRole{roleCity, roleState, roleSkip}, 10},
	{[]locRole{roleCity, roleCountry, roleSkip}, 10},
	{[]locRole{roleCity, roleState, roleCountry, roleSkip}, 10},
}

// Scores of a place's reading: what each part is, whether the city lies in
// the state and country read, and the cost of one more place.
const (
	scoreCity        = 30
	scoreUnknownCity = 5
	scoreRegion      = 20 // a state or country
	scoreFits        = 20 // the city lies in the state or country
	scoreMisfits     = -20
	scoreStateFits   = 10 // the state lies in the country
	scorePlace       = -20
	scoreCountryName = -5  // a state read from a country's name ("Mexico", "Taiwan")
	scoreStateName   = -25 // a city read from a country's or a US or Canadian state's name ("Quebec", "Kosovo")
	scoreCityState   = -15 // a city-state's city read from its name ("Singapore")
)

// places reads the parts of a place's text as one or more places: a lone
// part by the most likely reading of its name, several by the segmentation
// into places that scores best.
func (g *gazetteer) places(parts []*locPart) []locReading {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		if r, ok := g.lone(parts[0]); ok {
			return []locReading{r}
		}
		return nil
	}
	type cell struct {
		ok            bool
		score, places int
		prev          int
		r             locReading
	}
	best := make([]cell, len(parts)+1)
	best[0].ok = true
	for i := range parts {
		if !best[i].ok {
			continue
		}
		for _, pat := range placePatterns {
			j := i + len(pat.roles)
			if j > len(parts) {
				continue
			}
			r, ok := g.read(parts[i:j], pat.roles)
			if !ok {
				continue
			}
			score, places := best[i].score+r.score-pat.penalty, best[i].places+1
			if c := best[j]; !c.ok || score > c.score || (score == c.score && places < c.places) {
				best[j] = cell{ok: true, score: score, places: places, prev: i, r: r}
			}
		}
	}
	if !best[len(parts)].ok {
		return nil
	}
	var out []locReading
	for j := len(parts); j > 0; j = best[j].prev {
		out = append(out, best[j].r)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// read scores parts as one place whose parts play the roles given.
func (g *gazetteer) read(parts []*locPart, roles []locRole) (locReading, bool) {
	var cp, sp, kp *locPart
	for i, r := range roles {
		switch r {
		case roleCity:
			cp = parts[i]
		case roleState:
			sp = parts[i]
		case roleCountry:
			kp = parts[i]
		case roleSkip:
			if g.known(parts[i]) {
				return locReading{}, false
			}
		}
	}
	r := locReading{score: scorePlace}
	if kp != nil {
		if r.place.Country = kp.country; r.place.Country == "" {
			r.place.Country = g.codeCountry(kp)
		}
		if r.place.Country == "" {
			return r, false
		}
		r.score += scoreRegion
	}
	if cp != nil && len(cp.cities) == 0 && g.known(cp) {
		return r, false // a state or country is no unknown city
	}
	if cp != nil && roles[0] != roleCity {
		// A place written region first ("Germany, Berlin"): its city must
		// be known unless both state and country lead ("US-CA-Smallville"),
		// and a region that is a curated city's name is that city ("Berlin
		// (Mitte)").
		if (len(cp.cities) == 0 && (sp == nil || kp == nil)) || (sp != nil && ownsKey(sp)) || (kp != nil && ownsKey(kp)) {
			return r, false
		}
	}
	home := g.homeState(cp)
	var sts []*state
	if sp != nil {
		var also []string
		if cp != nil {
			for _, c := range cp.cities {
				if !containsString(also, c.Country) {
					also = append(also, c.Country)
				}
			}
		}
		if sts = g.stateCands(sp, r.place.Country, also); len(sts) == 0 {
			return r, false
		}
		r.score += scoreRegion
		// A country's name read as a state: only a state of its own
		// (England), and not one known from reference data only (Taiwan).
		if sp.country != "" && kp == nil && (g.official[sp.key] || sts[0].ref) {
			r.score += scoreCountryName
		}
	}
	if cp == nil {
		if len(sts) > 0 {
			r.state = sts[0]
			r.place.State = sts[0].Name
			if kp != nil {
				r.score += scoreStateFits
			}
		}
		return r, true
	}
	// The state under which the city fits best.
	bestScore, found := 0, false
	var bestState *state
	var bestCity *city
	for i := 0; i == 0 || i < len(sts); i++ {
		var st *state
		if len(sts) > 0 {
			st = sts[i]
		}
		score := scoreUnknownCity
		var chosen *city
		if len(cp.cities) > 0 {
			score = scoreCity
			switch {
			case (home != nil && !g.ownsName(cp, home)) || (cp.country != "" && !ownsKey(cp)):
				score += scoreStateName
			case cp.country != "":
				score += scoreCityState // "Singapore": after a city, its country
			}
			inState, inCountry := false, false
			for _, c := range cp.cities {
				okState := st == nil || (c.State == st.Name && c.Country == st.Country)
				okCountry := r.place.Country == "" || c.Country == r.place.Country
				inState = inState || okState
				inCountry = inCountry || okCountry
				if okState && okCountry && chosen == nil {
					chosen = c
				}
			}
			if st != nil {
				score += choose(inState, scoreFits, scoreMisfits)
			}
			if kp != nil {
				score += choose(inCountry, scoreFits, scoreMisfits)
			}
		}
		if st != nil && kp != nil {
			score += scoreStateFits
		}
		if !found || score > bestScore {
			bestScore, bestState, bestCity, found = score, st, chosen, true
		}
	}
	r.score += bestScore
	r.state, r.city = bestState, bestCity
	if bestState != nil {
		r.place.State = bestState.Name
	}
	r.place.City = g.cityName(cp, bestCity)
	return r, true
}

func choose(cond bool, yes, no int) int {
	if cond {
		return yes
	}
	return no
}

// cityName spells the city of a part: the chosen city's name, else the
// name of a city spelled like the part ("springfield" → Springfield), else
// the part as written.
func (g *gazetteer) cityName(p *locPart, c *city) string {
	if c != nil {
		return c.Name
	}
	for _, c := range p.cities {
		if name := cleanPart(c.Name); placeKey(name) == p.key && codeOf(name) == p.code {
			return name
		}
	}
	return p.text
}

// lone reads a part that is a place by itself, in this order: a name or
// alias of cities.json, as the first city it names (unless it is a US or
// Canadian state's name and not in that state: "Washington" is the state),
// a US or Canadian state, a country (England
// and the like are states of their country), another state (unless a city
// of the same name lies in it: "Berlin"), any city, a state of reference
// data, a code (US and Canadian states, countries, Australian states), and
// an unknown name as given.
func (g *gazetteer) lone(p *locPart) (locReading, bool) {
	home := g.homeState(p)
	cityReading := func(c *city) locReading {
		return locReading{place: Place{City: c.Name}, city: c}
	}
	stateReading := func(st *state) locReading {
		return locReading{place: Place{State: st.Name}, state: st}
	}
	if c := leadingCity(p); c != nil && (home == nil || g.ownsName(p, home)) {
		return cityReading(c), true
	}
	if home != nil {
		return stateReading(home), true
	}
	if p.country != "" {
		if !g.official[p.key] {
			for _, st := range p.states {
				if st.Country == p.country {
					return stateReading(st), true
				}
			}
		}
		return locReading{place: Place{Country: p.country}}, true
	}
	for _, st := range p.states {
		if st.ref {
			continue
		}
		for _, c := range p.cities {
			if c.State == st.Name && c.Country == st.Country {
				return cityReading(c), true
			}
		}
		return stateReading(st), true
	}
	if len(p.cities) > 0 {
		return cityReading(p.cities[0]), true
	}
	if len(p.states) > 0 {
		return stateReading(p.states[0]), true
	}
	if p.code != "" {
		if sts := g.statesByCode(p.code, usName, nil); len(sts) > 0 {
			return stateReading(sts[0]), true
		}
		if sts := g.statesByCode(p.code, caName, nil); len(sts) > 0 {
			return stateReading(sts[0]), true
		}
		if c := g.codeCountry(p); c != "" {
			return locReading{place: Place{Country: c}}, true
		}
		if sts := g.statesByCode(p.code, auName, nil); len(sts) > 0 {
			return stateReading(sts[0]), true
		}
	}
	if nameLike(p.text) {
		return locReading{place: Place{City: p.text}}, true
	}
	return locReading{}, false
}

// homeState returns the US or Canadian state the part names by name, if
// any.
func (g *gazetteer) homeState(p *locPart) *state {
	if p == nil {
		return nil
	}
	for _, st := range p.states {
		if st.Country == usName || st.Country == caName {
			return st
		}
	}
	return nil
}

// ownsName reports whether a part naming the US or Canadian state home is
// rather the curated city of that name in that state ("New York").
func (g *gazetteer) ownsName(p *locPart, home *state) bool {
	c := leadingCity(p)
	return c != nil && c.State == home.Name && c.Country == home.Country
}

// leadingCity returns, when the part is the name or alias of a curated
// city, the first of its cities it names (by their order: with reference
// data the most populous, "Cambridge" England's rather than
// Massachusetts'), else nil.
func leadingCity(p *locPart) *city {
	var first *city
	for _, c := range p.cities {
		owns := c.curated > 0 && containsString(c.keys, p.key)
		if first == nil && (owns || placeKey(c.Name) == p.key) {
			first = c
		}
		if owns {
			return first
		}
	}
	return nil
}

// ownsKey reports whether the part is the name or alias of a curated city.
func ownsKey(p *locPart) bool {
	return slices.ContainsFunc(p.cities, func(c *city) bool { return c.curated > 0 && containsString(c.keys, p.key) })
}

// stable returns the place read, with the state and then the country of
// its city or state added when the text "City, State, Country" of the
// place alone would be read as another place (a city named like a bigger
// one, "DC" whose city Washington alone is the state). When no such text
// reads as the place, it returns the places its text reads as, made stable
// the same way. Normalized text so reads back to the same places.
func (g *gazetteer) stable(r locReading) []Place {
	p, ok := g.enrich(r)
	if ok {
		return []Place{p}
	}
	var out []Place
	for _, r := range g.readText(placeText(r.place), &ParsedLocation{}) {
		q, ok := g.enrich(r)
		if !ok {
			return []Place{p}
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return []Place{p}
	}
	return out
}

// enrich returns the place of r with the state and then the country of
// its city or state added until its text reads as it, and whether it does.
func (g *gazetteer) enrich(r locReading) (Place, bool) {
	p := r.place
	for {
		if again := g.reread(p); len(again) == 1 && again[0] == p {
			return p, true
		}
		switch {
		case p.State == "" && r.city != nil && r.city.State != "":
			p.State = r.city.State
		case p.Country == "" && r.city != nil:
			p.Country = r.city.Country
		case p.Country == "" && r.state != nil:
			p.Country = r.state.Country
		default:
			return p, false
		}
	}
}

// placeText is the text "City, State, Country" of p.
func placeText(p Place) string {
	var parts []string
	for _, s := range []string{p.City, p.State, p.Country} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// reread returns the places the text of p reads as.
func (g *gazetteer) reread(p Place) []Place {
	var out []Place
	for _, r := range g.readText(placeText(p), &ParsedLocation{}) {
		out = append(out, r.place)
	}
	return out
}
