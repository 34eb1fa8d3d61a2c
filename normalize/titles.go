// Titles: the Normalizer's title methods, over package titles' taxonomy.

package normalize

import (
	"fmt"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/titles"
)

// The title taxonomy's types, as package titles names them.
type (
	// Level is how specific a category is.
	Level = titles.Level
	// TitleCategory is a category of the title taxonomy.
	TitleCategory = titles.Category
)

// Category levels, from least to most specific.
const (
	LevelNone           = titles.LevelNone
	LevelField          = titles.LevelField
	LevelRole           = titles.LevelRole
	LevelSpecialization = titles.LevelSpecialization
)

// Title returns the category of a job title ("Senior Backend Engineer" →
// Computer and Mathematical / Software Engineer / Backend), and false when
// the taxonomy recognizes nothing in it; a title longer than
// MaxTitleLength names nothing.
func (n *Normalizer) Title(title string) (TitleCategory, bool) {
	if fold.TooLong(title, MaxTitleLength) {
		return TitleCategory{}, false
	}
	return n.taxonomy.Classify(n.withoutPlace(title))
}

// withoutPlace returns a title without the place it names: a city and
// the code of its state, in segments of their own ("Marketing Intern -
// Boston, MA", "Intern - Baltimore - MD - Hybrid", "Co-op - Boston, MA -
// Marketing") or one ("Intern - Pittsburgh PA"), or as the aside it ends
// with ("Summer Intern (Boston, MA)"). A state's code is also a job's
// abbreviation (MA, a medical assistant; PA, a physician assistant; CT, a
// CT technologist), and the title's other words would lose to it. A code
// after no city stays ("Nurse - PA" may be a physician assistant); a title
// that is only a place names nothing.
func (n *Normalizer) withoutPlace(title string) string {
	core, aside := strings.TrimRight(title, " "), ""
	if strings.HasSuffix(core, ")") {
		i := strings.LastIndexByte(core, '(')
		if i < 0 {
			return title
		}
		if n.isCityAndCode(core[i+1 : len(core)-1]) {
			return core[:i] // the aside is the place
		}
		core, aside = strings.TrimRight(core[:i], " "), " "+core[i:]
	}
	if !hasCodeWord(core) {
		return title // most titles: no segment is scanned
	}
	segs := titles.Segments(core)
	for i, seg := range segs {
		from := -1 // the place's first segment
		switch {
		case isCode(seg) && i > 0 && n.cityIn(segs[i-1], seg):
			from = i - 1 // "Boston, MA"
		case n.isCityAndCode(seg):
			from = i // "Pittsburgh PA"
		}
		if from >= 0 {
			return strings.Join(append(segs[:from:from], segs[i+1:]...), " - ") + aside
		}
	}
	return title
}

// hasCodeWord reports whether s holds a word of two capitals after a space
// or comma that ends s, a segment or a word ("Boston, MA", "PA - Sales").
func hasCodeWord(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if isCapital(s[i]) && isCapital(s[i+1]) && (s[i-1] == ' ' || s[i-1] == ',') &&
			(i+2 == len(s) || !isCapital(s[i+2]) && !isLower(s[i+2])) {
			return true
		}
	}
	return false
}

// isCode reports whether s is a code of two capitals.
func isCode(s string) bool { return len(s) == 2 && isCapital(s[0]) && isCapital(s[1]) }

// isCityAndCode reports whether s is a city and its state's code alone
// ("Boston, MA", "Pittsburgh PA").
func (n *Normalizer) isCityAndCode(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.LastIndexAny(s, " ,")
	return i > 0 && isCode(s[i+1:]) && n.cityIn(strings.TrimRight(s[:i], " ,"), s[i+1:])
}

// cityIn reports whether the gazetteer knows a city named city in the
// state whose code is code. (Its reader, Parse, keeps an unknown name as a
// city: "Nurse, PA" would be a place.)
func (n *Normalizer) cityIn(city, code string) bool {
	state, _, ok := n.geo.StateIn(code, "")
	if !ok {
		return false
	}
	_, ok = n.geo.FindCity(strings.TrimSpace(city), state, "")
	return ok
}

func isLower(b byte) bool { return 'a' <= b && b <= 'z' }

func isCapital(b byte) bool { return 'A' <= b && b <= 'Z' }

// CategoryField returns the canonical name of a category field, or s
// trimmed when unknown.
func (n *Normalizer) CategoryField(s string) string { return n.taxonomy.Canonical(s, LevelField) }

// CategoryRole returns the canonical name of a category role, or s trimmed
// when unknown.
func (n *Normalizer) CategoryRole(s string) string { return n.taxonomy.Canonical(s, LevelRole) }

// CategorySpecialization returns the canonical name of a specialization, or
// s trimmed when unknown.
func (n *Normalizer) CategorySpecialization(s string) string {
	return n.taxonomy.Canonical(s, LevelSpecialization)
}

// occupationSources are the reference data loadOccupations reads, with
// what their licences ask.
var occupationSources = []Source{
	{
		Name:    "O*NET 29.3 Database (occupations, alternate titles, sample of reported titles)",
		Licence: "CC BY 4.0",
		Attribution: "This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, " +
			"Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. O*NET® is a trademark " +
			"of USDOL/ETA. jobsd has modified all or some of this information. USDOL/ETA has not approved, endorsed, or " +
			"tested these modifications.",
	},
	{
		Name:        "2018 Standard Occupational Classification (structure and direct match titles)",
		Licence:     "public domain",
		Attribution: "U.S. Bureau of Labor Statistics, 2018 SOC.",
	},
}

// loadOccupations adds the occupations of O*NET 29.3 and the BLS SOC 2018
// under dir (the occupations/ folder of the reference data) to the title
// taxonomy (loadRefData adds their sources to the normalizer's).
func (n *Normalizer) loadOccupations(dir string) error {
	if err := n.taxonomy.LoadOccupations(dir); err != nil {
		return fmt.Errorf("occupations: %w", err)
	}
	return nil
}
