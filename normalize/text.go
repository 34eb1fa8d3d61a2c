// Free text: HTML read as plain text, and the vocabulary terms a text names (Vocab.FindIn).

package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
// entities decoded, scripts and styles dropped, one line per block element,
// spaces collapsed, in one pass over the tokens.
func HTMLText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	t := textWriter{}
	t.b.Grow(len(s) / 2)
	skip := 0 // inside <script> or <style>
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return t.b.String()
		case html.TextToken:
			if skip == 0 {
				t.write(z.Text())
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
				t.lineEnds = true
			}
		}
	}
}

// textWriter collapses white space as it writes: one space between words,
// one newline between lines with text (a block element or a newline in the
// text ends a line), none at the ends.
type textWriter struct {
	b        strings.Builder
	space    bool // a space is due before the next word
	lineEnds bool // a newline is due before the next word
}

func (t *textWriter) write(p []byte) {
	for len(p) > 0 {
		r, size := rune(p[0]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(p)
		}
		p = p[size:]
		switch {
		case r == '\n':
			// Text that is plain already keeps its lines.
			t.lineEnds = true
			continue
		case unicode.IsSpace(r):
			t.space = true
			continue
		}
		switch {
		case t.b.Len() == 0:
		case t.lineEnds:
			t.b.WriteByte('\n')
		case t.space:
			t.b.WriteByte(' ')
		}
		t.space, t.lineEnds = false, false
		t.b.WriteRune(r)
	}
}
