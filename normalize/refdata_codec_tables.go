// Reference-data cache body: the gazetteer and the title taxonomy written and read.

package normalize

import "math"

func (e *encoder) strMap(m map[string]string) { encMap(e, m, e.str, e.str) }
func (e *encoder) setMap(m map[string]bool)   { encMap(e, m, e.str, e.bool) }
func (e *encoder) i32Map(m map[string]int32)  { encMap(e, m, e.str, func(i int32) { e.int(int64(i)) }) }

func (d *decoder) strMap() map[string]string { return decMap(d, d.str, d.str) }
func (d *decoder) setMap() map[string]bool   { return decMap(d, d.str, d.bool) }
func (d *decoder) i32Map() map[string]int32  { return decMap(d, d.str, d.int32) }

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
	e.uint(uint64(len(cities)))
	for _, c := range cities {
		e.str(c.Name)
		e.str(c.State)
		e.str(c.Country)
		e.strs(c.Aliases)
		e.int(int64(c.population))
		e.int(int64(c.curated))
		e.int(int64(math.Round(c.Lat * 1e4)))
		e.int(int64(math.Round(c.Lng * 1e4)))
		e.strs(c.keys)
		e.bool(c.merged)
	}
	e.uint(uint64(len(states)))
	for _, s := range states {
		e.str(s.Name)
		e.str(s.Country)
		e.str(s.Code)
		e.bool(s.ref)
	}
	cityList := func(l []*city) {
		e.uint(uint64(len(l)))
		for _, c := range l {
			e.uint(uint64(e.cities[c]))
		}
	}
	stateList := func(l []*state) {
		e.uint(uint64(len(l)))
		for _, s := range l {
			e.uint(uint64(e.states[s]))
		}
	}
	encMap(e, g.cities, e.str, cityList)
	encMap(e, g.states, e.str, stateList)
	encMap(e, g.codes, e.str, stateList)
	encMap(e, g.curated, e.str, cityList)
	e.strMap(g.countries)
	e.setMap(g.official)
	e.strMap(g.ccodes)
	e.setMap(g.regions)
}

func (d *decoder) gazetteer() *gazetteer {
	cities := make([]city, d.count())
	d.cities = make([]*city, len(cities))
	for i := range cities {
		cities[i] = city{Name: d.str(), State: d.str(), Country: d.str(), Aliases: d.strs(),
			population: int(d.int()), curated: int(d.int()), Lat: float64(d.int()) / 1e4, Lng: float64(d.int()) / 1e4,
			keys: d.strs(), merged: d.bool()}
		d.cities[i] = &cities[i]
	}
	states := make([]state, d.count())
	d.states = make([]*state, len(states))
	for i := range states {
		states[i] = state{Name: d.str(), Country: d.str(), Code: d.str(), ref: d.bool()}
		d.states[i] = &states[i]
	}
	cityList := func() []*city {
		l := make([]*city, d.count())
		for i := range l {
			if j := d.index(len(d.cities)); j >= 0 {
				l[i] = d.cities[j]
			}
		}
		return l
	}
	stateList := func() []*state {
		l := make([]*state, d.count())
		for i := range l {
			if j := d.index(len(d.states)); j >= 0 {
				l[i] = d.states[j]
			}
		}
		return l
	}
	return &gazetteer{
		cities: decMap(d, d.str, cityList), states: decMap(d, d.str, stateList),
		codes: decMap(d, d.str, stateList), curated: decMap(d, d.str, cityList),
		countries: d.strMap(), official: d.setMap(), ccodes: d.strMap(), regions: d.setMap(),
	}
}

func (e *encoder) taxonomy(t *taxonomy) {
	x := &t.lex
	e.setMap(x.noise)
	e.setMap(x.units)
	e.setMap(x.keepNumbers)
	e.setMap(x.seniority)
	encMap(e, x.kind, e.str, func(k uint8) { e.uint(uint64(k)) })
	e.strMap(x.compounds)
	e.setMap(x.compoundStart)
	encMap(e, x.abbreviations, e.str, e.strs)
	e.setMap(x.beforeNumber)
	e.setMap(x.seasons)
	e.setMap(x.levelPrefixes)
	encMap(e, x.headReadings, e.str, e.strs)
	e.setMap(x.headForms)
	e.setMap(x.disciplines)
	encMap(e, x.headAbbreviations, e.str, e.strs)
	encMap(e, x.foreign, e.str, e.strs)
	encMap(e, x.foreignHeads, e.str, e.strs)
	e.setMap(x.falseFriends)

	e.uint(uint64(len(t.cats)))
	for _, c := range t.cats {
		e.str(c.Field)
		e.str(c.Role)
		e.str(c.Specialization)
		e.int(int64(c.Level))
		e.str(c.Code)
	}
	e.i32Map(t.byName)
	encMap(e, t.names, func(l Level) { e.int(int64(l)) }, e.strMap)
	e.strMap(t.fieldOfRole)
	e.i32Map(t.fieldByMajor)
	e.i32Map(t.roleBySOC)
	e.i32Map(t.byONET)
	encMap(e, t.specs, func(i int32) { e.int(int64(i)) }, func(l []specPhrase) {
		e.uint(uint64(len(l)))
		for _, s := range l {
			e.int(int64(s.cat))
			e.strs(s.words)
		}
	})
	encMap(e, t.phrases, e.u64, func(p phrase) { e.int(int64(p.cat)); e.bool(p.hand) })
	encMap(e, t.words, e.str, func(w wordInfo) { e.int(int64(w.df)); e.f32(w.weight) })
	e.int(int64(t.bags))
	e.f32(t.unknown)
	encMap(e, t.typos, e.u64, func(i int32) { e.int(int64(i)) })
	e.strs(t.typoWord)
	e.uint(uint64(len(t.senses)))
	for _, s := range t.senses {
		e.int(int64(s.cat))
		for _, l := range [][][]string{s.heads, s.context} {
			e.uint(uint64(len(l)))
			for _, words := range l {
				e.strs(words)
			}
		}
	}
	e.i32Map(t.headRoles)
}

func (d *decoder) taxonomy() *taxonomy {
	t := &taxonomy{lex: lexicon{
		noise: d.setMap(), units: d.setMap(), keepNumbers: d.setMap(), seniority: d.setMap(),
		kind:      decMap(d, d.str, func() uint8 { return uint8(d.uint()) }),
		compounds: d.strMap(), compoundStart: d.setMap(), abbreviations: decMap(d, d.str, d.strs),
		beforeNumber: d.setMap(), seasons: d.setMap(), levelPrefixes: d.setMap(),
		headReadings: decMap(d, d.str, d.strs), headForms: d.setMap(), disciplines: d.setMap(),
		headAbbreviations: decMap(d, d.str, d.strs), foreign: decMap(d, d.str, d.strs),
		foreignHeads: decMap(d, d.str, d.strs), falseFriends: d.setMap(),
	}}
	t.cats = make([]TitleCategory, d.count())
	for i := range t.cats {
		t.cats[i] = TitleCategory{Field: d.str(), Role: d.str(), Specialization: d.str(), Level: Level(d.int()), Code: d.str()}
	}
	cat := func() int32 {
		c := d.int32()
		if c != noCategory && (c < 0 || int(c) >= len(t.cats)) {
			d.fail("category out of range")
		}
		return c
	}
	catMap := func() map[string]int32 { return decMap(d, d.str, cat) }
	t.byName = catMap()
	t.names = decMap(d, func() Level { return Level(d.int()) }, d.strMap)
	t.fieldOfRole = d.strMap()
	t.fieldByMajor = catMap()
	t.roleBySOC = catMap()
	t.byONET = catMap()
	t.specs = decMap(d, cat, func() []specPhrase {
		l := make([]specPhrase, d.count())
		for i := range l {
			l[i] = specPhrase{cat: cat(), words: d.strs()}
		}
		return l
	})
	t.phrases = decMap(d, d.u64, func() phrase { return phrase{cat: cat(), hand: d.bool()} })
	t.words = decMap(d, d.str, func() wordInfo { return wordInfo{df: d.int32(), weight: d.f32()} })
	t.bags = int(d.int())
	t.unknown = d.f32()
	t.typos = d.i32MapU64()
	t.typoWord = d.strs()
	for _, i := range t.typos {
		if i >= int32(len(t.typoWord)) {
			d.fail("title typo out of range")
			break
		}
	}
	phrases := func() [][]string {
		l := make([][]string, d.count())
		for i := range l {
			l[i] = d.strs()
		}
		return l
	}
	t.senses = make([]sense, d.count())
	for i := range t.senses {
		t.senses[i] = sense{cat: cat(), heads: phrases(), context: phrases()}
	}
	t.headRoles = catMap()
	return t
}

func (d *decoder) i32MapU64() map[uint64]int32 { return decMap(d, d.u64, d.int32) }
