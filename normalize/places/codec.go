// Gazetteer codec: the compiled gazetteer written to and read from normalize's cache file.

package places

import (
	"math"

	"github.com/jobsd-dev/jobsd/internal/wire"
)

// Encode writes the gazetteer (for normalize's cache of the compiled
// reference data), its cities and states once each, in tables its maps
// refer to by index; Decode reads it back with the same sharing.
func (g *Gazetteer) Encode(e *wire.Writer) {
	var cities wire.Table[*City]
	for _, m := range []map[string][]*City{g.cities, g.curated} {
		for _, l := range m {
			for _, c := range l {
				cities.Add(c)
			}
		}
	}
	var states wire.Table[*state]
	for _, m := range []map[string][]*state{g.states, g.codes} {
		for _, l := range m {
			for _, s := range l {
				states.Add(s)
			}
		}
	}
	e.Uvarint(uint64(len(cities.Items)))
	for _, c := range cities.Items {
		e.String(c.Name)
		e.String(c.State)
		e.String(c.Country)
		e.Strings(c.Aliases)
		e.Varint(int64(c.population))
		e.Varint(int64(c.curated))
		e.Varint(int64(math.Round(c.Lat * 1e4)))
		e.Varint(int64(math.Round(c.Lng * 1e4)))
		e.Strings(c.keys)
		e.Bool(c.merged)
	}
	e.Uvarint(uint64(len(states.Items)))
	for _, s := range states.Items {
		e.String(s.Name)
		e.String(s.Country)
		e.String(s.Code)
		e.Bool(s.ref)
	}
	cityList, stateList := refListWriter(e, &cities), refListWriter(e, &states)
	wire.WriteMap(e, g.cities, e.String, cityList)
	wire.WriteMap(e, g.states, e.String, stateList)
	wire.WriteMap(e, g.codes, e.String, stateList)
	wire.WriteMap(e, g.curated, e.String, cityList)
	e.StringMap(g.countries)
	e.StringSet(g.official)
	e.StringMap(g.ccodes)
	e.StringSet(g.regions)
}

// Decode reads a gazetteer Encode wrote; d's error says what was wrong.
func Decode(d *wire.Reader) *Gazetteer {
	cities := make([]City, d.Count(1))
	cityRefs := make([]*City, len(cities))
	for i := range cities {
		cities[i] = City{Name: d.View(), State: d.View(), Country: d.View(), Aliases: d.Views(),
			population: int(d.Varint()), curated: int(d.Varint()), Lat: float64(d.Varint()) / 1e4, Lng: float64(d.Varint()) / 1e4,
			keys: d.Views(), merged: d.Bool()}
		cityRefs[i] = &cities[i]
	}
	states := make([]state, d.Count(1))
	stateRefs := make([]*state, len(states))
	for i := range states {
		states[i] = state{Name: d.View(), Country: d.View(), Code: d.View(), ref: d.Bool()}
		stateRefs[i] = &states[i]
	}
	cityList, stateList := refListReader(d, cityRefs), refListReader(d, stateRefs)
	return &Gazetteer{
		cities: wire.ReadMap(d, d.View, cityList), states: wire.ReadMap(d, d.View, stateList),
		codes: wire.ReadMap(d, d.View, stateList), curated: wire.ReadMap(d, d.View, cityList),
		countries: d.ViewMap(), official: d.ViewSet(), ccodes: d.ViewMap(), regions: d.ViewSet(),
	}
}

// refListWriter returns a writer of lists of t's values (a map's lists of
// cities or of states): a length, then each value by its number in t.
func refListWriter[T comparable](e *wire.Writer, t *wire.Table[T]) func([]T) {
	return func(l []T) {
		e.Uvarint(uint64(len(l)))
		for _, v := range l {
			t.WriteRef(e, v)
		}
	}
}

// refListReader returns a reader of the lists refListWriter wrote, their
// values from refs (the table's values read back, in its order).
func refListReader[T any](d *wire.Reader, refs []T) func() []T {
	return func() []T {
		l := make([]T, d.Count(1))
		for i := range l {
			l[i] = wire.ReadRef(d, refs)
		}
		return l
	}
}
