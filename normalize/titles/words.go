// Title words: a title cut into segments of cleaned, singular, typo-corrected words.

package titles

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// token is a word of a title being classified.
type token struct {
	s      string
	h      uint64
	w      float32
	known  bool
	pos    int
	segEnd bool // the last word of its segment
}

// split cuts a title into segments of cleaned words, and the segments that
// stood in brackets.
func (t *Taxonomy) split(title string) (main, asides [][]string) {
	s := title
	if strings.Contains(s, "OR") && strings.ToUpper(s) != s {
		// "OR Nurse": the operating room, not the conjunction.
		s = orWord.ReplaceAllString(s, "Operating Room")
	}
	s = fold.Fold(s)
	var raw, aside []string
	depth := 0
	start := -1 // of the current word
	endSegment := func() {
		if words := t.clean(raw); len(words) > 0 {
			main = append(main, words)
		}
		raw = raw[:0] // clean keeps nothing of raw
	}
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := s[start:end]
		start = -1
		if strings.IndexByte(w, '.') >= 0 || strings.IndexByte(w, '\'') >= 0 || strings.Contains(w, "’") {
			w = wordPunct.Replace(elide(w))
		}
		switch {
		case w == "":
		case depth > 0:
			aside = append(aside, w)
		case w == "at" || w == "to":
			endSegment()
		case (w == "in" || w == "out") && len(raw) > 0 && raw[len(raw)-1] == "based":
			raw = raw[:len(raw)-1] // "Nurse Based in Reno": a place follows
			endSegment()
		default:
			raw = append(raw, w)
		}
	}
	endAside := func() {
		if words := t.clean(aside); len(words) > 0 {
			asides = append(asides, words)
		}
		aside = aside[:0]
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '+' || r == '#' || r == '&' || r == '.' || r == '\'' || r == '’':
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		switch {
		case r == '(' || r == '[' || r == '{':
			depth++
		case r == ')' || r == ']' || r == '}':
			if depth > 0 {
				depth--
				if depth == 0 {
					endAside()
				}
			}
		case depth > 0:
		case breaksSegment(s, i, r):
			endSegment()
		}
	}
	flush(len(s))
	endSegment()
	endAside()
	return main, asides
}

var orWord = regexp.MustCompile(`\bOR\b`)

// breaksSegment reports whether r, at byte i of s, ends a title's
// segment: a comma, semicolon, bar, at sign, bullet, colon or long dash,
// or a hyphen or slash between spaces ("Nurse - ICU", "Cook / Baker").
func breaksSegment(s string, i int, r rune) bool {
	if strings.ContainsRune(",;|@•·:–—−", r) {
		return true
	}
	return (r == '-' || r == '/') && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' '
}

// Segments cuts a title at its segment breaks (breaksSegment), returning
// its segments trimmed, the empty ones left out ("Intern - Boston, MA" is
// "Intern", "Boston", "MA"). Brackets are not looked into.
func Segments(title string) []string {
	var out []string
	start := 0
	add := func(end int) {
		if seg := strings.TrimSpace(title[start:end]); seg != "" {
			out = append(out, seg)
		}
	}
	for i, r := range title {
		if breaksSegment(title, i, r) {
			add(i)
			start = i + utf8.RuneLen(r)
		}
	}
	add(len(title))
	return out
}

// elide drops a French elided article or preposition from the front of a
// folded word, so that the word itself is read: "d'entrepot" is
// "entrepot" ("Responsable d'Entrepôt"), "l'accueil" is "accueil".
func elide(w string) string {
	for _, p := range elisions {
		if rest, ok := strings.CutPrefix(w, p); ok && len(rest) >= 2 {
			return rest
		}
	}
	return w
}

// elisions are the elided words elide drops, with either apostrophe.
var elisions = []string{"d'", "l'", "qu'", "d’", "l’", "qu’"}

// wordPunct takes off the punctuation a word of a title keeps in split.
var wordPunct = strings.NewReplacer(".", "", "'", "", "’", "")

// clean turns the raw words of a segment into the words that say what the
// occupation is.
func (t *Taxonomy) clean(raw []string) []string {
	if len(raw) == 0 {
		return nil
	}
	lex := &t.lex
	var out []string
	afterNumber := false
	for i := 0; i < len(raw); i++ {
		w := raw[i]
		if lex.compoundStart[w] {
			if i+2 < len(raw) {
				if c, ok := lex.compounds[w+" "+raw[i+1]+" "+raw[i+2]]; ok {
					w, i = c, i+2
				}
			}
			if w == raw[i] && i+1 < len(raw) {
				if c, ok := lex.compounds[w+" "+raw[i+1]]; ok {
					w, i = c, i+1
				}
			}
		}
		if lex.beforeNumber[w] {
			j := i + 1 // past words of the same kind: "Spring/Summer 2027"
			for j < len(raw) && lex.beforeNumber[raw[j]] {
				j++
			}
			if j < len(raw) && hasDigit(raw[j]) && !lex.keepNumbers[raw[j]] {
				continue // "Grade 7", "Summer 2026"
			}
			if j == len(raw) && lex.seasons[w] && len(out) > 0 {
				continue // "Software Intern-Fall", "Data Intern Spring/Summer"
			}
			if j < len(raw) && lex.seasons[w] && t.traineeAt(raw, j) {
				continue // "Data Engineering Summer Intern", "Summer Co-op"
			}
		}
		if hasDigit(w) && !lex.keepNumbers[w] {
			afterNumber = true
			continue
		}
		if afterNumber && lex.units[w] {
			continue
		}
		afterNumber = false
		expanded := []string{w}
		if a, ok := lex.abbreviations[w]; ok {
			expanded = a
		}
		for _, e := range expanded {
			if e == "" || lex.noise[e] || e == "&" {
				continue
			}
			out = append(out, stem(e))
		}
	}
	if n := len(out); n > 0 {
		if a, ok := lex.headAbbreviations[out[n-1]]; ok {
			out = append(out[:n-1], a...)
		}
	}
	return out
}

// traineeAt reports whether raw[j], alone or as the start of a compound
// ("co op"), is a word of Trainees.
func (t *Taxonomy) traineeAt(raw []string, j int) bool {
	if t.lex.trainees[raw[j]] {
		return true
	}
	c, ok := t.lex.compounds[strings.Join(raw[j:min(j+2, len(raw))], " ")]
	return ok && t.lex.trainees[c]
}

func hasDigit(w string) bool { return strings.IndexFunc(w, unicode.IsDigit) >= 0 }

// minCompoundPart is the least length of the first part of a compound
// that splitCompound splits.
const minCompoundPart = 3

// splitCompound splits a German compound title word into its parts when
// it ends in a head of title_languages.json and the rest is a word the
// vocabulary knows or translates, with or without a linking s
// ("Datenanalyst" → data analyst, "Vertriebsleiter" → sales manager).
func (t *Taxonomy) splitCompound(w string) ([]string, bool) {
	if len(t.lex.foreignHeads) == 0 || len(w) < 2*minCompoundPart+1 {
		return nil, false
	}
	for cut := minCompoundPart; cut <= len(w)-minCompoundPart; cut++ {
		head, ok := t.lex.foreignHeads[w[cut:]]
		if !ok {
			continue
		}
		for _, first := range []string{w[:cut], strings.TrimSuffix(w[:cut], "s")} {
			if len(first) < minCompoundPart {
				continue
			}
			if a, ok := t.lex.foreign[first]; ok {
				return append(append([]string(nil), a...), head...), true
			}
			if _, known := t.words[first]; known {
				return append([]string{first}, head...), true
			}
		}
		return nil, false // the longest head decides
	}
	return nil, false
}

// senior reports whether a title holds a seniority word.
func (t *Taxonomy) senior(title string) bool {
	f := fold.Fold(title)
	start := -1 // of the current word: a run of letters
	for i, r := range f {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && t.lex.seniority[f[start:i]] {
			return true
		}
		start = -1
	}
	return start >= 0 && t.lex.seniority[f[start:]]
}

// ambiguous reports whether a set of words is, but for its soft and
// modifier words, a phrase that names nothing alone.
func (t *Taxonomy) ambiguous(words []string) bool {
	var plain []string
	for _, w := range words {
		if t.lex.kind[w] == wordPlain {
			plain = append(plain, w)
		}
	}
	if len(plain) == len(words) || len(plain) == 0 {
		return false
	}
	p, ok := t.phrases[hashBag(plain)]
	return ok && p.hand && p.cat == noCategory
}

// stem makes an English plural singular, the same way for titles and
// phrases: "nurses" → nurse, "secretaries" → secretary, "coaches" →
// coach, "salesmen" → salesman.
func stem(w string) string {
	n := len(w)
	if n <= 3 || w[n-1] < 'a' || w[n-1] > 'z' {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "men") && n > 4:
		return w[:n-3] + "man"
	case w[n-1] == 's':
		return w[:n-1]
	}
	return w
}

// stemmedWords returns the words of s as clean leaves them: folded and
// singular.
func stemmedWords(s string) []string {
	out := strings.Fields(fold.Fold(s))
	for i, w := range out {
		out[i] = stem(w)
	}
	return out
}

// tokens weighs the words of a segment, correcting the long ones the
// vocabulary does not know.
func (t *Taxonomy) tokens(words []string, pos int) []token {
	out := make([]token, 0, len(words))
	for i, w := range words {
		tk := token{s: w, pos: pos + i, segEnd: i == len(words)-1}
		wi, known := t.words[w]
		kind := t.lex.kind[w]
		if !known && kind == wordPlain && len(w) >= minTypoLength {
			if c, ok := t.correct(w); ok {
				tk.s, wi, known = c, t.words[c], true
			}
		}
		switch {
		case kind == wordModifier:
			tk.w = modifierWeight
		case kind == wordSoft:
			tk.w = softWeight
		case known:
			tk.w = wi.weight
		default:
			tk.w = t.unknown
		}
		if known {
			tk.known, tk.h = true, hashWord(tk.s)
		}
		out = append(out, tk)
	}
	return out
}

// correct returns the vocabulary word one edit (a letter added, dropped,
// changed, or two swapped) away from w, the one in most phrases when
// several are.
func (t *Taxonomy) correct(w string) (string, bool) {
	found, df := "", int32(-1)
	consider := func(c string) {
		if wi := t.words[c]; wi.df > df && fold.OneEdit(w, c) {
			found, df = c, wi.df
		}
	}
	if idx, ok := t.typos[hashWord(w)]; ok && idx >= 0 {
		consider(t.typoWord[idx]) // a letter missing
	}
	for i := range len(w) {
		d := w[:i] + w[i+1:]
		if _, ok := t.words[d]; ok && len(d) >= minTypoLength-1 {
			consider(d) // a letter too many
		}
		if idx, ok := t.typos[hashWord(d)]; ok && idx >= 0 {
			consider(t.typoWord[idx]) // a letter changed, or two swapped
		}
	}
	return found, found != ""
}
