// Reference-data cache body: the normalizer's compiled state written to and read from bytes.

package normalize

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
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

// errCacheBody reports a body that does not decode.
var errCacheBody = errors.New("malformed cache body")

// encoder appends the state to a buffer.
type encoder struct {
	b      []byte
	terms  map[*Term]uint32
	cities map[*city]uint32
	states map[*state]uint32
}

func (e *encoder) uint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) int(x int64)   { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) f32(x float32) { e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(x)) }
func (e *encoder) u64(x uint64)  { e.b = binary.LittleEndian.AppendUint64(e.b, x) }

func (e *encoder) bool(x bool) {
	if x {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) strs(s []string) {
	e.uint(uint64(len(s)))
	for _, x := range s {
		e.str(x)
	}
}

// decoder reads a body; the first error sticks, and every read after it
// returns zero values, so callers check d.err once at the end.
type decoder struct {
	s      string // the body: strings read are slices of it
	p      int
	err    error
	terms  []*Term
	cities []*city
	states []*state
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at %d", errCacheBody, what, d.p)
	}
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	var shift uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if d.p >= len(d.s) {
			d.fail("truncated varint")
			return 0
		}
		c := d.s[d.p]
		d.p++
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break
			}
			return x | uint64(c)<<shift
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	d.fail("bad varint")
	return 0
}

func (d *decoder) int() int64 {
	u := d.uint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (d *decoder) int32() int32 {
	x := d.int()
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.fail("int32 out of range")
		return 0
	}
	return int32(x)
}

// count reads a length and checks that the body can hold that many items
// of at least one byte each, so that a bad length never allocates much.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.s)-d.p) {
		d.fail("count past the end")
		return 0
	}
	return int(n)
}

func (d *decoder) take(n int) string {
	if d.err != nil {
		return ""
	}
	if n < 0 || n > len(d.s)-d.p {
		d.fail("string past the end")
		return ""
	}
	s := d.s[d.p : d.p+n]
	d.p += n
	return s
}

func (d *decoder) str() string { return d.take(d.count()) }

func (d *decoder) bool() bool {
	switch d.take(1) {
	case "\x00":
		return false
	case "\x01":
		return true
	}
	d.fail("bad bool")
	return false
}

func (d *decoder) f32() float32 {
	s := d.take(4)
	if len(s) < 4 {
		return 0
	}
	return math.Float32frombits(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

func (d *decoder) u64() uint64 {
	s := d.take(8)
	if len(s) < 8 {
		return 0
	}
	var x uint64
	for i := 7; i >= 0; i-- {
		x = x<<8 | uint64(s[i])
	}
	return x
}

// strs reads a string slice; empty is nil, as the loaders leave it.
func (d *decoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// index reads a reference into a table of n entries.
func (d *decoder) index(n int) int {
	i := d.uint()
	if i >= uint64(n) {
		d.fail("index out of range")
		return -1
	}
	return int(i)
}

// Maps of plain values.

func encMap[K comparable, V any](e *encoder, m map[K]V, key func(K), val func(V)) {
	e.uint(uint64(len(m)))
	for k, v := range m {
		key(k)
		val(v)
	}
}

func decMap[K comparable, V any](d *decoder, key func() K, val func() V) map[K]V {
	n := d.count()
	m := make(map[K]V, n)
	for range n {
		k := key()
		m[k] = val()
		if d.err != nil {
			break
		}
	}
	return m
}

// encodeState writes n's state.
func encodeState(n *Normalizer) []byte {
	e := &encoder{b: make([]byte, 0, 16<<20), terms: map[*Term]uint32{}, cities: map[*city]uint32{}, states: map[*state]uint32{}}
	e.uint(uint64(len(n.sources)))
	for _, s := range n.sources {
		e.str(s.Name)
		e.str(s.Licence)
		e.str(s.Attribution)
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
	e.uint(uint64(len(terms)))
	for _, t := range terms {
		e.str(t.Name)
		e.strs(t.Aliases)
		e.str(t.Umbrella)
		e.strs(t.ListOnly)
		e.bool(t.ref)
		e.bool(t.guessed)
	}
	for _, v := range vocabs {
		e.vocab(v)
	}
	e.gazetteer(n.geo)
	e.taxonomy(n.titles)
	return e.b
}

// decodeState reads a state encodeState wrote into n.
func decodeState(body string, n *Normalizer) (err error) {
	defer func() {
		if r := recover(); r != nil { // the checks above should make this unreachable
			err = fmt.Errorf("%w: %v", errCacheBody, r)
		}
	}()
	d := &decoder{s: body}
	n.sources = make([]Source, d.count())
	for i := range n.sources {
		n.sources[i] = Source{Name: d.str(), Licence: d.str(), Attribution: d.str()}
	}
	d.terms = make([]*Term, d.count())
	all := make([]Term, len(d.terms))
	for i := range d.terms {
		all[i] = Term{Name: d.str(), Aliases: d.strs(), Umbrella: d.str(), ListOnly: d.strs(), ref: d.bool(), guessed: d.bool()}
		d.terms[i] = &all[i]
	}
	for _, dst := range n.vocabPointers() {
		*dst = d.vocab()
	}
	n.geo = d.gazetteer()
	n.titles = d.taxonomy()
	if d.err == nil && d.p != len(d.s) {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return d.err
	}
	if n.Skills.typos != nil {
		n.Skills.typos.knownElsewhere = n.knownElsewhere
	}
	for _, v := range n.vocabs() {
		if v != n.Skills && v.typos != nil {
			return fmt.Errorf("%w: a typo index outside the skills vocabulary", errCacheBody)
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
	encMap(e, m, e.str, func(t *Term) { e.uint(uint64(e.terms[t])) })
}

func (d *decoder) termMap() map[string]*Term {
	return decMap(d, d.str, func() *Term {
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
	e.bool(v.derive)
	e.int(int64(v.hand))
	e.int(int64(v.owned))
	e.int(int64(v.termWords))
	e.bool(v.typos != nil)
	if x := v.typos; x != nil {
		e.strs(x.keys)
		e.uint(uint64(len(x.terms)))
		for i, t := range x.terms {
			e.uint(uint64(e.terms[t]))
			e.bool(x.named[i])
		}
		encMap(e, x.near, e.u64, func(i int32) { e.int(int64(i)) })
		e.uint(uint64(len(x.many)))
		for _, m := range x.many {
			e.uint(uint64(len(m)))
			for _, i := range m {
				e.int(int64(i))
			}
		}
		e.int(int64(x.size))
	}
}

func (d *decoder) vocab() *Vocab {
	v := &Vocab{terms: d.termMap(), all: d.termMap(), byName: d.termMap(), derive: d.bool(),
		hand: int(d.int()), owned: int(d.int()), termWords: int(d.int())}
	if !d.bool() {
		return v
	}
	x := &typoIndex{keys: d.strs()}
	n := d.count()
	if n != len(x.keys) {
		d.fail("typo index: keys and terms differ in number")
		return v
	}
	x.terms, x.named = make([]*Term, n), make([]bool, n)
	for i := range n {
		if j := d.index(len(d.terms)); j >= 0 {
			x.terms[i] = d.terms[j]
		}
		x.named[i] = d.bool()
	}
	x.near = decMap(d, d.u64, d.int32)
	x.many = make([][]int32, d.count())
	for i := range x.many {
		m := make([]int32, d.count())
		for j := range m {
			if m[j] = d.int32(); m[j] < 0 || int(m[j]) >= n {
				d.fail("typo index: key out of range")
			}
		}
		x.many[i] = m
	}
	for _, i := range x.near {
		if i >= int32(n) || i < 0 && int(-i-1) >= len(x.many) {
			d.fail("typo index: entry out of range")
			break
		}
	}
	x.size = int(d.int())
	v.typos = x
	return v
}
