// Title languages: the Spanish, French, German and Portuguese words of job titles, read as English ones.

package titles

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// titleLanguages is the layout of vocab/title_languages.json: a compact,
// project-written vocabulary of the most frequent heads and modifiers of
// job titles in Spanish, French, German and Portuguese, each mapped to
// the English words the taxonomy knows. Accents are folded as everywhere
// (Fold), so "développeur" is written "developpeur".
type titleLanguages struct {
	// FalseFriends are words English titles use in another sense ("Chef",
	// "Professor", "Personal Trainer"): translated only in a segment that
	// holds another foreign word ("Chef de Projet"), or when nothing else
	// names a role.
	FalseFriends []string `json:"false_friends"`
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

func loadTitleLanguages(vocab fs.FS) (*titleLanguages, error) {
	b, err := fs.ReadFile(vocab, "title_languages.json")
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
// heads of compounds). Words spelled as their English ones are left out.
func (l *titleLanguages) addTo(lex *lexicon) {
	for _, w := range l.Stopwords {
		lex.noise[fold.Fold(w)] = true
	}
	// Both sides as clean leaves words: folded and singular.
	for _, m := range []map[string]string{l.Words, l.CompoundHeads} {
		for k, v := range m {
			if k, e := stem(fold.Fold(k)), stemmedWords(v); len(e) != 1 || e[0] != k {
				lex.foreign[k] = e
			}
		}
	}
	for k, v := range l.CompoundHeads {
		lex.foreignHeads[stem(fold.Fold(k))] = stemmedWords(v)
	}
	for _, w := range l.FalseFriends {
		lex.falseFriends[stem(fold.Fold(w))] = true
	}
}

// translate returns a title's cleaned words with the words of other
// languages replaced by their English words ("Enfermera" → nurse) and
// German compounds split, in the segments that hold a foreign word other
// than a false friend (with all, in every segment). segs itself is never
// changed. Phrases of the vocabulary are never translated.
func (t *Taxonomy) translate(segs [][]string, all bool) [][]string {
	if len(t.lex.foreign) == 0 {
		return segs
	}
	var out [][]string // nil until a segment changes
	for i, seg := range segs {
		tr, changed := t.translateSeg(seg, all)
		if !changed {
			continue
		}
		if out == nil {
			out = slices.Clone(segs)
		}
		out[i] = tr
	}
	if out == nil {
		return segs
	}
	return out
}

// hasForeign reports whether a word of segs is a word of another language
// that English titles do not use as a head naming an occupation only with
// other words: "Conductor" alone stays unread in English (a railway's, an
// orchestra's), not a Spanish driver.
func (t *Taxonomy) hasForeign(segs [][]string) bool {
	for _, seg := range segs {
		for _, w := range seg {
			if _, ok := t.lex.foreign[w]; ok && !t.occupationHead(w) {
				return true
			}
		}
	}
	return false
}

// translateSeg translates the words of one segment that holds a foreign
// word other than a false friend, or any with all, and reports whether a
// word changed (else it returns seg). A segment that starts with a
// translated word is turned round to English order.
func (t *Taxonomy) translateSeg(seg []string, all bool) ([]string, bool) {
	foreign := all
	for _, w := range seg {
		if _, ok := t.lex.foreign[w]; ok && !t.lex.falseFriends[w] {
			foreign = true
			break
		}
	}
	var out []string // nil until a word changes
	headFirst := false
	for j, w := range seg {
		e, ok := t.lex.foreign[w]
		ok = ok && foreign
		headFirst = headFirst || ok && j == 0
		if !ok {
			if _, known := t.words[w]; !known {
				e, ok = t.splitCompound(w)
			}
		}
		if ok {
			if out == nil {
				out = append(make([]string, 0, len(seg)+2), seg[:j]...)
			}
			out = append(out, e...)
			continue
		}
		if out != nil {
			out = append(out, w)
		}
	}
	if out == nil {
		return seg, false
	}
	if headFirst {
		// "Gerente de Ventas", "Leiter Vertrieb": the head comes first in
		// these languages, last in English, where the taxonomy looks
		// for it.
		slices.Reverse(out)
	}
	return dedupe(out), true
}
