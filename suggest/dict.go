// Package suggest finds the values a typed prefix may complete (contract
// section 14): a dictionary of values, each with the spellings it is found
// by (its own and its aliases), matched word by word from a prefix, with
// one typo tolerated in a longer prefix. It knows nothing of jobs or
// counts: the query service counts the values it finds.
package suggest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize"
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
	// words is every word of every spelling: its text, and where it is.
	words []word
	// seqs are the spellings' word sequences, each by its entry.
	seqs [][]string
	of   []int32 // seqs[i] spells entry of[i]
	// distinct are the words' texts once each, sorted (for the typo walk).
	distinct []string
}

// word is one word of a spelling: the spelling (seqs) and its place in it.
type word struct {
	text string
	seq  int32
	at   int16
}

// New builds the dictionary of entries.
func New(entries []Entry) *Dict {
	d := &Dict{}
	intern := map[string]string{} // one string a word, shared by its spellings
	for e, en := range entries {
		for _, sp := range en.Spellings {
			for _, seq := range Sequences(sp) {
				for k, w := range seq {
					if v, ok := intern[w]; ok {
						seq[k] = v
					} else {
						intern[w] = w
					}
				}
				i := int32(len(d.seqs))
				d.seqs = append(d.seqs, seq)
				d.of = append(d.of, int32(e))
				for at, w := range seq {
					d.words = append(d.words, word{text: w, seq: i, at: int16(at)})
				}
			}
		}
	}
	slices.SortFunc(d.words, func(a, b word) int { return strings.Compare(a.text, b.text) })
	for i, w := range d.words {
		if i == 0 || w.text != d.words[i-1].text {
			d.distinct = append(d.distinct, w.text)
		}
	}
	return d
}

// Words splits text into its folded words: case and accents folded,
// punctuation and spaces splitting.
func Words(text string) []string {
	return strings.FieldsFunc(normalize.Fold(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
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
	for _, part := range strings.Fields(normalize.Fold(spelling)) {
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
// successive words of (each entry once, in the dictionary's order), and
// when typos is set, after them those that match so only with one edit in
// a prefix of TypoFrom or more letters. An empty prefix finds every entry.
func (d *Dict) Find(prefix string, typos bool) []Match {
	p := Words(prefix)
	found := make([]bool, len(d.seqs))
	var matches []Match
	seen := map[int32]bool{}
	add := func(seq int32, typo bool) {
		if e := d.of[seq]; !seen[e] {
			seen[e] = true
			matches = append(matches, Match{Entry: int(e), Typo: typo})
		}
	}
	if len(p) == 0 {
		for i := range d.seqs {
			add(int32(i), false)
		}
		slices.SortFunc(matches, func(a, b Match) int { return a.Entry - b.Entry })
		return matches
	}
	lo, _ := slices.BinarySearchFunc(d.words, p[0], func(w word, s string) int { return strings.Compare(w.text, s) })
	for i := lo; i < len(d.words) && strings.HasPrefix(d.words[i].text, p[0]); i++ {
		w := d.words[i]
		if !found[w.seq] && d.follows(w.seq, int(w.at), p, false) {
			found[w.seq] = true
			add(w.seq, false)
		}
	}
	slices.SortFunc(matches, func(a, b Match) int { return a.Entry - b.Entry })
	exact := len(matches)
	if !typos || len(strings.Join(p, "")) < TypoFrom {
		return matches
	}
	// One edit: in the first word (walking the distinct words within one
	// edit of it), or in a later one (from the first word's exact
	// matches, checked word by word).
	for _, text := range d.distinct {
		if !within1(p[0], text) {
			continue
		}
		j, _ := slices.BinarySearchFunc(d.words, text, func(w word, s string) int { return strings.Compare(w.text, s) })
		for ; j < len(d.words) && d.words[j].text == text; j++ {
			w := d.words[j]
			typo := !strings.HasPrefix(text, p[0])
			if !found[w.seq] && d.follows(w.seq, int(w.at), p, !typo) {
				found[w.seq] = true
				add(w.seq, true)
			}
		}
	}
	slices.SortFunc(matches[exact:], func(a, b Match) int { return a.Entry - b.Entry })
	return matches
}

// follows reports whether the prefix's words after the first start the
// words of sequence seq after its word at; with typo set, one of them may
// do so with one edit.
func (d *Dict) follows(seq int32, at int, p []string, typo bool) bool {
	s := d.seqs[seq]
	if at+len(p) > len(s) {
		return false
	}
	for k := 1; k < len(p); k++ {
		w := s[at+k]
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

// within1 reports whether p starts w with at most one edit: a letter
// inserted, deleted or substituted, or two adjacent letters transposed.
func within1(p, w string) bool {
	if strings.HasPrefix(w, p) {
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
	if strings.HasPrefix(w[i:], p[i+size:]) {
		return true
	}
	if i < len(w) {
		_, wsize := utf8.DecodeRuneInString(w[i:])
		// Substitution.
		if strings.HasPrefix(w[i+wsize:], p[i+size:]) {
			return true
		}
		// p lacks a letter (insertion).
		if strings.HasPrefix(w[i+wsize:], p[i:]) {
			return true
		}
		// Transposition of two adjacent letters.
		if i+size < len(p) {
			_, nsize := utf8.DecodeRuneInString(p[i+size:])
			swapped := p[i+size:i+size+nsize] + p[i:i+size] + p[i+size+nsize:]
			if strings.HasPrefix(w[i:], swapped) {
				return true
			}
		}
	}
	return false
}
