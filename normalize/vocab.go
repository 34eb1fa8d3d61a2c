package normalize

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Term is one entry of a vocabulary: its canonical Name, the Aliases that
// mean it, and the Umbrella term it belongs under, if any.
type Term struct {
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases"`
	Umbrella string   `json:"umbrella"`
}

// Vocab maps the spellings of a vocabulary's terms to their canonical names.
type Vocab struct {
	terms  map[string]*Term // by folded and by squashed spelling
	byName map[string]*Term
}

// NewVocab indexes terms. A spelling is bound to the first term that claims
// it, names before aliases, exact spellings before squashed ones.
func NewVocab(terms []Term) *Vocab {
	v := &Vocab{terms: map[string]*Term{}, byName: map[string]*Term{}}
	for i := range terms {
		v.byName[terms[i].Name] = &terms[i]
	}
	claim := func(key string, t *Term) {
		if _, taken := v.terms[key]; !taken && key != "" {
			v.terms[key] = t
		}
	}
	for _, keyOf := range []func(string) string{Fold, squash} {
		for i := range terms {
			claim(keyOf(terms[i].Name), &terms[i])
		}
		for i := range terms {
			for _, a := range terms[i].Aliases {
				claim(keyOf(a), &terms[i])
			}
		}
	}
	return v
}

func loadVocab(name string) (*Vocab, error) {
	b, err := vocabFS.ReadFile("vocab/" + name)
	if err != nil {
		return nil, err
	}
	var terms []Term
	if err := json.Unmarshal(b, &terms); err != nil {
		return nil, fmt.Errorf("vocabulary %s: %w", name, err)
	}
	return NewVocab(terms), nil
}

// Lookup returns the term s spells, if the vocabulary knows it.
func (v *Vocab) Lookup(s string) (*Term, bool) {
	if t, ok := v.terms[Fold(s)]; ok {
		return t, true
	}
	t, ok := v.terms[squash(s)]
	return t, ok
}

// Canonical returns the canonical spelling of s, or s trimmed when the
// vocabulary does not know it.
func (v *Vocab) Canonical(s string) string {
	if t, ok := v.Lookup(s); ok {
		return t.Name
	}
	return strings.Join(strings.Fields(s), " ")
}

// List returns the canonical spellings of in, without empty items and
// duplicates, in their first order.
func (v *Vocab) List(in []string) []string {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, s := range in {
		c := v.Canonical(s)
		if c == "" || seen[Fold(c)] {
			continue
		}
		seen[Fold(c)] = true
		out = append(out, c)
	}
	return out
}

// Umbrella returns the top umbrella term of s ("EKS" → AWS, "golang" →
// Go), or its canonical spelling when it has no umbrella.
func (v *Vocab) Umbrella(s string) string {
	name := v.Canonical(s)
	for range 8 { // umbrellas nest a few levels at most; 8 guards against loops
		t, ok := v.byName[name]
		if !ok || t.Umbrella == "" {
			break
		}
		name = t.Umbrella
	}
	return name
}

// WithUmbrellas returns List(in) followed by the umbrella terms of its
// items (transitively) that are not already in it.
func (v *Vocab) WithUmbrellas(in []string) []string {
	out := v.List(in)
	seen := map[string]bool{}
	for _, s := range out {
		seen[Fold(s)] = true
	}
	for i := 0; i < len(out); i++ {
		t, ok := v.byName[out[i]]
		if !ok || t.Umbrella == "" || seen[Fold(t.Umbrella)] {
			continue
		}
		seen[Fold(t.Umbrella)] = true
		out = append(out, t.Umbrella)
	}
	return out
}

var accentRemover = transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

// Fold returns s in the form spellings are compared in: lower case, without
// accents, with single spaces.
func Fold(s string) string {
	if isPlainASCII(s) {
		return foldASCII(s)
	}
	out, _, err := transform.String(accentRemover, s)
	if err != nil {
		out = s
	}
	return strings.Join(strings.Fields(strings.ToLower(out)), " ")
}

// foldASCII is Fold for ASCII text in one pass, without allocating when s
// is folded already (the common case for lookups of canonical values).
func foldASCII(s string) string {
	folded := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ('A' <= c && c <= 'Z') || (asciiSpace(c) && (c != ' ' || i == 0 || i == len(s)-1 || s[i-1] == ' ')) {
			folded = false
			break
		}
	}
	if folded {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// asciiSpace reports the ASCII bytes strings.Fields splits on.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Slug returns a URL-safe name of s: its folded words of ASCII letters and
// digits joined by '-' ("Société Générale" → "societe-generale").
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range Fold(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// squash is Fold without the punctuation and spaces that spellings of one
// term differ by ("React.js" = "reactjs", "H1-B" = "h-1b"); + and # stay,
// since they tell C, C++ and C# apart.
func squash(s string) string {
	f := Fold(s)
	var b strings.Builder
	for _, r := range f {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '#' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
