// Place reference data: GeoNames' cities and first-level subdivisions added to the gazetteer.

package places

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize/refdata"
)

// geoRow is what the gazetteer uses of a row of GeoNames' cities file.
type geoRow struct {
	name, ascii, alternates, feature, country, admin1 string
	population                                        int
	lat, lng                                          float64
}

// LoadGeoNames adds GeoNames' cities (over 15,000 people) and first-level
// subdivisions to the gazetteer (dir is the reference data's locations/).
// A curated city takes the alternate names, the subdivision and the
// population of its GeoNames row; a name's candidates are then ranked by
// population (compareCities), so "Portland" is Oregon's, "Cambridge"
// England's, and "Cambridge, MA" and "Cambridge, ON" find theirs.
func (g *Gazetteer) LoadGeoNames(dir string) error {
	rows, err := readGeoCities(filepath.Join(dir, "geonames_cities15000.txt.gz"))
	if err != nil {
		return err
	}
	admin1, err := g.loadAdmin1(filepath.Join(dir, "geonames_admin1_codes.tsv"), rows)
	if err != nil {
		return err
	}
	// Most populous first, in file order on a tie (a stable sort, of
	// indices rather than of the rows).
	order := make([]int32, len(rows))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if d := rows[b].population - rows[a].population; d != 0 {
			return d
		}
		return int(a - b)
	})
	cities := make(map[string][]*City, 6*len(rows))
	for k, cs := range g.cities {
		cities[k] = cs
	}
	g.cities = cities
	type cityID struct{ name, state, country string }
	added := make(map[cityID]bool, len(rows))
	var keys []string
	var kb keyBuf
	for _, i := range order {
		r := &rows[i]
		country := g.ccodes[r.country]
		if country == "" {
			continue
		}
		stateName := ""
		if st := admin1[r.country+"."+r.admin1]; st != nil {
			stateName = st.Name
		}
		keys = kb.appendKeys(keys[:0], r.name)
		if r.ascii != r.name {
			keys = kb.appendKeys(keys, r.ascii)
		}
		for alts := r.alternates; alts != ""; {
			alt, rest, _ := strings.Cut(alts, ",")
			if usableAlternate(alt) {
				keys = kb.appendKeys(keys, alt)
			}
			alts = rest
		}
		if c := g.curatedCity(keys, stateName, country); c != nil {
			c.merged = true
			if c.State == "" {
				c.State = stateName
			}
			c.population = r.population
			c.Lat, c.Lng = r.lat, r.lng
			g.addCityKeys(c, keys)
			continue
		}
		id := cityID{r.name, stateName, country}
		// Sections of cities (PPLX: "Mitte", "Upper West Side") are no
		// cities of their own.
		if added[id] || r.feature == "PPLX" {
			continue
		}
		added[id] = true
		g.addCityKeys(&City{Name: r.name, State: stateName, Country: country, population: r.population, Lat: r.lat, Lng: r.lng}, keys)
	}
	for k, cs := range g.cities {
		if len(cs) > 1 {
			parts := cityParts(k, cs)
			slices.SortStableFunc(cs, func(a, b *City) int { return compareCities(k, a, b, parts) })
		}
	}
	return nil
}

// compareCities orders the candidates of key k: the cities it names
// before those it is an alternate name of; curated cities GeoNames lacks
// first, in file order; the others by population, a curated one first on
// a tie. A city k names is one it is the name of, or for a curated city an
// alias of, unless it is among parts. A bare name so reads as the most
// populous city of that name ("Cambridge" is England's), and context
// decides the others ("Cambridge, MA"); without reference data the
// curated order stands.
func compareCities(k string, a, b *City, parts map[*City]bool) int {
	rank := func(c *City) int {
		switch {
		case c.curated > 0 && c.population == 0 && slices.Contains(c.keys, k):
			return 0
		case c.curated > 0 && slices.Contains(c.keys, k), placeKey(c.Name) == k && !parts[c]:
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
	case a.population != b.population:
		return b.population - a.population
	case (a.curated > 0) != (b.curated > 0):
		return b.curated - a.curated // the curated one first
	}
	return a.curated - b.curated
}

// cityParts returns the cities of reference data among cs that key k is
// the name of and also an alternate name of a more populous city of their
// country among cs: parts of that city, or it under an older name, with
// the population of a district ("Victoria", Hong Kong, 956,800 people, is
// an alternate name of Hong Kong). Such a city does not decide what the
// name alone means. Nil when there are none.
func cityParts(k string, cs []*City) map[*City]bool {
	var parts map[*City]bool
	var named []bool
	for i, c := range cs {
		if c.curated > 0 || placeKey(c.Name) != k {
			continue
		}
		if named == nil {
			named = make([]bool, len(cs))
			for j, d := range cs {
				named[j] = placeKey(d.Name) == k || (d.curated > 0 && slices.Contains(d.keys, k))
			}
		}
		for j, d := range cs {
			if j != i && !named[j] && d.Country == c.Country && d.population > c.population {
				if parts == nil {
					parts = map[*City]bool{}
				}
				parts[c] = true
				break
			}
		}
	}
	return parts
}

// appendKeys appends the keys of name that keys lacks.
func appendKeys(keys []string, name string) []string {
	var kb keyBuf
	return kb.appendKeys(keys, name)
}

// curatedCity returns the curated city a GeoNames row with these name keys
// is, if any: same name, same country, and same state unless the curated
// one has none.
func (g *Gazetteer) curatedCity(keys []string, stateName, country string) *City {
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
// file: name, asciiname, alternatenames, latitude, longitude, feature
// code, country code, admin1 code and population. The rows' strings share the file's text,
// but for the names (which cities keep): the rest is let go with the rows.
func readGeoCities(path string) ([]geoRow, error) {
	zr, err := refdata.Open(path)
	if err != nil {
		return nil, fmt.Errorf("geonames cities: %w", err)
	}
	defer zr.Close()
	var buf strings.Builder
	buf.Grow(8 << 20)
	if _, err := io.Copy(&buf, zr); err != nil {
		return nil, fmt.Errorf("geonames cities: %w", err)
	}
	text := buf.String()
	rows := make([]geoRow, 0, 33000)
	var cols [15]string
	for line := 1; text != ""; line++ {
		var rest string
		rest, text, _ = strings.Cut(text, "\n")
		rest = strings.TrimSuffix(rest, "\r")
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
		lat, errLat := strconv.ParseFloat(cols[4], 64)
		lng, errLng := strconv.ParseFloat(cols[5], 64)
		if errLat != nil || errLng != nil || math.Abs(lat) > 90 || math.Abs(lng) > 180 {
			return nil, fmt.Errorf("geonames cities line %d: coordinates %q, %q are not degrees", line, cols[4], cols[5])
		}
		rows = append(rows, geoRow{
			name: strings.Clone(cols[1]), ascii: cols[2], alternates: cols[3],
			feature: cols[7], country: cols[8], admin1: cols[10],
			population: pop, lat: domain.RoundCoordinate(lat), lng: domain.RoundCoordinate(lng),
		})
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

// stripAdmin1 returns the key of a GeoNames subdivision name without the
// words around it that the ISO names lack.
func stripAdmin1(name string) string {
	k := placeKey(name)
	for _, p := range admin1Affixes.prefixes {
		k = strings.TrimPrefix(k, p)
	}
	for _, s := range admin1Affixes.suffixes {
		k = strings.TrimSuffix(k, s)
	}
	return k
}

// adminWords are the words of subdivision names that say what kind of
// subdivision it is rather than which: "Community of Madrid", "Buenos
// Aires F.D.", "Bogota D.C.", "The Marches", "Valencian Community".
var adminWords = map[string]bool{
	"the": true, "of": true, "de": true, "del": true, "state": true, "city": true, "region": true,
	"community": true, "autonomous": true, "province": true, "department": true, "county": true,
	"district": true, "territory": true, "federal": true, "capital": true, "metropolitan": true,
	"fd": true, "dc": true, "municipality": true, "prefecture": true, "governorate": true,
}

// coreWords returns the words of key k that name the subdivision: those
// not in adminWords, or all of them when every one is.
func coreWords(k string) []string {
	words := strings.Fields(k)
	var core []string
	for _, w := range words {
		if !adminWords[w] {
			core = append(core, w)
		}
	}
	if len(core) == 0 {
		return words
	}
	return core
}

// similarNames reports whether two subdivision name keys are spellings of
// one name: their core words equal, one's a run of the other's ("Rhône-
// Alpes" in "Auvergne-Rhône-Alpes", "Centre" in "Centre-Val de Loire"), one
// a prefix of the other of six letters or more ("Marches", "Marche";
// "Valencia", "Valencian"), or a letter or two apart ("Basilicate",
// "Basilicata"; "Castille-La Mancha", "Castilla-La Mancha").
func similarNames(a, b string) bool {
	wa, wb := coreWords(a), coreWords(b)
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	for i := 0; i+len(wa) <= len(wb); i++ {
		if slices.Equal(wa, wb[i:i+len(wa)]) {
			return true
		}
	}
	ca, cb := strings.Join(wa, " "), strings.Join(wb, " ")
	if len(ca) >= 6 && strings.HasPrefix(cb, ca) {
		return true
	}
	if len(ca) > len(cb) {
		ca, cb = cb, ca
	}
	switch d := editDistance(ca, cb, 3); {
	case len(ca) >= 12:
		return d <= 2
	case len(ca) >= 6:
		return d <= 1
	}
	return false
}

// editDistance returns the Levenshtein distance of a and b in bytes, or
// limit when it is limit or more.
func editDistance(a, b string, limit int) int {
	if len(b)-len(a) >= limit || len(a)-len(b) >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// admin1Row is a row of GeoNames' admin1 file.
type admin1Row struct {
	code, country, name, ascii string // code "CC.code"; country canonical
}

// loadAdmin1 reads GeoNames' first-level subdivisions and returns the
// states they are by "CC.code". Each is the state the gazetteer has that
// it names within its country (by its US postal code, or by name: the
// same, a similar spelling of one ISO state alone, or the state most of
// the curated cities among its GeoNames cities are in); GeoNames' names of
// it become its aliases. The others are added as states of reference
// data.
func (g *Gazetteer) loadAdmin1(path string, cities []geoRow) (map[string]*state, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []admin1Row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		cc, _, _ := strings.Cut(cols[0], ".")
		if country := g.ccodes[cc]; country != "" {
			rows = append(rows, admin1Row{code: cols[0], country: country, name: cols[1], ascii: cols[2]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("geonames admin1: %w", err)
	}
	out := make(map[string]*state, len(rows))
	// The same name or code.
	claimed := map[*state]bool{}
	for _, r := range rows {
		if st := g.sameState(r); st != nil {
			out[r.code], claimed[st] = st, true
		}
	}
	// A similar spelling of one state not named so by another row.
	isoKeys := g.isoStateKeys()
	for _, r := range rows {
		if out[r.code] != nil {
			continue
		}
		var match *state
		for _, ik := range isoKeys[r.country] {
			if claimed[ik.st] || ik.st == match {
				continue
			}
			if similarNames(placeKey(r.name), ik.key) || similarNames(placeKey(r.ascii), ik.key) {
				if match != nil {
					match = nil
					break
				}
				match = ik.st
			}
		}
		if match != nil {
			out[r.code] = match
		}
	}
	// The state most curated cities among its cities are in.
	for code, st := range g.admin1ByCities(rows, out, cities) {
		out[code] = st
	}
	for _, r := range rows {
		st := out[r.code]
		if st == nil {
			st = &state{Name: r.name, Country: r.country, ref: true}
			g.addState(st, r.ascii, stripAdmin1(r.name))
			out[r.code] = st
			continue
		}
		// GeoNames' names of an ISO state are its aliases, where they name
		// no other state of its country; without their affixes too
		// ("Nasarawa State"), unless its name has them ("Northern
		// Territory" is no "Northern").
		names := []string{r.name, r.ascii}
		if !strings.Contains(placeKey(st.Name), placeKey(r.name)) {
			names = append(names, stripAdmin1(r.name))
		}
		for _, name := range names {
			for _, k := range nameKeys(name) {
				if k != "" && !slices.ContainsFunc(g.states[k], func(s *state) bool { return s.Country == st.Country }) {
					g.states[k] = append(g.states[k], st)
				}
			}
		}
	}
	return out, nil
}

// sameState returns the state of the gazetteer a GeoNames subdivision is
// by its US postal code or its name, nil if none.
func (g *Gazetteer) sameState(r admin1Row) *state {
	if r.country == usName {
		_, code, _ := strings.Cut(r.code, ".")
		if sts := g.statesByCode(code, usName, nil); len(sts) > 0 {
			return sts[0]
		}
	}
	for _, k := range []string{placeKey(r.name), placeKey(r.ascii), stripAdmin1(r.name)} {
		for _, s := range g.states[k] {
			if s.Country == r.country && !s.ref {
				return s
			}
		}
	}
	return nil
}

// isoStateKey is a key an ISO state is found by.
type isoStateKey struct {
	key string
	st  *state
}

// isoStateKeys returns the keys of the ISO states by country, in a stable
// order.
func (g *Gazetteer) isoStateKeys() map[string][]isoStateKey {
	out := map[string][]isoStateKey{}
	for k, sts := range g.states {
		for _, st := range sts {
			if !st.ref {
				out[st.Country] = append(out[st.Country], isoStateKey{k, st})
			}
		}
	}
	for _, list := range out {
		slices.SortFunc(list, func(a, b isoStateKey) int {
			return strings.Compare(a.st.Name+"\x00"+a.key, b.st.Name+"\x00"+b.key)
		})
	}
	return out
}

// admin1ByCities returns, for the subdivisions of countries with ISO
// states that out lacks, the state most of the curated cities among their
// GeoNames cities are in (by name within the country), when more are in it
// than in any other.
func (g *Gazetteer) admin1ByCities(rows []admin1Row, out map[string]*state, cities []geoRow) map[string]*state {
	open := map[string]bool{}
	for _, r := range rows {
		if out[r.code] == nil {
			open[r.code] = true
		}
	}
	votes := map[string]map[*state]int{}
	var keys []string
	var kb keyBuf
	for _, r := range cities {
		code := r.country + "." + r.admin1
		if !open[code] {
			continue
		}
		country := g.ccodes[r.country]
		keys = kb.appendKeys(keys[:0], r.name)
		if r.ascii != r.name {
			keys = kb.appendKeys(keys, r.ascii)
		}
		for _, k := range keys {
			voted := false
			for _, c := range g.curated[k] {
				if c.Country != country || c.State == "" {
					continue
				}
				if st, ok := g.state(c.State, country); ok && !st.ref {
					if votes[code] == nil {
						votes[code] = map[*state]int{}
					}
					votes[code][st]++
					voted = true
				}
			}
			if voted {
				break
			}
		}
	}
	won := map[string]*state{}
	for code, tally := range votes {
		best, bestN, tie := (*state)(nil), 0, false
		for st, n := range tally {
			switch {
			case n > bestN:
				best, bestN, tie = st, n, false
			case n == bestN:
				tie = true
			}
		}
		if !tie {
			won[code] = best
		}
	}
	return won
}
