// Package fold holds the forms jobsd compares text in: folded (case,
// accents and spacing do not matter), squashed (nor punctuation between
// letters), and slugs (URL-safe names). Every vocabulary, place and title
// lookup of package normalize, and the suggestions' words, compare these.
package fold

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// accentRemovers hold transformers that take accents off: a
// transform.Chain keeps state between calls and is not safe for concurrent
// use, so each goroutine takes its own.
var accentRemovers = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// Fold returns s in the form spellings are compared in: lower case, without
// accents, with single spaces.
func Fold(s string) string {
	if IsPlainASCII(s) {
		return foldASCII(s)
	}
	t := accentRemovers.Get().(transform.Transformer)
	out, _, err := transform.String(t, s) // resets t first
	accentRemovers.Put(t)
	if err != nil {
		out = s
	}
	return Collapse(strings.ToLower(out))
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

// AppendASCII appends Fold(s) to dst for ASCII text s (IsPlainASCII).
func AppendASCII(dst []byte, s string) []byte {
	start := len(dst)
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// asciiSpace reports the ASCII bytes strings.Fields splits on.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// IsPlainASCII reports whether s is ASCII only.
func IsPlainASCII(s string) bool {
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

// Squash is Fold without the punctuation and spaces that spellings of one
// term differ by ("React.js" = "reactjs", "H1-B" = "h-1b"); + and # stay,
// since they tell C, C++ and C# apart.
func Squash(s string) string {
	f := Fold(s)
	if IsPlainASCII(f) {
		kept := true
		for i := 0; i < len(f) && kept; i++ {
			kept = squashKeeps(f[i])
		}
		if kept {
			return f
		}
	}
	return string(AppendSquashed(make([]byte, 0, len(f)), []byte(f)))
}

// squashKeeps reports whether Squash keeps an ASCII byte of folded text.
func squashKeeps(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '#'
}

// AppendSquashed appends the squashed form of folded text f to dst (Squash
// after Fold).
func AppendSquashed(dst, f []byte) []byte {
	for i := 0; i < len(f); {
		c := f[i]
		if c < utf8.RuneSelf {
			if squashKeeps(c) {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(f[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			dst = utf8.AppendRune(dst, r)
		}
		i += size
	}
	return dst
}

// TooLong reports whether s has more than max characters; the readers of
// free text (ParseLocation, Title, Vocab.Lookup…) treat such a text as
// naming nothing, so that no input makes their work grow faster than its
// length.
func TooLong(s string, max int) bool {
	return len(s) > max && (len(s) > utf8.UTFMax*max || utf8.RuneCountInString(s) > max)
}

// OneEdit reports whether a and b differ by one insertion, deletion,
// substitution or swap of neighbouring letters.
func OneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch len(b) - len(a) {
	case 1:
		return a[i:] == b[i+1:]
	case 0:
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return false
}

// Collapse trims s and makes its runs of white space single spaces: the
// form a value the vocabularies do not know is kept in. It is
// strings.Join(strings.Fields(s), " ") in one pass, without a slice of
// the fields (a long text of short words made that slice, and the
// collector's work, grow faster than the text), and s itself when it is
// already collapsed.
func Collapse(s string) string {
	if collapsed(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pending := false // a space to write before the next word
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			pending = b.Len() > 0
		} else {
			if pending {
				b.WriteByte(' ')
				pending = false
			}
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// collapsed reports whether s has no white space but single spaces
// between words.
func collapsed(s string) bool {
	prevSpace := true // at the start, a space would be leading
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		space := unicode.IsSpace(r)
		if space && (r != ' ' || prevSpace) {
			return false
		}
		prevSpace = space
		i += size
	}
	return !prevSpace || s == ""
}
