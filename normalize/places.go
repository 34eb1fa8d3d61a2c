// Places: the Place and ParsedLocation types and the Normalizer's place methods.

package normalize

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

// City returns the canonical name of a city ("SF" → San Francisco,
// "Austin, TX" → Austin), or s trimmed when unknown (as is any text longer
// than MaxLocationLength, and so for State and Country).
func (n *Normalizer) City(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if fold.TooLong(s, MaxLocationLength) {
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
	if fold.TooLong(s, MaxLocationLength) {
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
	if fold.TooLong(s, MaxLocationLength) {
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
	if fold.TooLong(text, MaxLocationLength) {
		return out
	}
	for _, r := range n.geo.readText(text, &out) {
		for _, p := range n.geo.stable(r) {
			if !slices.Contains(out.Places, p) {
				out.Places = append(out.Places, p)
			}
		}
	}
	return out
}
