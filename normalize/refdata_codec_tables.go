// Reference-data cache body: the gazetteer and the title taxonomy written and read.

package normalize

import (
	"math"

	"github.com/jobsd-dev/jobsd/internal/wire"
)

func (e *encoder) strMap(m map[string]string) { wire.WriteMap(e.Writer, m, e.String, e.String) }
func (e *encoder) setMap(m map[string]bool)   { wire.WriteMap(e.Writer, m, e.String, e.Bool) }
func (e *encoder) i32Map(m map[string]int32) {
	wire.WriteMap(e.Writer, m, e.String, func(i int32) { e.Varint(int64(i)) })
}

func (d *decoder) strMap() map[string]string { return wire.ReadMap(d.Reader, d.View, d.View) }
func (d *decoder) setMap() map[string]bool   { return wire.ReadMap(d.Reader, d.View, d.Bool) }
func (d *decoder) i32Map() map[string]int32  { return wire.ReadMap(d.Reader, d.View, d.Int32) }

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
	e.strMap(g.countries)
	e.setMap(g.official)
	e.strMap(g.ccodes)
	e.setMap(g.regions)
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
			if j := d.index(len(d.cities)); j >= 0 {
				l[i] = d.cities[j]
			}
		}
		return l
	}
	stateList := func() []*state {
		l := make([]*state, d.Count(1))
		for i := range l {
			if j := d.index(len(d.states)); j >= 0 {
				l[i] = d.states[j]
			}
		}
		return l
	}
	return &gazetteer{
		cities: wire.ReadMap(d.Reader, d.View, cityList), states: wire.ReadMap(d.Reader, d.View, stateList),
		codes: wire.ReadMap(d.Reader, d.View, stateList), curated: wire.ReadMap(d.Reader, d.View, cityList),
		countries: d.strMap(), official: d.setMap(), ccodes: d.strMap(), regions: d.setMap(),
	}
}

func (e *encoder) taxonomy(t *taxonomy) {
	x := &t.lex
	e.setMap(x.noise)
	e.setMap(x.units)
	e.setMap(x.keepNumbers)
	e.setMap(x.seniority)
	wire.WriteMap(e.Writer, x.kind, e.String, func(k uint8) { e.Uvarint(uint64(k)) })
	e.strMap(x.compounds)
	e.setMap(x.compoundStart)
	wire.WriteMap(e.Writer, x.abbreviations, e.String, e.Strings)
	e.setMap(x.beforeNumber)
	e.setMap(x.seasons)
	e.setMap(x.levelPrefixes)
	wire.WriteMap(e.Writer, x.headReadings, e.String, e.Strings)
	e.setMap(x.headForms)
	e.setMap(x.disciplines)
	wire.WriteMap(e.Writer, x.headAbbreviations, e.String, e.Strings)
	wire.WriteMap(e.Writer, x.foreign, e.String, e.Strings)
	wire.WriteMap(e.Writer, x.foreignHeads, e.String, e.Strings)
	e.setMap(x.falseFriends)

	e.Uvarint(uint64(len(t.cats)))
	for _, c := range t.cats {
		e.String(c.Field)
		e.String(c.Role)
		e.String(c.Specialization)
		e.Varint(int64(c.Level))
		e.String(c.Code)
	}
	e.i32Map(t.byName)
	wire.WriteMap(e.Writer, t.names, func(l Level) { e.Varint(int64(l)) }, e.strMap)
	e.strMap(t.fieldOfRole)
	e.i32Map(t.fieldByMajor)
	e.i32Map(t.roleBySOC)
	e.i32Map(t.byONET)
	wire.WriteMap(e.Writer, t.specs, func(i int32) { e.Varint(int64(i)) }, func(l []specPhrase) {
		e.Uvarint(uint64(len(l)))
		for _, s := range l {
			e.Varint(int64(s.cat))
			e.Strings(s.words)
		}
	})
	wire.WriteMap(e.Writer, t.phrases, e.U64, func(p phrase) { e.Varint(int64(p.cat)); e.Bool(p.hand) })
	wire.WriteMap(e.Writer, t.words, e.String, func(w wordInfo) { e.Varint(int64(w.df)); e.F32(w.weight) })
	e.Varint(int64(t.bags))
	e.F32(t.unknown)
	wire.WriteMap(e.Writer, t.typos, e.U64, func(i int32) { e.Varint(int64(i)) })
	e.Strings(t.typoWord)
	e.Uvarint(uint64(len(t.senses)))
	for _, s := range t.senses {
		e.Varint(int64(s.cat))
		for _, l := range [][][]string{s.heads, s.context} {
			e.Uvarint(uint64(len(l)))
			for _, words := range l {
				e.Strings(words)
			}
		}
	}
	e.i32Map(t.headRoles)
}

func (d *decoder) taxonomy() *taxonomy {
	t := &taxonomy{lex: lexicon{
		noise: d.setMap(), units: d.setMap(), keepNumbers: d.setMap(), seniority: d.setMap(),
		kind:      wire.ReadMap(d.Reader, d.View, func() uint8 { return uint8(d.Uvarint()) }),
		compounds: d.strMap(), compoundStart: d.setMap(), abbreviations: wire.ReadMap(d.Reader, d.View, d.Views),
		beforeNumber: d.setMap(), seasons: d.setMap(), levelPrefixes: d.setMap(),
		headReadings: wire.ReadMap(d.Reader, d.View, d.Views), headForms: d.setMap(), disciplines: d.setMap(),
		headAbbreviations: wire.ReadMap(d.Reader, d.View, d.Views), foreign: wire.ReadMap(d.Reader, d.View, d.Views),
		foreignHeads: wire.ReadMap(d.Reader, d.View, d.Views), falseFriends: d.setMap(),
	}}
	t.cats = make([]TitleCategory, d.Count(1))
	for i := range t.cats {
		t.cats[i] = TitleCategory{Field: d.View(), Role: d.View(), Specialization: d.View(), Level: Level(d.Varint()), Code: d.View()}
	}
	cat := func() int32 {
		c := d.Int32()
		if c != noCategory && (c < 0 || int(c) >= len(t.cats)) {
			d.Fail("category out of range")
		}
		return c
	}
	catMap := func() map[string]int32 { return wire.ReadMap(d.Reader, d.View, cat) }
	t.byName = catMap()
	t.names = wire.ReadMap(d.Reader, func() Level { return Level(d.Varint()) }, d.strMap)
	t.fieldOfRole = d.strMap()
	t.fieldByMajor = catMap()
	t.roleBySOC = catMap()
	t.byONET = catMap()
	t.specs = wire.ReadMap(d.Reader, cat, func() []specPhrase {
		l := make([]specPhrase, d.Count(1))
		for i := range l {
			l[i] = specPhrase{cat: cat(), words: d.Views()}
		}
		return l
	})
	t.phrases = wire.ReadMap(d.Reader, d.U64, func() phrase { return phrase{cat: cat(), hand: d.Bool()} })
	t.words = wire.ReadMap(d.Reader, d.View, func() wordInfo { return wordInfo{df: d.Int32(), weight: d.F32()} })
	t.bags = int(d.Varint())
	t.unknown = d.F32()
	t.typos = d.i32MapU64()
	t.typoWord = d.Views()
	for _, i := range t.typos {
		if i >= int32(len(t.typoWord)) {
			d.Fail("title typo out of range")
			break
		}
	}
	phrases := func() [][]string {
		l := make([][]string, d.Count(1))
		for i := range l {
			l[i] = d.Views()
		}
		return l
	}
	t.senses = make([]sense, d.Count(1))
	for i := range t.senses {
		t.senses[i] = sense{cat: cat(), heads: phrases(), context: phrases()}
	}
	t.headRoles = catMap()
	return t
}

func (d *decoder) i32MapU64() map[uint64]int32 { return wire.ReadMap(d.Reader, d.U64, d.Int32) }
