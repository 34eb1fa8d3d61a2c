package normalize

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/biter777/countries"
)

// Place is one location: a city, state and country, each "" when unknown.
type Place struct {
	City, State, Country string
}

// ParsedLocation is free location text understood: its places and whether
// it says the work is remote or hybrid.
type ParsedLocation struct {
	Places []Place
	Remote bool
	Hybrid bool
}

type city struct {
	Name    string   `json:"name"`
	State   string   `json:"state"`
	Country string   `json:"country"`
	Aliases []string `json:"aliases"`
	// population ranks reference-data cities; curated ones have none and
	// rank first.
	population int
}

// rank orders a name's candidates: curated cities, then by population.
func (c *city) rank() int {
	if c.population == 0 {
		return math.MaxInt32
	}
	return c.population
}

type state struct {
	Name    string   `json:"name"`
	Code    string   `json:"code"`
	Country string   `json:"country"`
	Aliases []string `json:"aliases"`
}

// gazetteer resolves city, state and country names.
type gazetteer struct {
	cities         map[string][]*city // folded name or alias → candidates, most likely first
	statesByName   map[string][]*state
	statesByCode   map[string][]*state // upper-case postal code
	countryAliases map[string]string
}

func loadGazetteer() (*gazetteer, error) {
	g := &gazetteer{
		cities:         map[string][]*city{},
		statesByName:   map[string][]*state{},
		statesByCode:   map[string][]*state{},
		countryAliases: map[string]string{},
	}
	var cities []*city
	var states []*state
	for name, dst := range map[string]any{"cities.json": &cities, "states.json": &states, "country_aliases.json": &g.countryAliases} {
		b, err := vocabFS.ReadFile("vocab/" + name)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, dst); err != nil {
			return nil, fmt.Errorf("vocabulary %s: %w", name, err)
		}
	}
	for _, c := range cities {
		for _, k := range append([]string{c.Name}, c.Aliases...) {
			g.cities[Fold(k)] = append(g.cities[Fold(k)], c)
		}
	}
	for _, s := range states {
		for _, k := range append([]string{s.Name}, s.Aliases...) {
			g.statesByName[Fold(k)] = append(g.statesByName[Fold(k)], s)
		}
		if s.Code != "" {
			g.statesByCode[s.Code] = append(g.statesByCode[s.Code], s)
		}
	}
	return g, nil
}

// country returns the canonical name of the country s names.
func (g *gazetteer) country(s string) (string, bool) {
	f := Fold(s)
	if f == "" {
		return "", false
	}
	if name, ok := g.countryAliases[f]; ok {
		return name, true
	}
	c := countries.ByName(strings.TrimSpace(s))
	if c == countries.Unknown {
		return "", false
	}
	return c.String(), true
}

// state returns the state s names (a name, alias or postal code), preferring
// one in country when country is given.
func (g *gazetteer) state(s, country string) (*state, bool) {
	cands := g.statesByName[Fold(s)]
	if t := strings.TrimSpace(s); len(cands) == 0 && len(t) <= 3 {
		cands = g.statesByCode[strings.ToUpper(strings.ReplaceAll(t, ".", ""))]
	}
	return pick(cands, func(st *state) bool { return country == "" || st.Country == country })
}

// city returns the city s names that fits the state and country given.
func (g *gazetteer) city(s, state, country string) (*city, bool) {
	return pick(g.cities[Fold(s)], func(c *city) bool {
		return (state == "" || c.State == state) && (country == "" || c.Country == country)
	})
}

func pick[T any](cands []*T, fits func(*T) bool) (*T, bool) {
	for _, c := range cands {
		if fits(c) {
			return c, true
		}
	}
	return nil, false
}

// City returns the canonical name of a city ("SF" → San Francisco), or s
// trimmed when unknown.
func (n *Normalizer) City(s string) string {
	if c, ok := n.geo.city(s, "", ""); ok {
		return c.Name
	}
	return strings.Join(strings.Fields(s), " ")
}

// State returns the canonical name of a state or province ("CA" →
// California), or s trimmed when unknown.
func (n *Normalizer) State(s string) string {
	if st, ok := n.geo.state(s, ""); ok {
		return st.Name
	}
	return strings.Join(strings.Fields(s), " ")
}

// Country returns the canonical name of a country ("USA" → United States),
// or s trimmed when unknown.
func (n *Normalizer) Country(s string) string {
	if c, ok := n.geo.country(s); ok {
		return c
	}
	return strings.Join(strings.Fields(s), " ")
}

// remoteWords and hybridWords mark work arrangements inside location text;
// fillerWords are what is left of such phrases ("Remote - US", "Remote in
// USA", "Hybrid (Austin)").
var (
	remoteWords = map[string]bool{"remote": true, "anywhere": true, "wfh": true, "telecommute": true, "distributed": true, "worldwide": true}
	hybridWords = map[string]bool{"hybrid": true}
	fillerWords = map[string]bool{"in": true, "from": true, "within": true, "based": true, "only": true, "-": true, "–": true, "—": true, "or": true, "first": true, "friendly": true, "ok": true, "work": true, "home": true, "the": true}
	noPlace     = map[string]bool{"multiple locations": true, "various locations": true, "many locations": true, "global": true, "n/a": true, "tbd": true}
)

// ParseLocation reads free location text: several places separated by ";"
// or "|" or " / ", each "city, state, country" with any part left out, and
// remote or hybrid phrases.
func (n *Normalizer) ParseLocation(text string) ParsedLocation {
	var out ParsedLocation
	for _, seg := range splitAny(text, ";", "|", " / ", " or ", " & ") {
		var parts []string
		for _, part := range strings.Split(seg, ",") {
			words := strings.FieldsFunc(part, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ':' })
			kept := words[:0]
			for _, w := range words {
				lw := strings.ToLower(strings.Trim(w, ".!"))
				switch {
				case remoteWords[lw]:
					out.Remote = true
				case hybridWords[lw]:
					out.Hybrid = true
				// A filler word is one in lower case among others: "Remote in
				// USA"; "IN" or "OR" alone is a place code (Indiana, Oregon).
				case fillerWords[lw] && w == lw && len(words) > 1:
				default:
					kept = append(kept, w)
				}
			}
			if p := strings.Trim(strings.Join(kept, " "), " -–—"); p != "" && !noPlace[Fold(p)] {
				parts = append(parts, p)
			}
		}
		if len(parts) > 0 {
			out.Places = append(out.Places, n.resolvePlace(parts))
		}
	}
	return out
}

func splitAny(s string, seps ...string) []string {
	parts := []string{s}
	for _, sep := range seps {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	return parts
}

// resolvePlace reads the parts of one place. The last part is a country or
// a state, a middle part a state or country, the first a city; a lone part
// is a city, else a state, else a country. A short code that could be
// either a state or a country ("CA", "DE", "IN") is read the way that fits
// the city ("Vancouver, CA" is in Canada, "Austin, CA" in California).
func (n *Normalizer) resolvePlace(parts []string) Place {
	g := n.geo
	if len(parts) == 1 {
		s := parts[0]
		if c, ok := g.city(s, "", ""); ok {
			return Place{City: c.Name}
		}
		if st, ok := g.state(s, ""); ok {
			return Place{State: st.Name}
		}
		if c, ok := g.country(s); ok {
			return Place{Country: c}
		}
		return Place{City: n.City(s)}
	}
	var p Place
	rest := parts
	last := rest[len(rest)-1]
	st, isState := g.state(last, "")
	country, isCountry := g.country(last)
	if isState && isCountry {
		// Ambiguous: take the reading under which the city is known, the
		// state when both or neither fit.
		_, cityInState := g.city(rest[0], st.Name, st.Country)
		_, cityInCountry := g.city(rest[0], "", country)
		isCountry = cityInCountry && !cityInState
		isState = !isCountry
	}
	switch {
	case isState:
		p.State = st.Name
		rest = rest[:len(rest)-1]
	case isCountry:
		p.Country = country
		rest = rest[:len(rest)-1]
	}
	if len(rest) > 1 && p.State == "" {
		if st, ok := g.state(rest[len(rest)-1], p.Country); ok {
			p.State = st.Name
			rest = rest[:len(rest)-1]
		}
	}
	if len(rest) > 0 {
		if c, ok := g.city(rest[0], p.State, p.Country); ok {
			p.City = c.Name
		} else {
			p.City = strings.Join(strings.Fields(rest[0]), " ")
		}
	}
	return p
}

// complete fills the state and country a place implies: those of its city
// when the city is known and fits, the country of its state.
func (n *Normalizer) complete(p Place) Place {
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
