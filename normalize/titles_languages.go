// Title languages: the Spanish, French, German and Portuguese words of job titles, read as English ones.

package normalize

import (
	"encoding/json"
	"fmt"
	"strings"
)

// titleLanguages is the layout of vocab/title_languages.json: a compact,
// project-written vocabulary of the most frequent heads and modifiers of
// job titles in Spanish, French, German and Portuguese, each mapped to
// the English words the taxonomy knows. Accents are folded as everywhere
// (Fold), so "développeur" is written "developpeur".
type titleLanguages struct {
	// Stopwords are the articles and prepositions of those languages
	// that titles hold ("Ingeniero de Software"); they are noise.
	Stopwords []string `json:"stopwords"`
	// Words maps a word to its English words ("enfermera" → nurse).
	Words map[string]string `json:"words"`
	// CompoundHeads are German head nouns that end compounds
	// ("Softwareentwickler"): a word the vocabulary does not know is split
	// before one when the rest is a known or translated word.
	CompoundHeads map[string]string `json:"compound_heads"`
}

func loadTitleLanguages() (*titleLanguages, error) {
	b, err := vocabFS.ReadFile("vocab/title_languages.json")
	if err != nil {
		return nil, err
	}
	var l titleLanguages
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("vocabulary title_languages.json: %w", err)
	}
	return &l, nil
}

// addTo adds the languages to a lexicon: stopwords to the noise, words
// and compound heads to the foreign words (compound heads also as the
// heads of compounds).
func (l *titleLanguages) addTo(lex *lexicon) {
	for _, w := range l.Stopwords {
		lex.noise[Fold(w)] = true
	}
	for _, m := range []map[string]string{l.Words, l.CompoundHeads} {
		for k, v := range m {
			lex.foreign[stem(Fold(k))] = strings.Fields(Fold(v)) // as clean leaves it
		}
	}
	for k, v := range l.CompoundHeads {
		lex.foreignHeads[stem(Fold(k))] = strings.Fields(Fold(v))
	}
}

// translate returns a title's cleaned words with the words of other
// languages that the taxonomy does not know as words of its own (with
// all, every one) replaced by their English words ("Enfermera" → nurse,
// not "Chauffeur", which English titles use), and German compounds
// split. Phrases of the vocabulary are
// never translated: a foreign alias of titles.json stays a phrase of its
// own, and a known word is never read as a foreign one.
func (t *taxonomy) translate(segs [][]string, all bool) [][]string {
	if len(t.lex.foreign) == 0 {
		return segs
	}
	out := make([][]string, len(segs))
	for i, seg := range segs {
		out[i] = t.translateSeg(seg, all)
	}
	return out
}

// hasForeign reports whether a word of segs is a word of another language.
func (t *taxonomy) hasForeign(segs [][]string) bool {
	for _, seg := range segs {
		for _, w := range seg {
			if _, ok := t.lex.foreign[w]; ok {
				return true
			}
		}
	}
	return false
}

// translateSeg translates the words of one segment: with all, the words
// the vocabulary knows too; seg itself is never changed.
func (t *taxonomy) translateSeg(seg []string, all bool) []string {
	var out []string // nil until a word changes
	for j, w := range seg {
		if _, known := t.words[w]; all || !known {
			e, ok := t.lex.foreign[w]
			if !ok {
				e, ok = t.splitCompound(w)
			}
			if ok {
				if out == nil {
					out = append(make([]string, 0, len(seg)+2), seg[:j]...)
				}
				out = append(out, e...)
				continue
			}
		}
		if out != nil {
			out = append(out, w)
		}
	}
	if out == nil {
		return seg
	}
	return dedupe(out)
}
