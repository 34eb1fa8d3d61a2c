// Package places reads places: free location text into cities, states and
// countries (the gazetteer of normalize's cities.json, states.json,
// country_aliases.json and ISO 3166, with GeoNames' cities when the
// reference data is given), canonical names, the points of cities and the
// distances between them, and a job's work arrangement stated in its
// location. The Normalizer (package normalize) is its front.
package places

import (
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"

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

// CityName returns the canonical name of a city ("SF" → San Francisco,
// "Austin, TX" → Austin), or s trimmed when unknown (as is any text longer
// than MaxLocationLength, and so for State and Country).
func (g *Gazetteer) CityName(s string) string {
	s = fold.Collapse(s)
	if fold.TooLong(s, MaxLocationLength) {
		return s
	}
	if c, ok := g.FindCity(s, "", ""); ok {
		// A city whose name is first another's ("Saint-Louis", Senegal)
		// is kept as given.
		if d, ok := g.FindCity(c.Name, "", ""); ok && d.Name == c.Name {
			return c.Name
		}
		return s
	}
	if strings.ContainsAny(s, ",-(/ ") {
		if p := g.Parse(s); len(p.Places) == 1 && p.Places[0].City != "" {
			if c, ok := g.FindCity(p.Places[0].City, "", ""); ok && c.Name == p.Places[0].City {
				return c.Name
			}
		}
	}
	return s
}

// StateName returns the canonical name of a state or province ("CA" →
// California, "Bayern" → Bavaria), or s trimmed when unknown.
func (g *Gazetteer) StateName(s string) string {
	s = fold.Collapse(s)
	if fold.TooLong(s, MaxLocationLength) {
		return s
	}
	if st, ok := g.state(s, ""); ok {
		return st.Name
	}
	return s
}

// CountryName returns the canonical name of a country ("USA" → United States),
// or s trimmed when unknown.
func (g *Gazetteer) CountryName(s string) string {
	s = fold.Collapse(s)
	if fold.TooLong(s, MaxLocationLength) {
		return s
	}
	if c, ok := g.country(s); ok {
		return c
	}
	return s
}

// Complete returns p with the state and country it implies filled in, as
// an imported job records them: those of its city when the city is known
// and fits, the country of its state. ParseLocation leaves them out where
// the text reads back without them.
func (g *Gazetteer) Complete(p Place) Place {
	if p.City != "" {
		if c, ok := g.FindCity(p.City, p.State, p.Country); ok {
			if p.State == "" {
				p.State = c.State
			}
			if p.Country == "" {
				p.Country = c.Country
			}
		}
	}
	if p.State != "" && p.Country == "" {
		if st, ok := g.state(p.State, ""); ok {
			p.Country = st.Country
		}
	}
	return p
}

// Parse reads free location text: places separated by ";", "|",
// "/", " or ", " and ", " & " or listed city after city, each "city,
// state, country" with any part left out, in any order or without commas
// ("Austin TX", "US-CA-San Francisco"), with postal codes, metro names
// ("Bay Area"), regions ("EMEA", left out) and remote, hybrid or on-site
// phrases. Places hold what the text says, canonically spelled; the state
// or country a city implies is added only where the city's name alone
// would be read as another place. A text longer than MaxLocationLength
// names nothing.
func (g *Gazetteer) Parse(text string) ParsedLocation {
	var out ParsedLocation
	if fold.TooLong(text, MaxLocationLength) {
		return out
	}
	for _, r := range g.readText(text, &out) {
		for _, p := range g.stable(r) {
			if !slices.Contains(out.Places, p) {
				out.Places = append(out.Places, p)
			}
		}
	}
	return out
}

// MaxLocationLength is the most characters of location text the gazetteer
// reads: a longer text names nothing.
const MaxLocationLength = 1000
