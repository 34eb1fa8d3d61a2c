// Place readings: the scored readings of a place's parts, and places made stable so they read back the same.

package places

import (
	"slices"
	"strings"
)

// locReading is a place read from parts, with the city it is (nil when
// unknown) and its score.
type locReading struct {
	place Place
	city  *City
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
func (g *Gazetteer) places(parts []*locPart) []locReading {
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
func (g *Gazetteer) read(parts []*locPart, roles []locRole) (locReading, bool) {
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
				if !slices.Contains(also, c.Country) {
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
	var bestCity *City
	for i := 0; i == 0 || i < len(sts); i++ {
		var st *state
		if len(sts) > 0 {
			st = sts[i]
		}
		score := scoreUnknownCity
		var chosen *City
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
func (g *Gazetteer) cityName(p *locPart, c *City) string {
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
func (g *Gazetteer) lone(p *locPart) (locReading, bool) {
	home := g.homeState(p)
	cityReading := func(c *City) locReading {
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
func (g *Gazetteer) homeState(p *locPart) *state {
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
func (g *Gazetteer) ownsName(p *locPart, home *state) bool {
	c := leadingCity(p)
	return c != nil && c.State == home.Name && c.Country == home.Country
}

// leadingCity returns, when the part is the name or alias of a curated
// city, the first of its cities it names (by their order: with reference
// data the most populous, "Cambridge" England's rather than
// Massachusetts'), else nil.
func leadingCity(p *locPart) *City {
	var first *City
	for _, c := range p.cities {
		owns := c.curated > 0 && slices.Contains(c.keys, p.key)
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
	return slices.ContainsFunc(p.cities, func(c *City) bool { return c.curated > 0 && slices.Contains(c.keys, p.key) })
}

// stable returns the place read, with the state and then the country of
// its city or state added when the text "City, State, Country" of the
// place alone would be read as another place (a city named like a bigger
// one, "DC" whose city Washington alone is the state). When no such text
// reads as the place, it returns the places its text reads as, made stable
// the same way. Normalized text so reads back to the same places.
func (g *Gazetteer) stable(r locReading) []Place {
	p, ok := g.enrich(r)
	if ok {
		return []Place{p}
	}
	var out []Place
	for _, r := range g.readText(PlaceText(r.place), &ParsedLocation{}) {
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
func (g *Gazetteer) enrich(r locReading) (Place, bool) {
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

// PlaceText is the text "City, State, Country" of p.
func PlaceText(p Place) string {
	var parts []string
	for _, s := range []string{p.City, p.State, p.Country} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// reread returns the places the text of p reads as.
func (g *Gazetteer) reread(p Place) []Place {
	var out []Place
	for _, r := range g.readText(PlaceText(p), &ParsedLocation{}) {
		out = append(out, r.place)
	}
	return out
}
