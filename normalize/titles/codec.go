// Taxonomy codec: the compiled taxonomy written to and read from normalize's cache file.

package titles

import "github.com/jobsd-dev/jobsd/internal/wire"

// Encode writes the taxonomy (for normalize's cache of the compiled
// reference data); Decode reads it back.
func (t *Taxonomy) Encode(e *wire.Writer) {
	x := &t.lex
	e.StringSet(x.noise)
	e.StringSet(x.units)
	e.StringSet(x.keepNumbers)
	e.StringSet(x.seniority)
	wire.WriteMap(e, x.kind, e.String, func(k uint8) { e.Uvarint(uint64(k)) })
	e.StringMap(x.compounds)
	e.StringSet(x.compoundStart)
	wire.WriteMap(e, x.abbreviations, e.String, e.Strings)
	e.StringSet(x.beforeNumber)
	e.StringSet(x.seasons)
	e.StringSet(x.levelPrefixes)
	e.StringSet(x.trainees)
	wire.WriteMap(e, x.headReadings, e.String, e.Strings)
	e.StringSet(x.headForms)
	e.StringSet(x.disciplines)
	wire.WriteMap(e, x.headAbbreviations, e.String, e.Strings)
	wire.WriteMap(e, x.foreign, e.String, e.Strings)
	wire.WriteMap(e, x.foreignHeads, e.String, e.Strings)
	e.StringSet(x.falseFriends)

	e.Uvarint(uint64(len(t.cats)))
	for _, c := range t.cats {
		e.String(c.Field)
		e.String(c.Role)
		e.String(c.Specialization)
		e.Varint(int64(c.Level))
		e.String(c.Code)
	}
	i32Map(e, t.byName)
	wire.WriteMap(e, t.names, func(l Level) { e.Varint(int64(l)) }, e.StringMap)
	e.StringMap(t.fieldOfRole)
	i32Map(e, t.fieldByMajor)
	i32Map(e, t.roleBySOC)
	i32Map(e, t.byONET)
	wire.WriteMap(e, t.specs, func(i int32) { e.Varint(int64(i)) }, func(l []specPhrase) {
		e.Uvarint(uint64(len(l)))
		for _, s := range l {
			e.Varint(int64(s.cat))
			e.Strings(s.words)
		}
	})
	wire.WriteMap(e, t.phrases, e.U64, func(p phrase) { e.Varint(int64(p.cat)); e.Bool(p.hand) })
	wire.WriteMap(e, t.words, e.String, func(w wordInfo) { e.Varint(int64(w.df)); e.F32(w.weight) })
	e.Varint(int64(t.bags))
	e.F32(t.unknown)
	wire.WriteMap(e, t.typos, e.U64, func(i int32) { e.Varint(int64(i)) })
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
	i32Map(e, t.headRoles)
	wire.WriteMap(e, t.topics, e.String, func(tp topic) { e.Strings(tp.job); e.String(tp.code) })
}

// Decode reads a taxonomy Encode wrote; d's error says what was wrong.
func Decode(d *wire.Reader) *Taxonomy {
	t := &Taxonomy{lex: lexicon{
		noise: d.ViewSet(), units: d.ViewSet(), keepNumbers: d.ViewSet(), seniority: d.ViewSet(),
		kind:      wire.ReadMap(d, d.View, func() uint8 { return uint8(d.Uvarint()) }),
		compounds: d.ViewMap(), compoundStart: d.ViewSet(), abbreviations: wire.ReadMap(d, d.View, d.Views),
		beforeNumber: d.ViewSet(), seasons: d.ViewSet(), levelPrefixes: d.ViewSet(), trainees: d.ViewSet(),
		headReadings: wire.ReadMap(d, d.View, d.Views), headForms: d.ViewSet(), disciplines: d.ViewSet(),
		headAbbreviations: wire.ReadMap(d, d.View, d.Views), foreign: wire.ReadMap(d, d.View, d.Views),
		foreignHeads: wire.ReadMap(d, d.View, d.Views), falseFriends: d.ViewSet(),
	}}
	t.cats = make([]Category, d.Count(1))
	for i := range t.cats {
		t.cats[i] = Category{Field: d.View(), Role: d.View(), Specialization: d.View(), Level: Level(d.Varint()), Code: d.View()}
	}
	cat := func() int32 {
		c := d.Int32()
		if c != noCategory && (c < 0 || int(c) >= len(t.cats)) {
			d.Fail("category out of range")
		}
		return c
	}
	catMap := func() map[string]int32 { return wire.ReadMap(d, d.View, cat) }
	t.byName = catMap()
	t.names = wire.ReadMap(d, func() Level { return Level(d.Varint()) }, d.ViewMap)
	t.fieldOfRole = d.ViewMap()
	t.fieldByMajor = catMap()
	t.roleBySOC = catMap()
	t.byONET = catMap()
	t.specs = wire.ReadMap(d, cat, func() []specPhrase {
		l := make([]specPhrase, d.Count(1))
		for i := range l {
			l[i] = specPhrase{cat: cat(), words: d.Views()}
		}
		return l
	})
	t.phrases = wire.ReadMap(d, d.U64, func() phrase { return phrase{cat: cat(), hand: d.Bool()} })
	t.words = wire.ReadMap(d, d.View, func() wordInfo { return wordInfo{df: d.Int32(), weight: d.F32()} })
	t.bags = int(d.Varint())
	t.unknown = d.F32()
	t.typos = wire.ReadMap(d, d.U64, d.Int32)
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
	t.topics = wire.ReadMap(d, d.View, func() topic { return topic{job: d.Views(), code: d.View()} })
	return t
}

// i32Map writes a map of strings to int32s.
func i32Map(e *wire.Writer, m map[string]int32) {
	wire.WriteMap(e, m, e.String, func(i int32) { e.Varint(int64(i)) })
}
