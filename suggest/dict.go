// Package suggest finds the values a typed prefix may complete (contract
// section 14): a dictionary of values, each with the spellings it is found
// by (its own and its aliases), matched word by word from a prefix, with
// one typo tolerated in a longer prefix. It knows nothing of jobs or
// counts: the query service counts the values it finds.
package suggest

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/internal/dropmap"
	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// TypoFrom is the length (folded, in bytes) from which a prefix also
// matches with one edit.
const TypoFrom = 4

// Entry is one value and the spellings it is found by.
type Entry struct {
	// Spellings are the value's own text and its aliases.
	Spellings []string
}

// Match is an entry a prefix found: its place in the dictionary's
// entries, and whether only with one edit.
type Match struct {
	Entry int
	Typo  bool
}

// Dict finds entries by word prefixes. It is immutable once built and
// safe for concurrent use.
type Dict struct {
	// distinct are the words of every spelling, once each, sorted: a word
	// is its place among them.
	distinct []string
	// words is every word of every spelling, by word: the spelling and
	// its place in it.
	words []word
	// The spellings' word sequences, end to end: sequence i is
	// seqWords[seqEnd[i-1]:seqEnd[i]], spelling entry of[i].
	seqWords []int32
	seqEnd   []int32
	of       []int32
	entries  int
	// found keeps Find's answers, within maxFoundMatches.
	found dropmap.Map[foundKey, []Match]
	// second lists the distinct words by their second byte, for the typo
	// walk.
	second [256][]int32
	// marks are the stamps of the entries a call has found (marks).
	marks sync.Pool
	// only are the entries of a subset (nil: every entry).
	only []int32
	// ids are 0 … len(distinct)-1, for runs of word ids without a copy.
	ids []int32
}

// marks stamps the entries one call of Find has found: those whose stamp
// is its generation.
type marks struct {
	stamp []uint32
	gen   uint32
}

// word is one word of a spelling: the word, the spelling and its place
// in it.
type word struct {
	id, seq int32
	at      int32
}

// New builds the dictionary of entries.
func New(entries []Entry) *Dict {
	d := &Dict{entries: len(entries)}
	var seqs [][]string
	set := map[string]bool{}
	for e, en := range entries {
		for _, sp := range en.Spellings {
			for _, seq := range Sequences(sp) {
				seqs = append(seqs, seq)
				d.of = append(d.of, int32(e))
				for _, w := range seq {
					set[w] = true
				}
			}
		}
	}
	d.distinct = make([]string, 0, len(set))
	for w := range set {
		d.distinct = append(d.distinct, w)
	}
	slices.Sort(d.distinct)
	id := make(map[string]int32, len(d.distinct))
	for i, w := range d.distinct {
		id[w] = int32(i)
	}
	for i, seq := range seqs {
		for at, w := range seq {
			d.seqWords = append(d.seqWords, id[w])
			d.words = append(d.words, word{id: id[w], seq: int32(i), at: int32(at)})
		}
		d.seqEnd = append(d.seqEnd, int32(len(d.seqWords)))
	}
	slices.SortFunc(d.words, func(a, b word) int { return cmp.Compare(a.id, b.id) })
	n := len(entries)
	d.marks.New = func() any { return &marks{stamp: make([]uint32, n)} }
	d.ids = make([]int32, len(d.distinct))
	for i, w := range d.distinct {
		d.ids[i] = int32(i)
		if len(w) > 1 {
			d.second[w[1]] = append(d.second[w[1]], int32(i))
		}
	}
	return d
}

// typoCandidates calls fn with the distinct words that may start with p
// after one edit, ascending, each once: an edit after p's second byte
// leaves its first two in place, and one among them leaves p's first or
// second byte as the word's first or second. It walks the two runs of
// words that start with those bytes and the two lists of words that have
// them second together, in order, rather than gathering and sorting them.
func (d *Dict) typoCandidates(p string, fn func(id int32)) {
	var lists [4][]int32 // each ascending
	for i, b := range []byte{p[0], p[1]} {
		lo, _ := slices.BinarySearch(d.distinct, string([]byte{b}))
		hi := lo
		for hi < len(d.distinct) && d.distinct[hi][0] == b {
			hi++
		}
		lists[2*i] = d.ids[lo:hi]
		lists[2*i+1] = d.second[b]
	}
	last := int32(-1)
	for {
		next, from := int32(-1), -1
		for i, l := range lists {
			if len(l) > 0 && (from < 0 || l[0] < next) {
				next, from = l[0], i
			}
		}
		if from < 0 {
			return
		}
		lists[from] = lists[from][1:]
		if next != last {
			fn(next)
			last = next
		}
	}
}

// seq returns the words of sequence i.
func (d *Dict) seq(i int32) []int32 {
	start := int32(0)
	if i > 0 {
		start = d.seqEnd[i-1]
	}
	return d.seqWords[start:d.seqEnd[i]]
}

// withWord returns the words (d.words) that are the word id.
func (d *Dict) withWord(id int32) []word {
	lo, _ := slices.BinarySearchFunc(d.words, id, func(w word, id int32) int { return cmp.Compare(w.id, id) })
	hi := lo
	for hi < len(d.words) && d.words[hi].id == id {
		hi++
	}
	return d.words[lo:hi]
}

// Words splits text into its folded words: case and accents folded,
// punctuation and spaces splitting.
func Words(text string) []string {
	return strings.FieldsFunc(fold.Fold(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Sequences returns the word sequences a spelling is found by: its words,
// and with each part that punctuation joins written as one word ("Node.js"
// is found as "node js" and as "nodejs").
func Sequences(spelling string) [][]string {
	words := Words(spelling)
	if len(words) == 0 {
		return nil
	}
	out := [][]string{words}
	var joined []string
	for _, part := range strings.Fields(fold.Fold(spelling)) {
		if w := strings.Join(Words(part), ""); w != "" {
			joined = append(joined, w)
		}
	}
	if len(joined) != len(words) {
		out = append(out, joined)
	}
	return out
}

// Find returns the entries whose spellings the prefix's words start
// successive words of (each entry once, in no order), and
// when typos is set, after them those that match so only with one edit in
// a prefix of TypoFrom or more letters. An empty prefix finds every entry.
// The answer is shared: not to be changed. Answers are kept, by the
// prefix's words, until they hold maxFoundMatches matches, then dropped
// together: a search box asks for the same few letters again and again,
// and the one-typo walk is most of Find's time.
func (d *Dict) Find(prefix string, typos bool) []Match {
	words := Words(prefix)
	if len(words) == 0 {
		return d.find(words, false) // every entry: no typo to walk
	}
	key := foundKey{strings.Join(words, "\x00"), typos}
	if m, ok := d.found.Load(key); ok {
		return m
	}
	matches := d.find(words, typos)
	d.found.Store(key, matches, int64(len(matches)+1), maxFoundMatches)
	return matches
}

// foundKey is a question Find keeps the answer to: the prefix's words.
type foundKey struct {
	words string
	typos bool
}

// maxFoundMatches bounds the matches a Dict keeps (Find), about 16 bytes
// each: the prefixes a search box sends are few, those of a hostile
// client many.
const maxFoundMatches = 1 << 18

// find is Find of a prefix's words, without the answers kept.
func (d *Dict) find(p []string, typos bool) []Match {
	if len(p) == 0 {
		if d.only != nil {
			matches := make([]Match, len(d.only))
			for i, e := range d.only {
				matches[i].Entry = int(e)
			}
			return matches
		}
		matches := make([]Match, d.entries)
		for e := range matches {
			matches[e].Entry = e
		}
		return matches
	}
	// Each entry once: marked with this call's stamp.
	mark := d.marks.Get().(*marks)
	defer d.marks.Put(mark)
	mark.gen++
	if mark.gen == 0 { // wrapped: every stamp is old again
		clear(mark.stamp)
		mark.gen = 1
	}
	var matches []Match
	add := func(seq int32, typo bool) {
		if e := d.of[seq]; mark.stamp[e] != mark.gen {
			mark.stamp[e] = mark.gen
			matches = append(matches, Match{Entry: int(e), Typo: typo})
		}
	}
	// The words p[0] starts are a run of the sorted words, and their
	// places in the spellings a run of d.words.
	lo, _ := slices.BinarySearch(d.distinct, p[0])
	hi := lo
	for hi < len(d.distinct) && strings.HasPrefix(d.distinct[hi], p[0]) {
		hi++
	}
	if lo < hi {
		from, _ := slices.BinarySearchFunc(d.words, int32(lo), func(w word, id int32) int { return cmp.Compare(w.id, id) })
		for _, w := range d.words[from:] {
			if w.id >= int32(hi) {
				break
			}
			if mark.stamp[d.of[w.seq]] != mark.gen && d.follows(w.seq, int(w.at), p, false) {
				add(w.seq, false)
			}
		}
	}
	if !typos || len(strings.Join(p, "")) < TypoFrom {
		return matches
	}
	// One edit: in the first word (walking the distinct words within one
	// edit of it), or in a later one (from the first word's exact
	// matches, checked word by word).
	walk := func(id int32) {
		text := d.distinct[id]
		if !within1(p[0], text) {
			return
		}
		typo := !strings.HasPrefix(text, p[0])
		for _, w := range d.withWord(id) {
			if mark.stamp[d.of[w.seq]] != mark.gen && d.follows(w.seq, int(w.at), p, !typo) {
				add(w.seq, true)
			}
		}
	}
	if len(p[0]) < 2 {
		// One letter, and an edit in a later word: from the exact run.
		for _, id := range d.ids[lo:hi] {
			walk(id)
		}
	} else {
		d.typoCandidates(p[0], walk)
	}
	return matches
}

// follows reports whether the prefix's words after the first start the
// words of sequence seq after its word at; with typo set, one of them may
// do so with one edit.
func (d *Dict) follows(seq int32, at int, p []string, typo bool) bool {
	s := d.seq(seq)
	if at+len(p) > len(s) {
		return false
	}
	for k := 1; k < len(p); k++ {
		w := d.distinct[s[at+k]]
		switch {
		case strings.HasPrefix(w, p[k]):
		case typo && within1(p[k], w):
			typo = false
		default:
			return false
		}
	}
	return true
}

// startsWith is strings.HasPrefix, its first byte compared before the
// rest: most of the words the typo walk looks at differ there.
func startsWith(s, prefix string) bool {
	return len(s) >= len(prefix) && (prefix == "" || s[0] == prefix[0] && s[:len(prefix)] == prefix)
}

// within1 reports whether p starts w with at most one edit: a letter
// inserted, deleted or substituted, or two adjacent letters transposed.
func within1(p, w string) bool {
	if startsWith(w, p) {
		return true
	}
	// The first difference.
	i := 0
	for i < len(p) && i < len(w) && p[i] == w[i] {
		i++
	}
	if i == len(p) {
		return true
	}
	_, size := utf8.DecodeRuneInString(p[i:])
	// p has a letter too many (deletion).
	if startsWith(w[i:], p[i+size:]) {
		return true
	}
	if i < len(w) {
		_, wsize := utf8.DecodeRuneInString(w[i:])
		// Substitution.
		if startsWith(w[i+wsize:], p[i+size:]) {
			return true
		}
		// p lacks a letter (insertion).
		if startsWith(w[i+wsize:], p[i:]) {
			return true
		}
		// Transposition of two adjacent letters: w has p's next letter,
		// then p's letter, then the rest of p.
		if i+size < len(p) {
			_, nsize := utf8.DecodeRuneInString(p[i+size:])
			next, cur := p[i+size:i+size+nsize], p[i:i+size]
			if rest := w[i:]; startsWith(rest, next) && startsWith(rest[len(next):], cur) &&
				startsWith(rest[len(next)+len(cur):], p[i+size+nsize:]) {
				return true
			}
		}
	}
	return false
}

// Subset returns the dictionary of the entries keep keeps (keep[e] for
// entry e), which Find numbers as d does. It shares d's words.
func (d *Dict) Subset(keep []bool) *Dict {
	s := &Dict{distinct: d.distinct, ids: d.ids, entries: d.entries, second: d.second, only: []int32{}}
	s.marks.New = d.marks.New
	for e, k := range keep {
		if k {
			s.only = append(s.only, int32(e))
		}
	}
	renumber := make([]int32, len(d.seqEnd))
	for i := range d.seqEnd {
		renumber[i] = -1
		if !keep[d.of[i]] {
			continue
		}
		renumber[i] = int32(len(s.seqEnd))
		s.seqWords = append(s.seqWords, d.seq(int32(i))...)
		s.seqEnd = append(s.seqEnd, int32(len(s.seqWords)))
		s.of = append(s.of, d.of[i])
	}
	for _, w := range d.words {
		if n := renumber[w.seq]; n >= 0 {
			s.words = append(s.words, word{id: w.id, seq: n, at: w.at})
		}
	}
	return s
}
