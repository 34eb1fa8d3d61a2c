// Vocabularies' codec: the vocabularies written to and read from normalize's cache file, their terms in one table.

package terms

import "github.com/jobsd-dev/jobsd/internal/wire"

// EncodeVocabs writes vocabularies and their terms: every term once, in a
// table the vocabularies refer to by index, so that vocabularies read back
// share terms as the ones written did. DecodeVocabs reads them back.
func EncodeVocabs(w *wire.Writer, vocabs []*Vocab) {
	e := &encoder{Writer: w}
	for _, v := range vocabs {
		for _, m := range []map[string]*Term{v.terms, v.all, v.byName} {
			for _, t := range m {
				e.terms.Add(t)
			}
		}
		if v.typos != nil {
			for _, t := range v.typos.terms {
				e.terms.Add(t)
			}
		}
	}
	e.Uvarint(uint64(len(e.terms.Items)))
	for _, t := range e.terms.Items {
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
}

// DecodeVocabs reads n vocabularies EncodeVocabs wrote; r's error says
// what was wrong.
func DecodeVocabs(r *wire.Reader, n int) []*Vocab {
	d := &decoder{Reader: r}
	d.terms = make([]*Term, d.Count(1))
	all := make([]Term, len(d.terms))
	for i := range d.terms {
		all[i] = Term{Name: d.View(), Aliases: d.Views(), Umbrella: d.View(), ListOnly: d.Views(), ref: d.Bool(), guessed: d.Bool()}
		d.terms[i] = &all[i]
	}
	vocabs := make([]*Vocab, n)
	for i := range vocabs {
		vocabs[i] = d.vocab()
	}
	return vocabs
}

// encoder writes through package wire's Writer, with the table of terms.
type encoder struct {
	*wire.Writer
	terms wire.Table[*Term]
}

// decoder reads through package wire's Reader, with the table of terms.
type decoder struct {
	*wire.Reader
	terms []*Term
}

func (e *encoder) termMap(m map[string]*Term) {
	wire.WriteMap(e.Writer, m, e.String, func(t *Term) { e.terms.WriteRef(e.Writer, t) })
}

func (d *decoder) termMap() map[string]*Term {
	return wire.ReadMap(d.Reader, d.View, func() *Term { return wire.ReadRef(d.Reader, d.terms) })
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
			e.terms.WriteRef(e.Writer, t)
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
		x.terms[i] = wire.ReadRef(d.Reader, d.terms)
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
