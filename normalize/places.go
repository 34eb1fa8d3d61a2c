// Places: the Normalizer's place methods, over package places' gazetteer.

package normalize

import "github.com/jobsd-dev/jobsd/normalize/places"

// The places' types, as package places names them.
type (
	// Place is one location: a city, state and country, each "" when
	// unknown.
	Place = places.Place
	// ParsedLocation is free location text understood: its places and the
	// work arrangement it states.
	ParsedLocation = places.ParsedLocation
)

// City returns the canonical name of a city ("SF" → San Francisco,
// "Austin, TX" → Austin), or s trimmed when unknown (as is any text longer
// than MaxLocationLength, and so for State and Country).
func (n *Normalizer) City(s string) string { return n.geo.CityName(s) }

// State returns the canonical name of a state or province ("CA" →
// California, "Bayern" → Bavaria), or s trimmed when unknown.
func (n *Normalizer) State(s string) string { return n.geo.StateName(s) }

// Country returns the canonical name of a country ("USA" → United States),
// or s trimmed when unknown.
func (n *Normalizer) Country(s string) string { return n.geo.CountryName(s) }

// Complete returns p with the state and country it implies filled in, as
// an imported job records them (places.Gazetteer.Complete).
func (n *Normalizer) Complete(p Place) Place { return n.geo.Complete(p) }

// ParseLocation reads free location text into its places and the work
// arrangement it states (places.Gazetteer.Parse); a text longer than
// MaxLocationLength names nothing.
func (n *Normalizer) ParseLocation(text string) ParsedLocation { return n.geo.Parse(text) }
