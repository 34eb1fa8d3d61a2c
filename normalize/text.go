package normalize

import (
	"html"
	"regexp"
	"strings"
	"unicode"
)

var (
	blockTags = regexp.MustCompile(`(?i)<\s*(br|/p|/div|/li|/h[1-6]|/tr|li)\b[^>]*>`)
	anyTag    = regexp.MustCompile(`(?s)<[^>]*>`)
	scripts   = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)\s*>`)
)

// HTMLText returns the plain text of an HTML fragment: tags removed,
// entities decoded, one line per block element.
func HTMLText(s string) string {
	s = scripts.ReplaceAllString(s, "")
	s = blockTags.ReplaceAllString(s, "\n")
	s = html.UnescapeString(anyTag.ReplaceAllString(s, ""))
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// FindIn returns the terms whose names or aliases stand in text as whole
// words. Spellings of two letters or fewer count only when written in
// capitals ("BS", "MS"), since as ordinary words they would mislead.
func (v *Vocab) FindIn(text string) []string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '+' || r == '#' || r == '.')
	})
	for i, w := range words {
		words[i] = strings.Trim(w, ".'")
	}
	var out []string
	for i := range words {
		for n := 4; n >= 1; n-- {
			if i+n > len(words) {
				continue
			}
			phrase := strings.Join(words[i:i+n], " ")
			t, ok := v.terms[Fold(phrase)]
			if !ok {
				continue
			}
			if len(phrase) <= 2 && phrase != strings.ToUpper(phrase) {
				continue
			}
			out = appendNew(out, t.Name)
			break
		}
	}
	return out
}
