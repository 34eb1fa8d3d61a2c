package normalize

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// blockElements end a line of the plain text.
var blockElements = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Br: true, atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Tr: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Section: true, atom.Article: true, atom.Table: true, atom.Blockquote: true, atom.Pre: true,
}

// HTMLText returns the plain text of an HTML fragment: tags removed,
// entities decoded, scripts and styles dropped, one line per block element.
func HTMLText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0 // inside <script> or <style>
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return tidyLines(b.String())
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := atom.Lookup(name)
			switch {
			case tag == atom.Script || tag == atom.Style:
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case blockElements[tag]:
				b.WriteByte('\n')
			}
		}
	}
}

// tidyLines collapses the spaces of each line and drops empty lines.
func tidyLines(s string) string {
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
