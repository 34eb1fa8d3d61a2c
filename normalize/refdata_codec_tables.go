// Reference-data cache body: the gazetteer written and read.

package normalize

import (
	"math"

	"github.com/jobsd-dev/jobsd/internal/wire"
)

func (e *encoder) gazetteer(g *gazetteer) {
	var cities []*city
	for _, m := range []map[string][]*city{g.cities, g.curated} {
		for _, l := range m {
			for _, c := range l {
				if _, ok := e.cities[c]; !ok {
					e.cities[c] = uint32(len(cities))
					cities = append(cities, c)
				}
			}
		}
	}
	var states []*state
	for _, m := range []map[string][]*state{g.states, g.codes} {
		for _, l := range m {
			for _, s := range l {
				if _, ok := e.states[s]; !ok {
					e.states[s] = uint32(len(states))
					states = append(states, s)
				}
			}
		}
	}
	e.Uvarint(uint64(len(cities)))
	for _, c := range cities {
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
	e.Uvarint(uint64(len(states)))
	for _, s := range states {
		e.String(s.Name)
		e.String(s.Country)
		e.String(s.Code)
		e.Bool(s.ref)
	}
	cityList := func(l []*city) {
		e.Uvarint(uint64(len(l)))
		for _, c := range l {
			e.Uvarint(uint64(e.cities[c]))
		}
	}
	stateList := func(l []*state) {
		e.Uvarint(uint64(len(l)))
		for _, s := range l {
			e.Uvarint(uint64(e.states[s]))
		}
	}
	wire.WriteMap(e.Writer, g.cities, e.String, cityList)
	wire.WriteMap(e.Writer, g.states, e.String, stateList)
	wire.WriteMap(e.Writer, g.codes, e.String, stateList)
	wire.WriteMap(e.Writer, g.curated, e.String, cityList)
	e.StringMap(g.countries)
	e.StringSet(g.official)
	e.StringMap(g.ccodes)
	e.StringSet(g.regions)
}

func (d *decoder) gazetteer() *gazetteer {
	cities := make([]city, d.Count(1))
	d.cities = make([]*city, len(cities))
	for i := range cities {
		cities[i] = city{Name: d.View(), State: d.View(), Country: d.View(), Aliases: d.Views(),
			population: int(d.Varint()), curated: int(d.Varint()), Lat: float64(d.Varint()) / 1e4, Lng: float64(d.Varint()) / 1e4,
			keys: d.Views(), merged: d.Bool()}
		d.cities[i] = &cities[i]
	}
	states := make([]state, d.Count(1))
	d.states = make([]*state, len(states))
	for i := range states {
		states[i] = state{Name: d.View(), Country: d.View(), Code: d.View(), ref: d.Bool()}
		d.states[i] = &states[i]
	}
	cityList := func() []*city {
		l := make([]*city, d.Count(1))
		for i := range l {
			if j := d.Index(len(d.cities)); j >= 0 {
				l[i] = d.cities[j]
			}
		}
		return l
	}
	stateList := func() []*state {
		l := make([]*state, d.Count(1))
		for i := range l {
			if j := d.Index(len(d.states)); j >= 0 {
				l[i] = d.states[j]
			}
		}
		return l
	}
	return &gazetteer{
		cities: wire.ReadMap(d.Reader, d.View, cityList), states: wire.ReadMap(d.Reader, d.View, stateList),
		codes: wire.ReadMap(d.Reader, d.View, stateList), curated: wire.ReadMap(d.Reader, d.View, cityList),
		countries: d.ViewMap(), official: d.ViewSet(), ccodes: d.ViewMap(), regions: d.ViewSet(),
	}
}
