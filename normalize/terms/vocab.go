// Package terms holds jobsd's vocabularies of terms (skills, tools,
// technical and soft skills, certifications, benefits, education majors
// and levels, visas, security clearances, employment types, work
// arrangements): each term's spellings and umbrella, the reading of a value
// as a term (exact, derived forms, one typo in a skill), terms found in
// free text, the skills of the reference data, and their section of the
// normalizer's cache. The Normalizer (package normalize) is its front.
package terms

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// Term is one entry of a vocabulary: its canonical Name, the Aliases that
// mean it, and the Umbrella term it belongs under, if any. ListOnly are
// further spellings that count only as a whole value (a list item, a
// filter value), never when found in free text (FindIn): plain words
// ("Helm", "Gin"), single letters ("R") and other spellings that would
// mislead in a sentence. A name or alias repeated in ListOnly is list-only
// too.
type Term struct {
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases,omitempty"`
	Umbrella string   `json:"umbrella,omitempty"`
	ListOnly []string `json:"list_only,omitempty"`

	ref     bool // added from reference data (Vocab.addRef)
	guessed bool // its name is a lower-case tag, no display name (Vocab.addTags)
}

// Vocab maps the spellings of a vocabulary's terms to their canonical names.
type Vocab struct {
	terms  map[string]*Term // spellings FindIn finds in text, by folded and by squashed spelling
	all    map[string]*Term // every spelling Lookup knows: also list-only and reference-data ones
	byName map[string]*Term
	// derive makes Lookup also read the forms a value of an open
	// vocabulary takes: versions ("Python 3"), vendors ("Amazon
	// DynamoDB"), "(…)" and generic words ("Spring Framework").
	derive bool
	// hand counts the terms written in the project; reference data adds
	// terms after them (Vocab.addRef).
	hand int
	// owned holds the terms Vocab.addRef created, for Len.
	owned int
	// typos reads values one edit from a spelling (typo.go); nil
	// in vocabularies that do not correct typos.
	typos *typoIndex
	// termWords is the most words (prefixWords) of a key of terms: no
	// longer prefix of a value names a term (prefixTerm).
	termWords int
}

// NewVocab indexes terms. A spelling is bound to the first term that claims
// it, names before aliases, exact spellings before squashed ones. An
// umbrella spelled as an alias of a term is spelled as that term's name.
func NewVocab(terms []Term) *Vocab {
	v := &Vocab{terms: map[string]*Term{}, all: map[string]*Term{}, byName: map[string]*Term{}, hand: len(terms)}
	for i := range terms {
		if _, dup := v.byName[terms[i].Name]; !dup {
			v.byName[terms[i].Name] = &terms[i]
		}
	}
	for _, keyOf := range []func(string) string{fold.Fold, fold.Squash} {
		for i := range terms {
			v.claim(keyOf(terms[i].Name), &terms[i], !listOnly(&terms[i], terms[i].Name))
		}
		for i := range terms {
			t := &terms[i]
			for _, a := range t.Aliases {
				v.claim(keyOf(a), t, !listOnly(t, a))
			}
			for _, a := range t.ListOnly {
				v.claim(keyOf(a), t, false)
			}
		}
	}
	for i := range terms {
		if u, ok := v.lookup(terms[i].Umbrella); ok && u != &terms[i] {
			terms[i].Umbrella = u.Name
		}
	}
	return v
}

// claim binds key to t unless another term has it; text keys are also
// found in free text.
func (v *Vocab) claim(key string, t *Term, text bool) {
	if key == "" {
		return
	}
	if _, taken := v.all[key]; !taken {
		v.all[key] = t
	}
	if _, taken := v.terms[key]; text && !taken {
		v.terms[key] = t
		v.termWords = max(v.termWords, len(prefixWords(key)))
	}
}

// listOnly reports whether t lists spelling s among its list-only ones.
func listOnly(t *Term, s string) bool {
	for _, l := range t.ListOnly {
		if fold.Fold(l) == fold.Fold(s) {
			return true
		}
	}
	return false
}

// openVocabularies are the vocabularies whose values Lookup also
// recognizes in their derived forms (Vocab.derive).
var openVocabularies = map[string]bool{"skills.json": true, "tools.json": true, "technical_skills.json": true,
	"soft_skills.json": true, "certifications.json": true, "benefits.json": true, "education_majors.json": true}

// skillsAlso are the vocabularies whose terms the skills vocabulary knows
// too, as values only: a job's skills list names technical and soft
// skills and tools as well ("team player" → Teamwork, "MS Teams" →
// Microsoft Teams). Its own terms come first.
var skillsAlso = []string{"technical_skills.json", "soft_skills.json", "tools.json"}

// Load reads the vocabulary of the file name in vocab (normalize's embedded
// vocabularies), with the terms the skills vocabulary takes from others.
func Load(vocab fs.FS, name string) (*Vocab, error) {
	terms, err := readTerms(vocab, name)
	if err != nil {
		return nil, err
	}
	v := NewVocab(terms)
	v.derive = openVocabularies[name]
	if name == "skills.json" {
		for _, other := range skillsAlso {
			more, err := readTerms(vocab, other)
			if err != nil {
				return nil, err
			}
			for _, t := range more {
				v.addValueTerm(t)
			}
		}
	}
	return v, nil
}

func readTerms(vocab fs.FS, name string) ([]Term, error) {
	b, err := fs.ReadFile(vocab, name)
	if err != nil {
		return nil, err
	}
	var terms []Term
	if err := json.Unmarshal(b, &terms); err != nil {
		return nil, fmt.Errorf("vocabulary %s: %w", name, err)
	}
	return terms, nil
}

// addValueTerm adds a term of another vocabulary, found only as a whole
// value (never in free text): its spellings go to the term the vocabulary
// has for any of them, else to a new term. Spellings other terms have stay
// theirs.
func (v *Vocab) addValueTerm(t Term) {
	spellings := append(append([]string{t.Name}, t.Aliases...), t.ListOnly...)
	var into *Term
	for _, s := range spellings {
		if found, ok := v.lookup(s); ok {
			into = found
			break
		}
	}
	if into == nil {
		into = &Term{Name: t.Name, Umbrella: t.Umbrella}
		v.byName[t.Name] = into
		v.hand++
	}
	for _, s := range spellings {
		v.claim(fold.Fold(s), into, false)
		v.claim(fold.Squash(s), into, false)
	}
}

// Len returns the number of terms the vocabulary knows.
func (v *Vocab) Len() int { return v.hand + v.owned }

// Lookup returns the term s spells, if the vocabulary knows it. In an open
// vocabulary (all but the closed ones: education levels, visas, clearances,
// employment types, work arrangements) it also reads derived forms:
// "Python 3" and "Angular 2+" are Python and Angular, "Amazon DynamoDB" is
// DynamoDB, "Go (Golang)" is Go, and an unknown "AWS Glue" is a term of its
// own under AWS. The skills vocabulary then reads a value it still does
// not know as the one term a spelling of which is one edit away
// ("Kuberentes" is Kubernetes; Vocab.typo). A value longer than
// MaxListItemLength is no term.
func (v *Vocab) Lookup(s string) (*Term, bool) {
	if t, ok, more := v.exact(s); !more {
		return t, ok
	}
	if t, ok := v.derived(s); ok {
		return t, true
	}
	return v.typo(s)
}

// find is Lookup without typo correction, for reading reference data:
// a term of its own is never merged into one a letter away.
func (v *Vocab) find(s string) (*Term, bool) {
	if t, ok, more := v.exact(s); !more {
		return t, ok
	}
	return v.derived(s)
}

// exact reads s as the term it spells exactly (lookup), within the bound
// of a value; more reports that the vocabulary may still read it
// otherwise (derived forms, typos): it is open and s is neither too long
// nor known.
func (v *Vocab) exact(s string) (t *Term, ok, more bool) {
	if fold.TooLong(s, MaxListItemLength) {
		return nil, false, false
	}
	if t, ok := v.lookup(s); ok {
		return t, true, false
	}
	return nil, false, v.derive
}

// lookup finds the term s spells exactly: folded, or squashed.
func (v *Vocab) lookup(s string) (*Term, bool) {
	var fb, sb [64]byte
	var f []byte
	if fold.IsPlainASCII(s) {
		f = fold.AppendASCII(fb[:0], s)
	} else {
		f = append(fb[:0], fold.Fold(s)...)
	}
	if t, ok := v.all[string(f)]; ok {
		return t, true
	}
	t, ok := v.all[string(fold.AppendSquashed(sb[:0], f))]
	return t, ok
}

// Canonical returns the canonical spelling of s, or s trimmed when the
// vocabulary does not know it.
func (v *Vocab) Canonical(s string) string {
	if t, ok := v.Lookup(s); ok {
		return v.spelling(t, s)
	}
	return fold.Collapse(s)
}

// spelling is the canonical spelling of term t that s spells: its name,
// or s itself when t's name is only a guess from a lower-case tag
// ("NHibernate" stays so, not "Nhibernate").
func (v *Vocab) spelling(t *Term, s string) string {
	if t.guessed {
		return fold.Collapse(s)
	}
	return t.Name
}

// List returns the canonical spellings of in, without empty items and
// duplicates, in their first order.
func (v *Vocab) List(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, s := range in {
		c := v.Canonical(s)
		if c == "" || seen[fold.Fold(c)] {
			continue
		}
		seen[fold.Fold(c)] = true
		out = append(out, c)
	}
	return out
}

// Umbrella returns the top umbrella term of s ("EKS" → AWS, "golang" →
// Go), or its canonical spelling when it has no umbrella.
func (v *Vocab) Umbrella(s string) string {
	t, ok := v.Lookup(s)
	if !ok {
		return fold.Collapse(s)
	}
	return v.spelling(v.top(t), s)
}

// top follows the umbrellas of t to the last; a vocabulary's umbrellas
// nest a few levels at most, and 8 steps guard against a loop.
func (v *Vocab) top(t *Term) *Term {
	for range 8 {
		u, ok := v.byName[t.Umbrella]
		if !ok || u == t {
			break
		}
		t = u
	}
	return t
}

// WithUmbrellas returns List(in) followed by the umbrella terms of its
// items (transitively) that are not already in it.
func (v *Vocab) WithUmbrellas(in []string) []string {
	out := v.List(in)
	seen := map[string]bool{}
	for _, s := range out {
		seen[fold.Fold(s)] = true
	}
	for i := 0; i < len(out); i++ {
		t, ok := v.byName[out[i]]
		if !ok {
			t, ok = v.Lookup(out[i])
		}
		if !ok || t.Umbrella == "" || seen[fold.Fold(t.Umbrella)] {
			continue
		}
		seen[fold.Fold(t.Umbrella)] = true
		out = append(out, t.Umbrella)
	}
	return out
}

// MaxListItemLength is the most characters of a value the vocabularies
// read: a longer one is no term.
const MaxListItemLength = 500

// Knows reports whether s is a spelling the vocabulary has exactly
// (folded, or squashed).
func (v *Vocab) Knows(s string) bool {
	_, ok := v.lookup(s)
	return ok
}

// Read returns the canonical spelling of the term s spells and of its top
// umbrella ("EKS" → EKS, AWS), and false when the vocabulary does not know
// it (Lookup).
func (v *Vocab) Read(s string) (name, umbrella string, ok bool) {
	t, ok := v.Lookup(s)
	return v.names(t, s, ok)
}

// ReadSure is Read without the guesses from a value's first words.
func (v *Vocab) ReadSure(s string) (name, umbrella string, ok bool) {
	t, ok := v.sure(s)
	return v.names(t, s, ok)
}

// names returns the canonical spellings of t, the term s was read as, and
// of its top umbrella (spelling), and false when s was read as none.
func (v *Vocab) names(t *Term, s string, ok bool) (name, umbrella string, _ bool) {
	if !ok {
		return "", "", false
	}
	return v.spelling(t, s), v.spelling(v.top(t), s), true
}

// Spellings calls yield with every spelling the vocabulary reads (folded,
// and squashed), until yield returns false: also those only reference
// data and tag synonyms add, which no term lists.
func (v *Vocab) Spellings(yield func(string) bool) {
	for s := range v.all {
		if !yield(s) {
			return
		}
	}
}

// Names calls yield with every term by its name, until yield returns
// false.
func (v *Vocab) Names(yield func(*Term) bool) {
	for _, t := range v.byName {
		if !yield(t) {
			return
		}
	}
}

// FindIn returns the terms whose names or aliases stand in text as whole
// words. Spellings of two letters or fewer count only when written in
// capitals ("BS", "MS"), since as ordinary words they would mislead.
func (v *Vocab) FindIn(text string) []string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '+' || r == '#' || r == '.')
	})
	// dotted keeps a word's final period where the word has another one
	// inside: "B.S." is an abbreviation, "Accounting." ends a sentence.
	dotted := make([]string, len(words))
	for i, w := range words {
		words[i] = strings.Trim(w, ".'")
		if strings.HasSuffix(w, ".") && strings.Contains(words[i], ".") {
			dotted[i] = words[i] + "."
		}
	}
	var out []string
	for i := range words {
		for n := 4; n >= 1; n-- {
			if i+n > len(words) {
				continue
			}
			phrase := strings.Join(words[i:i+n], " ")
			t, ok := v.terms[fold.Fold(phrase)]
			if !ok && dotted[i+n-1] != "" {
				phrase += "."
				t, ok = v.terms[fold.Fold(phrase)]
			}
			if !ok {
				continue
			}
			if len(phrase) <= 2 && phrase != strings.ToUpper(phrase) {
				continue
			}
			if !slices.Contains(out, t.Name) {
				out = append(out, t.Name)
			}
			break
		}
	}
	return out
}
