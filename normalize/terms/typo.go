// Skill typos: the index of vocabulary spellings one edit away from a word.

package terms

import (
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// Typo tolerance of the skills vocabulary. A value that names no term,
// not even in a derived form (Vocab.Lookup), is read as the term whose
// name is one edit away from it: a letter added, dropped or changed, or
// two neighbouring letters swapped (Damerau–Levenshtein distance 1), as
// people mistype "Javascirpt" or "Kuberentes". It is read so only when
//
//   - the value is short (minTypoLetters to maxTypoLetters letters, squashed,
//     in maxTypoWords words at most) and made of the letters a to z:
//     versions and symbols tell terms apart ("HTML4", "C#"); a version
//     after the name is read as usual ("Kuberentes 1.29");
//   - the name has minTypoLetters letters too: shorter words are one edit
//     from too many others ("scalar" is no misspelt Scala);
//   - the first letter is the same: people seldom mistype it, and words
//     that differ in it are most often other words ("mitigation" is no
//     misspelt Litigation, "nation" no Notion);
//   - no other term has a spelling (a name, an alias, a reference-data
//     tag) one edit away: several → no answer; and a spelling near only
//     by an alias does not count, aliases being often plain words
//     ("coaching", "charting");
//   - the term has a display name (no bare reference-data tag, which would
//     only echo the typo);
//   - the value is no word another vocabulary knows (a tool, a benefit, a
//     major, a word of job titles: "Docket" is no misspelt Docker).
//
// A value that spells a term, exactly or in a derived form, is never
// corrected, and FindIn never corrects: in prose, a word one letter from
// a skill is most often another word. Of the 56,000 words of six
// letters or more of an English dictionary (wamerican), about one in 200
// is read as a skill under these rules, half of them forms of its name
// ("rockets") and most others rare words ("blunder" → Blender).
const (
	minTypoLetters = 6
	maxTypoLetters = 40
	maxTypoWords   = 3
)

// typoIndex finds the spellings of a vocabulary one edit from a word
// ("symmetric delete"): it holds every spelling and its one-letter
// deletions, so that two words one edit apart share an entry (the
// spelling or one of its deletions equals the word or one of its own).
type typoIndex struct {
	keys  []string         // squashed spellings
	terms []*Term          // the term of each key
	named []bool           // whether the key spells its term's name
	near  map[uint64]int32 // a key or one of its deletions → index in keys; -(i+1): many[i]
	many  [][]int32
	size  int // len(Vocab.all) when built: an index of other spellings is not used
	// knownElsewhere reports whether a folded value is a word another
	// vocabulary knows.
	knownElsewhere func(string) bool
}

// IndexTypos builds the typo index of v's spellings, unless it has one of
// them already. knownElsewhere tells the words of other vocabularies.
func (v *Vocab) IndexTypos(knownElsewhere func(string) bool) {
	if v.typos != nil && v.typos.size == len(v.all) {
		return
	}
	x := &typoIndex{near: map[uint64]int32{}, size: len(v.all), knownElsewhere: knownElsewhere}
	add := func(h uint64, i int32) {
		cur, ok := x.near[h]
		switch {
		case !ok:
			x.near[h] = i
		case cur == i:
		case cur >= 0:
			x.many = append(x.many, []int32{cur, i})
			x.near[h] = -int32(len(x.many))
		default:
			m := &x.many[-cur-1]
			if (*m)[len(*m)-1] != i {
				*m = append(*m, i)
			}
		}
	}
	for k, t := range v.all {
		if len(k) < minTypoLetters || len(k) > maxTypoLetters+1 || !azOnly(k) {
			continue
		}
		i := int32(len(x.keys))
		x.keys = append(x.keys, k)
		x.terms = append(x.terms, t)
		x.named = append(x.named, k == fold.Squash(t.Name))
		add(typoHash(k, -1), i)
		for j := range len(k) {
			add(typoHash(k, j), i)
		}
	}
	v.typos = x
}

// typo returns the term whose name alone is one edit from s (see the
// rules above), for a value Lookup found nothing for.
func (v *Vocab) typo(s string) (*Term, bool) {
	x := v.typos
	if x == nil || x.size != len(v.all) {
		return nil, false
	}
	f := fold.Fold(s)
	if n := strings.Count(f, " ") + 1; n > maxTypoWords {
		return nil, false
	}
	if t, ok := x.correct(f); ok {
		return t, true
	}
	if base, ok := stripVersion(f); ok {
		return x.correct(base)
	}
	return nil, false
}

// correct returns the one term whose name is one edit from folded f, and
// no other term's spelling.
func (x *typoIndex) correct(f string) (*Term, bool) {
	w := fold.Squash(f)
	if len(w) < minTypoLetters || len(w) > maxTypoLetters || !azOnly(w) {
		return nil, false
	}
	if x.knownElsewhere != nil && (x.knownElsewhere(f) || w != f && x.knownElsewhere(w)) {
		return nil, false
	}
	var found *Term
	ambiguous, named := false, false
	consider := func(i int32) {
		t := x.terms[i]
		if ambiguous || x.keys[i][0] != w[0] || !fold.OneEdit(w, x.keys[i]) {
			return
		}
		if found != nil && found != t {
			ambiguous = true
			return
		}
		found = t
		named = named || x.named[i]
	}
	lookup := func(h uint64) {
		i, ok := x.near[h]
		switch {
		case !ok:
		case i >= 0:
			consider(i)
		default:
			for _, j := range x.many[-i-1] {
				consider(j)
			}
		}
	}
	lookup(typoHash(w, -1)) // a letter missing
	for j := range len(w) {
		lookup(typoHash(w, j)) // a letter too many, changed, or two swapped
	}
	if found == nil || ambiguous || !named || found.guessed {
		return nil, false
	}
	return found, true
}

// typoHash hashes s without its byte at skip (none when skip < 0): FNV-1a,
// without building the string.
func typoHash(s string, skip int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		if i != skip {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
	}
	return h
}

// azOnly reports whether s is made of the letters a to z only.
func azOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// HasTypos reports whether v has a typo index.
func (v *Vocab) HasTypos() bool { return v.typos != nil }

// SetKnownElsewhere gives a typo index read back from the cache the
// function telling the words of other vocabularies (a function is not
// written).
func (v *Vocab) SetKnownElsewhere(knownElsewhere func(string) bool) {
	if v.typos != nil {
		v.typos.knownElsewhere = knownElsewhere
	}
}
