// Reference-data cache body: the normalizer's compiled state written to and read from bytes.

package normalize

import (
	"fmt"

	"github.com/jobsd-dev/jobsd/internal/wire"
	"github.com/jobsd-dev/jobsd/normalize/titles"
)

// The body of a cache file holds everything New builds (the twelve
// vocabularies, the gazetteer, the title taxonomy, the sources), with
// pointers shared between structures written once in a table and referred
// to by index, so that a normalizer read back has the same sharing as one
// built from the files. Integers are varints, strings a length and their
// bytes; the strings read back are slices of one copy of the body.
//
// Every struct field of the state is written; TestCacheLayout fails when a
// field is added to one of these types, so that the codec and
// cacheFormat follow.

// encoder writes the state through package wire's Writer, with the
// tables of the pointers written once.
type encoder struct {
	*wire.Writer
	terms  map[*Term]uint32
	cities map[*city]uint32
	states map[*state]uint32
}

// decoder reads a body through package wire's Reader, whose strings are
// slices of one copy of the body (View); the first error sticks, and every
// read after it returns zero values, so callers check once at the end.
type decoder struct {
	*wire.Reader
	terms  []*Term
	cities []*city
	states []*state
}

// index reads a reference into a table of n entries.
func (d *decoder) index(n int) int {
	i := d.Uvarint()
	if i >= uint64(n) {
		d.Fail("index out of range")
		return -1
	}
	return int(i)
}

// encodeState writes n's state.
func encodeState(w *wire.Writer, n *Normalizer) {
	e := &encoder{Writer: w, terms: map[*Term]uint32{}, cities: map[*city]uint32{}, states: map[*state]uint32{}}
	e.Uvarint(uint64(len(n.sources)))
	for _, s := range n.sources {
		e.String(s.Name)
		e.String(s.Licence)
		e.String(s.Attribution)
	}
	vocabs := n.vocabs()
	var terms []*Term
	addTerm := func(t *Term) {
		if _, ok := e.terms[t]; !ok {
			e.terms[t] = uint32(len(terms))
			terms = append(terms, t)
		}
	}
	for _, v := range vocabs {
		for _, m := range []map[string]*Term{v.terms, v.all, v.byName} {
			for _, t := range m {
				addTerm(t)
			}
		}
		if v.typos != nil {
			for _, t := range v.typos.terms {
				addTerm(t)
			}
		}
	}
	e.Uvarint(uint64(len(terms)))
	for _, t := range terms {
		e.String(t.Name)
		e.Strings(t.Aliases)
		e.String(t.Umbrella)
		e.Strings(t.ListOnly)
		e.Bool(t.ref)
		e.Bool(t.guessed)
	}
	for _, v := range vocabs {
		e.vocab(v)
	}
	e.gazetteer(n.geo)
	n.taxonomy.Encode(e.Writer)
}

// decodeState reads a state encodeState wrote into n.
func decodeState(r *wire.Reader, n *Normalizer) (err error) {
	defer func() {
		if r := recover(); r != nil { // the checks above should make this unreachable
			err = fmt.Errorf("%w: recovered: %v", wire.ErrCorrupt, r)
		}
	}()
	d := &decoder{Reader: r}
	n.sources = make([]Source, d.Count(1))
	for i := range n.sources {
		n.sources[i] = Source{Name: d.View(), Licence: d.View(), Attribution: d.View()}
	}
	d.terms = make([]*Term, d.Count(1))
	all := make([]Term, len(d.terms))
	for i := range d.terms {
		all[i] = Term{Name: d.View(), Aliases: d.Views(), Umbrella: d.View(), ListOnly: d.Views(), ref: d.Bool(), guessed: d.Bool()}
		d.terms[i] = &all[i]
	}
	for _, dst := range n.vocabPointers() {
		*dst = d.vocab()
	}
	n.geo = d.gazetteer()
	n.taxonomy = titles.Decode(d.Reader)
	if err := d.Done(); err != nil {
		return err
	}
	if n.Skills.typos != nil {
		n.Skills.typos.knownElsewhere = n.knownElsewhere
	}
	for _, v := range n.vocabs() {
		if v != n.Skills && v.typos != nil {
			return fmt.Errorf("%w: a typo index outside the skills vocabulary", wire.ErrCorrupt)
		}
	}
	return nil
}

// vocabPointers lists the normalizer's vocabularies in the cache's order.
func (n *Normalizer) vocabPointers() []**Vocab {
	return []**Vocab{&n.Skills, &n.Tools, &n.TechnicalSkills, &n.SoftSkills, &n.Certifications, &n.Benefits,
		&n.EducationMajors, &n.EducationLevels, &n.Visas, &n.SecurityClearances, &n.EmploymentTypes, &n.WorkArrangements}
}

func (n *Normalizer) vocabs() []*Vocab {
	var out []*Vocab
	for _, p := range n.vocabPointers() {
		out = append(out, *p)
	}
	return out
}

func (e *encoder) termMap(m map[string]*Term) {
	wire.WriteMap(e.Writer, m, e.String, func(t *Term) { e.Uvarint(uint64(e.terms[t])) })
}

func (d *decoder) termMap() map[string]*Term {
	return wire.ReadMap(d.Reader, d.View, func() *Term {
		if i := d.index(len(d.terms)); i >= 0 {
			return d.terms[i]
		}
		return nil
	})
}

func (e *encoder) vocab(v *Vocab) {
	e.termMap(v.terms)
	e.termMap(v.all)
	e.termMap(v.byName)
	e.Bool(v.derive)
	e.Varint(int64(v.hand))
	e.Varint(int64(v.owned))
	e.Varint(int64(v.termWords))
	e.Bool(v.typos != nil)
	if x := v.typos; x != nil {
		e.Strings(x.keys)
		e.Uvarint(uint64(len(x.terms)))
		for i, t := range x.terms {
			e.Uvarint(uint64(e.terms[t]))
			e.Bool(x.named[i])
		}
		wire.WriteMap(e.Writer, x.near, e.U64, func(i int32) { e.Varint(int64(i)) })
		e.Uvarint(uint64(len(x.many)))
		for _, m := range x.many {
			e.Uvarint(uint64(len(m)))
			for _, i := range m {
				e.Varint(int64(i))
			}
		}
		e.Varint(int64(x.size))
	}
}

func (d *decoder) vocab() *Vocab {
	v := &Vocab{terms: d.termMap(), all: d.termMap(), byName: d.termMap(), derive: d.Bool(),
		hand: int(d.Varint()), owned: int(d.Varint()), termWords: int(d.Varint())}
	if !d.Bool() {
		return v
	}
	x := &typoIndex{keys: d.Views()}
	n := d.Count(1)
	if n != len(x.keys) {
		d.Fail("typo index: keys and terms differ in number")
		return v
	}
	x.terms, x.named = make([]*Term, n), make([]bool, n)
	for i := range n {
		if j := d.index(len(d.terms)); j >= 0 {
			x.terms[i] = d.terms[j]
		}
		x.named[i] = d.Bool()
	}
	x.near = wire.ReadMap(d.Reader, d.U64, d.Int32)
	x.many = make([][]int32, d.Count(1))
	for i := range x.many {
		m := make([]int32, d.Count(1))
		for j := range m {
			if m[j] = d.Int32(); m[j] < 0 || int(m[j]) >= n {
				d.Fail("typo index: key out of range")
			}
		}
		x.many[i] = m
	}
	for _, i := range x.near {
		if i >= int32(n) || i < 0 && int(-i-1) >= len(x.many) {
			d.Fail("typo index: entry out of range")
			break
		}
	}
	x.size = int(d.Varint())
	v.typos = x
	return v
}
