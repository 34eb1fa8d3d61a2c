// Location text: splitting free text into the texts of its places and those into parts.

package places

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

// placeNoise are words of location text that name no place ("Multiple
// Locations", "US only", "Suite 400"); placeFillers join the place to what
// is around it ("Remote in the US", "Based in Berlin").
var (
	placeNoise = map[string]bool{
		"multiple": true, "various": true, "several": true, "many": true, "all": true, "locations": true,
		"location": true, "cities": true, "offices": true, "office": true, "more": true, "other": true,
		"others": true, "only": true, "preferred": true, "required": true, "must": true, "be": true,
		"located": true, "based": true, "resident": true, "residents": true, "residing": true, "reside": true,
		"living": true, "candidates": true, "eligible": true, "open": true, "any": true, "where": true,
		"across": true, "throughout": true, "area": true, "region": true, "hq": true, "headquarters": true,
		"campus": true, "suite": true, "ste": true, "floor": true, "building": true, "bldg": true, "unit": true,
		"downtown": true, "nationwide": true, "tbd": true, "tba": true, "approved": true, "states": true,
		"countries": true, "country": true, "please": true, "note": true, "hub": true, "work": true, "job": true,
		"citizen": true, "citizens": true, "authorized": true, "authorised": true, "confidential": true,
	}
	placeFillers = map[string]bool{
		"in": true, "from": true, "within": true, "near": true, "around": true, "the": true, "of": true,
		"at": true, "for": true, "and": true, "or": true, "a": true, "an": true, "to": true, "on": true, "out": true,
		"but": true, "preferably": true, "ideally": true,
	}
	timeZoneWords = map[string]bool{"time": true, "zone": true, "zones": true, "timezone": true, "timezones": true, "tz": true, "hours": true, "overlap": true}
)

// readText returns the places text names as read, noting its work
// arrangement in out.
func (g *Gazetteer) readText(text string, out *ParsedLocation) []locReading {
	text = strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
		case unicode.IsSpace(r) || unicode.IsControl(r) || r == '_':
			return ' '
		case unicode.Is(unicode.Cf, r): // zero-width and direction marks
			return -1
		}
		return r
	}, strings.ToValidUTF8(text, " "))
	text = arrangement(text, out)
	var all []locReading
	for _, seg := range g.segments(text) {
		rs := g.places(g.parts(seg))
		for i := 0; i < len(rs); i++ {
			// "London, Greater London, England": one city named twice.
			if i+1 < len(rs) && samePlace(rs[i], rs[i+1]) {
				rs[i+1] = mergeReadings(rs[i], rs[i+1])
				continue
			}
			all = append(all, rs[i])
		}
	}
	return all
}

// samePlace reports whether two places read one after the other are one:
// the same city, and no state or country told apart.
func samePlace(ra, rb locReading) bool {
	a, b := ra.place, rb.place
	if a.City == "" || a.City != b.City || (a.State != "" && b.State != "" && a.State != b.State) ||
		(a.Country != "" && b.Country != "" && a.Country != b.Country) {
		return false
	}
	st, country := ra.state, b.Country
	if st == nil {
		st, country = rb.state, a.Country
	}
	return st == nil || country == "" || st.Country == country
}

func mergeReadings(a, b locReading) locReading {
	if b.place.State == "" {
		b.place.State, b.state = a.place.State, a.state
	}
	if b.place.Country == "" {
		b.place.Country = a.place.Country
	}
	if b.city == nil {
		b.city = a.city
	}
	return b
}

// segments splits text into the texts of its places: at ";", "|", line
// breaks and bullets, and at "/", " or ", " and ", " & ", "+" unless these
// are part of a name ("Trinidad and Tobago", "Dallas/Fort Worth").
func (g *Gazetteer) segments(text string) []string {
	var out []string
	for _, seg := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ';' || r == '|' || r == '\n' || r == '•' || r == '·'
	}) {
		out = append(out, g.splitWeak(seg)...)
	}
	return out
}

var weakSeps = []string{"/", " or ", " and ", " & ", "+"}

func (g *Gazetteer) splitWeak(seg string) []string {
	var out []string
	start := 0 // of the current segment
	for i := 0; i < len(seg); i++ {
		for _, sep := range weakSeps {
			if i+len(sep) > len(seg) || !strings.EqualFold(seg[i:i+len(sep)], sep) {
				continue
			}
			// The comma-separated part around the separator, which may be a
			// name containing it.
			l := strings.LastIndexAny(seg[start:i], ",:()") + 1 + start
			r := strings.IndexAny(seg[i+len(sep):], ",:()")
			if r < 0 {
				r = len(seg)
			} else {
				r += i + len(sep)
			}
			if g.knownName(seg[l:r]) {
				continue
			}
			// A country's name with a comma ("Korea, Republic of").
			if l > start {
				if l2 := strings.LastIndexAny(seg[start:l-1], ",:()") + 1 + start; g.countries[placeKey(seg[l2:r])] != "" {
					continue
				}
			}
			out = append(out, seg[start:i])
			start = i + len(sep)
			i = start - 1
			break
		}
	}
	return append(out, seg[start:])
}

// maxPlaceText is the most bytes of a text that may be a place's name:
// the longest name known is about 200 bytes, and a text this long even
// with spaces and punctuation between its words is none. splitWeak asks
// knownName about the text around each separator, so without this bound
// "a/a/a/…" costs time quadratic in its length.
const maxPlaceText = 1024

// knownName reports whether s is, as a whole, the name of a city, state
// or country.
func (g *Gazetteer) knownName(s string) bool {
	if len(s) > maxPlaceText {
		return false
	}
	k := placeKey(s)
	return k != "" && (len(g.cityCands(k)) > 0 || len(g.states[k]) > 0 || g.countries[k] != "")
}

// locPart is one comma-separated part of a place's text with its readings.
type locPart struct {
	text    string   // as written, trimmed
	key     string   // placeKey(text)
	cities  []*City  // the cities it may name, most likely first
	states  []*state // the states it names by name
	country string   // the country it names by name
	code    string   // in capitals, when it could be a code
	upper   bool     // the code is written in capitals
}

func (g *Gazetteer) newPart(text string) *locPart {
	p := &locPart{text: text, key: placeKey(text)}
	p.cities = g.cityCands(p.key)
	p.states = g.states[p.key]
	p.country = g.countries[p.key]
	if p.code = codeOf(text); p.code != "" {
		p.upper = strings.IndexFunc(text, unicode.IsLower) < 0
	}
	return p
}

// named reports whether the part names a place other than by a code.
func (p *locPart) named() bool {
	return len(p.cities) > 0 || len(p.states) > 0 || p.country != ""
}

// codeCountry returns the country the part names by its ISO 3166-1 code
// (a three-letter one only in capitals: "USA", not "can").
func (g *Gazetteer) codeCountry(p *locPart) string {
	if p.code == "" || (len(p.code) == 3 && !p.upper) {
		return ""
	}
	return g.ccodes[p.code]
}

// known reports whether the part names a place, by name or by code.
func (g *Gazetteer) known(p *locPart) bool {
	return p.named() || (p.code != "" && (len(g.statesByCode(p.code, "", nil)) > 0 || g.codeCountry(p) != ""))
}

// parts splits the text of one place into its parts: at commas, colons,
// spaced dashes and brackets (unless part of a name, "Frankfurt (Oder)"),
// then each part cleaned and, when it is no name as a whole, split where
// a state or country ends it ("Austin TX 78701", "US-CA-San Francisco").
func (g *Gazetteer) parts(seg string) []*locPart {
	seg = strings.ReplaceAll(seg, ":", ",")
	if strings.ContainsAny(seg, "()[]") {
		pieces := strings.Split(seg, ",")
		for i, piece := range pieces {
			if strings.ContainsAny(piece, "()[]") && !g.knownName(piece) {
				pieces[i] = bracketsAsCommas.Replace(piece)
			}
		}
		seg = strings.Join(pieces, ",")
	}
	seg = dashes.Replace(seg)
	if strings.Count(seg, ",") > 0 {
		// A country's name with a comma ("Bonaire, Sint Eustatius And
		// Saba", "Korea, Republic of") stays one part: its comma becomes a
		// look-alike.
		pieces := strings.Split(seg, ",")
		for i := 0; i+1 < len(pieces); i++ {
			if joined := pieces[i] + "\u201a" + pieces[i+1]; strings.TrimSpace(pieces[i+1]) != "" && g.countries[placeKey(joined)] != "" {
				pieces[i+1] = joined
				pieces[i] = ""
			}
		}
		seg = strings.Join(pieces, ",")
	}
	var out []*locPart
	raws := strings.Split(seg, ",")
	for i, raw := range raws {
		if i+1 < len(raws) && streetAddress(raw) {
			continue
		}
		out = append(out, g.partsOf(raw)...)
	}
	return out
}

// streetAddress reports whether a part is a street address ("123 Main
// St"): a number and at least two words.
func streetAddress(s string) bool {
	words := strings.Fields(s)
	return len(words) >= 3 && allDigits(strings.TrimRight(words[0], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-"))
}

// directions are words before a state or country that name a part of it.
var directions = map[string]bool{
	"north": true, "south": true, "east": true, "west": true, "central": true, "northern": true,
	"southern": true, "eastern": true, "western": true, "upstate": true, "downstate": true, "rural": true,
	"coastal": true, "greater": true, "northeast": true, "northwest": true, "southeast": true, "southwest": true,
}

var (
	bracketsAsCommas = strings.NewReplacer("(", ",", ")", ",", "[", ",", "]", ",")
	// dashes: spaced ones separate parts ("Austin - TX"), others join words.
	dashes = strings.NewReplacer("–", "-", "—", "-", "−", "-", " -", ",", "- ", ",")
)

// cleanPart trims spaces and punctuation around a part and collapses its
// spaces.
func cleanPart(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
	})
	return fold.Collapse(s)
}

func (g *Gazetteer) partsOf(raw string) []*locPart {
	t := cleanPart(raw)
	if t == "" || g.regions[placeKey(t)] {
		return nil
	}
	if p := g.newPart(t); g.known(p) {
		return []*locPart{p}
	}
	t = dropWords(t)
	if t == "" || g.regions[placeKey(t)] {
		return nil
	}
	p := g.newPart(t)
	if g.known(p) {
		return []*locPart{p}
	}
	if strings.Contains(t, "-") {
		if ps := g.splitHyphens(t); ps != nil {
			return ps
		}
	}
	if ps := g.splitSuffix(t); ps != nil {
		return ps
	}
	if nameLike(t) {
		return []*locPart{p}
	}
	return nil
}

// dropWords removes from a part what names no place: words with digits
// (postal codes, suite numbers), noise words, and filler words (in lower
// case, or leading) when other words remain. A part about time zones is
// dropped whole.
func dropWords(t string) string {
	words := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(t, "-based", " based"), "-Based", " based"))
	// In a part written in capitals ("REMOTE IN USA") capitals tell no
	// codes from words.
	allCaps := !slices.ContainsFunc(words, func(w string) bool {
		return strings.IndexFunc(w, unicode.IsLower) >= 0 && strings.IndexFunc(w, unicode.IsDigit) < 0
	})
	kept := words[:0]
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, ".'\"*"))
		if timeZoneWords[lw] {
			return ""
		}
		switch {
		case strings.IndexFunc(w, unicode.IsDigit) >= 0:
		case placeNoise[lw]:
		case placeFillers[lw] && len(words) > 1 && (w == lw || allCaps || (i == 0 && len(kept) == 0 && w != strings.ToUpper(w))):
		// A Dutch postal code's letters ("1012 AB Amsterdam").
		case len(w) == 2 && i > 0 && len(words[i-1]) == 4 && allDigits(words[i-1]) && w == strings.ToUpper(w):
		default:
			kept = append(kept, w)
		}
	}
	return cleanPart(strings.Join(kept, " "))
}

func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// nameLike reports whether an unknown part may still be a place's name,
// kept as given: a few words, starting with a letter, that read alone would
// be kept whole.
func nameLike(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsLetter(r) && utf8.RuneCountInString(t) >= 2 && len(strings.Fields(t)) <= 4 &&
		!strings.ContainsAny(t, "()[]{}<>:,;|/+&") && !containsWord(t, "or", "and") && cleanPart(t) == t && dropWords(t) == t
}

// containsWord reports whether one of words is a word of t, in any case.
func containsWord(t string, words ...string) bool {
	for _, w := range strings.Fields(t) {
		for _, x := range words {
			if strings.EqualFold(w, x) {
				return true
			}
		}
	}
	return false
}

// splitHyphens reads "US-CA-San Francisco" and "Austin-TX": a part whose
// hyphen-separated pieces include a state or country; and a city's
// district ("Berlin-Mitte") as the city.
func (g *Gazetteer) splitHyphens(t string) []*locPart {
	var ps []*locPart
	region := false
	for piece := range strings.SplitSeq(t, "-") {
		for _, p := range g.partsOf(piece) {
			region = region || len(p.states) > 0 || p.country != "" || (p.upper && g.known(p))
			ps = append(ps, p)
		}
	}
	switch {
	case len(ps) < 2:
		return nil
	case region:
		return ps
	case len(ps[0].cities) > 0 && !slices.ContainsFunc(ps[1:], g.known):
		return ps[:1]
	}
	return nil
}

// splitSuffix reads a part without commas ("Austin TX", "Berlin Germany",
// "Toronto ON Canada"): a known state or country at its end, a place
// before it. A lower-case code counts only after a city it fits ("austin
// tx").
func (g *Gazetteer) splitSuffix(t string) []*locPart {
	words := strings.Fields(t)
	if len(words) > 8 {
		return nil
	}
	for k := min(3, len(words)-1); k >= 1; k-- {
		sp := g.newPart(cleanPart(strings.Join(words[len(words)-k:], " ")))
		named := len(sp.states) > 0 || sp.country != ""
		if !named && (k != 1 || sp.code == "") {
			continue
		}
		prefix := strings.Join(words[:len(words)-k], " ")
		if named && directions[strings.ToLower(prefix)] {
			sp.cities = nil // "Northern California", "Upstate New York": a region's part
			return []*locPart{sp}
		}
		head := g.partsOf(prefix)
		if len(head) == 0 {
			continue
		}
		// A name counts; a code if written in capitals and known by itself
		// ("TX", "DE") or else if it fits the city before it ("austin tx",
		// "Sao Paulo SP").
		global := sp.code != "" && (len(g.statesByCode(sp.code, "", nil)) > 0 || g.codeCountry(sp) != "")
		if !(named && len(sp.key) > 3) && !(sp.upper && global) && !g.fitsCode(head[len(head)-1], sp) {
			continue
		}
		return append(head, sp)
	}
	return nil
}

// fitsCode reports whether a lower-case code after a city is that city's
// state or country ("austin tx").
func (g *Gazetteer) fitsCode(cityPart, code *locPart) bool {
	for _, c := range cityPart.cities {
		for _, st := range g.stateCands(code, "", []string{c.Country}) {
			if c.State == st.Name && c.Country == st.Country {
				return true
			}
		}
		if c.Country == code.country || c.Country == g.codeCountry(code) {
			return true
		}
	}
	return false
}

// stateCands returns the states a part may name: by name (in country when
// given) or by code (in country, else in the United States, Canada,
// Australia and the countries in also).
func (g *Gazetteer) stateCands(p *locPart, country string, also []string) []*state {
	var out []*state
	for _, st := range p.states {
		if country == "" || st.Country == country {
			out = append(out, st)
		}
	}
	if p.code != "" {
		for _, st := range g.statesByCode(p.code, country, also) {
			if !slices.Contains(out, st) {
				out = append(out, st)
			}
		}
	}
	return out
}
