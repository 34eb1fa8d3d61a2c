// Place keys: the form place names are compared in, blind to case, diacritics, punctuation and abbreviations.

package places

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// nameKeys returns the keys a name is found by: its own and, for German
// umlauts, the spelling with ae, oe, ue ("Düsseldorf", "Duesseldorf").
func nameKeys(name string) []string {
	keys := []string{placeKey(name)}
	if hasUmlaut(name) {
		keys = append(keys, placeKey(umlautSpellings.Replace(name)))
	}
	return keys
}

func hasUmlaut(name string) bool {
	return !fold.IsPlainASCII(name) && strings.ContainsAny(name, "äöüÄÖÜ")
}

// keyBuf is the scratch space of appendKeys, for loaders that compute the
// keys of many names.
type keyBuf struct{ b []byte }

// appendKeys appends the keys of name (nameKeys) that keys lacks; only
// those it appends are allocated.
func (kb *keyBuf) appendKeys(keys []string, name string) []string {
	keys = kb.appendKey(keys, name)
	if hasUmlaut(name) {
		keys = kb.appendKey(keys, umlautSpellings.Replace(name))
	}
	return keys
}

func (kb *keyBuf) appendKey(keys []string, name string) []string {
	kb.b = appendPlaceKey(kb.b[:0], name)
	if len(kb.b) == 0 {
		return keys
	}
	for _, k := range keys {
		if k == string(kb.b) {
			return keys
		}
	}
	return append(keys, string(kb.b))
}

var umlautSpellings = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue")

// placeKeyWords are abbreviations of place names spelled out ("St. Louis" =
// "Saint Louis", "Ft. Worth" = "Fort Worth").
var placeKeyWords = map[string]string{"st": "saint", "ste": "sainte", "sankt": "saint", "ft": "fort", "mt": "mount"}

// latinLetters spells the Latin letters with diacritics (and a few
// others) as plain lower-case letters: "é" → "e", "ß" → "ss", "ł" → "l".
var latinLetters = func() map[rune]string {
	m := map[rune]string{'ß': "ss", 'ø': "o", 'Ø': "o", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ł': "l",
		'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i", 'ħ': "h", 'Ħ': "h"}
	for _, rng := range [][2]rune{{0xC0, 0x24F}, {0x1E00, 0x1EFF}} {
		for r := rng[0]; r <= rng[1]; r++ {
			if _, ok := m[r]; ok || !unicode.IsLetter(r) {
				continue
			}
			var base []rune
			for _, d := range norm.NFD.String(string(r)) {
				if !unicode.Is(unicode.Mn, d) {
					base = append(base, unicode.ToLower(d))
				}
			}
			if len(base) > 0 && base[0] < utf8.RuneSelf {
				m[r] = string(base)
			}
		}
	}
	return m
}()

// placeKey returns the form place names are compared in: lower case,
// without diacritics, punctuation as spaces, apostrophes dropped, "&" as
// "and", runs of single letters joined ("U.S.A." = "usa", "D.C." = "dc")
// and abbreviations spelled out ("St." = "saint").
func placeKey(s string) string {
	var arr [64]byte
	return string(appendPlaceKey(arr[:0], s))
}

// appendPlaceKey appends placeKey(s) to dst.
func appendPlaceKey(dst []byte, s string) []byte {
	start := len(dst)
	buf := dst
	inWord := false
	add := func(spelled string) {
		if !inWord && len(buf) > start {
			buf = append(buf, ' ')
		}
		buf = append(buf, spelled...)
		inWord = true
	}
	for _, r := range s {
		if r < utf8.RuneSelf {
			c := byte(r)
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case c == '\'' || c == '`':
				continue
			case c == '&':
				inWord = false
				add("and")
				inWord = false
				continue
			default:
				inWord = false
				continue
			}
			if !inWord && len(buf) > start {
				buf = append(buf, ' ')
			}
			buf = append(buf, c)
			inWord = true
			continue
		}
		switch {
		case r == '’' || r == '‘' || r == '´' || r == 'ʻ' || unicode.Is(unicode.Mn, r):
		case latinLetters[r] != "":
			add(latinLetters[r])
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord && len(buf) > start {
				buf = append(buf, ' ')
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			inWord = true
		default:
			inWord = false
		}
	}
	key := buf[start:]
	needs := false
	for w := range bytes.SplitSeq(key, []byte{' '}) {
		if isOneLetterBytes(w) || placeKeyWords[string(w)] != "" {
			needs = true
			break
		}
	}
	if !needs {
		return buf
	}
	// Rare: single letters to join or abbreviations to spell out.
	words := strings.Split(string(key), " ")
	buf = buf[:start]
	prevOne := false
	for i, w := range words {
		one := isOneLetter(w)
		if full := placeKeyWords[w]; full != "" {
			w = full
		}
		if i > 0 && !(one && prevOne) {
			buf = append(buf, ' ')
		}
		buf = append(buf, w...)
		prevOne = one
	}
	return buf
}

func isOneLetterBytes(w []byte) bool {
	r, size := utf8.DecodeRune(w)
	return size == len(w) && unicode.IsLetter(r)
}

func isOneLetter(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	return size == len(w) && unicode.IsLetter(r)
}
