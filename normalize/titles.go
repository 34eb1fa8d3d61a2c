// Titles: the Normalizer's title methods, over package titles' taxonomy.

package normalize

import (
	"fmt"
	"slices"
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

// withoutPlace returns a title without the place it ends with, when that
// is a city and the code of its state in segments of their own
// ("Marketing Intern - Boston, MA", "Intern - Baltimore - MD") or one
// ("Intern - Pittsburgh PA"), before one aside, work arrangement or term
// at most ("(Hybrid)", "- Remote", "- Summer 2027"), or as that aside
// ("Summer Intern (Boston, MA)"): a state's code is also a
// job's abbreviation (MA, a medical assistant; PA, a physician assistant;
// CT, a CT technologist), and the title's other words would lose to it. A
// code after no city stays ("Nurse - PA" may be a physician assistant); a
// title that is only a place names nothing. A city and its code between
// other segments are cut too (withoutInnerPlace).
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
		core, aside = strings.TrimRight(core[:i], " "), core[i:]
	}
	rest, ok := n.cutCityAndCode(core)
	if !ok && aside == "" {
		if rest, ok := n.withoutInnerPlace(core); ok {
			return rest // "Marketing Intern - Boston, MA - Retail"
		}
	}
	if !ok {
		// A work arrangement or a term after the place: "Intern - Boston,
		// MA - Hybrid", "Intern - Bristol - CT - Summer 2027". The code is
		// looked for first: most titles end in none.
		before, last, cut := titles.CutLastSegment(core)
		if !cut || !endsInCode(strings.TrimRight(before, " ")) {
			return title
		}
		if _, arrangement := n.WorkArrangement(last); !arrangement && !n.taxonomy.IsTerm(last) {
			return title
		}
		if rest, ok = n.cutCityAndCode(before); !ok {
			return title
		}
		rest += " - " + last
	}
	if aside != "" {
		return rest + " " + aside
	}
	return rest
}

// withoutInnerPlace returns a title without a city and its state's code
// that stand in segments of their own before another segment ("Intern -
// Boston, MA - Marketing", "Baltimore - MD - Data Intern"), and false when
// it holds none. Only titles with a code of two capitals between segment
// breaks are cut into segments.
func (n *Normalizer) withoutInnerPlace(title string) (string, bool) {
	if !hasInnerCode(title) {
		return "", false
	}
	var segs []string // the title's segments, last first
	for rest := title; ; {
		before, last, ok := titles.CutLastSegment(rest)
		if !ok {
			segs = append(segs, strings.TrimSpace(rest))
			break
		}
		segs, rest = append(segs, last), before
	}
	slices.Reverse(segs)
	for i := 0; i < len(segs)-1; i++ {
		kept := -1 // the segments before the place
		switch {
		case isCode(segs[i]) && i > 0 && n.isCityAndCode(segs[i-1]+", "+segs[i]):
			kept = i - 1 // "Boston, MA"
		case endsInCode(segs[i]) && n.isCityAndCode(segs[i]):
			kept = i // "Pittsburgh PA"
		}
		if kept >= 0 {
			out := append(slices.Clone(segs[:kept]), segs[i+1:]...)
			return strings.Join(out, " - "), true
		}
	}
	return "", false
}

// hasInnerCode reports whether s holds a word of two capitals that ends a
// segment before another ("… MA - Marketing", "… PA, Hybrid").
func hasInnerCode(s string) bool {
	for i := 1; i+2 < len(s); i++ {
		if isCapital(s[i]) && isCapital(s[i+1]) && (s[i-1] == ' ' || s[i-1] == ',') {
			next := strings.TrimLeft(s[i+2:], " ")
			if next != "" && strings.ContainsAny(next[:1], ",;|-–—:•/") && strings.TrimSpace(next[1:]) != "" {
				return true
			}
		}
	}
	return false
}

// isCode reports whether s is a code of two capitals.
func isCode(s string) bool { return len(s) == 2 && isCapital(s[0]) && isCapital(s[1]) }

// isCityAndCode reports whether s is a city and its state's code alone
// ("Boston, MA", "Pittsburgh PA").
func (n *Normalizer) isCityAndCode(s string) bool {
	rest, ok := n.cutCityAndCode(s)
	return ok && strings.TrimSpace(rest) == ""
}

// cutCityAndCode returns s without the city and state code it ends with,
// and false when it ends in none: a code of two capitals (the common case,
// decided without a scan) naming a state the gazetteer knows a city of
// that name in. (Its reader, Parse, keeps an unknown name as a city:
// "Nurse, PA" would be a place.)
func (n *Normalizer) cutCityAndCode(s string) (string, bool) {
	s = strings.TrimRight(s, " ")
	if !endsInCode(s) {
		return "", false
	}
	rest, last, ok := titles.CutLastSegment(s)
	if !ok {
		rest, last = "", s // "Pittsburgh PA" alone
	}
	city, code := "", last
	if i := strings.LastIndexByte(last, ' '); i > 0 {
		city, code = last[:i], last[i+1:] // "Pittsburgh PA"
	} else {
		before, seg, ok := titles.CutLastSegment(rest)
		if !ok {
			before, seg = "", rest // "Boston, MA" alone
		}
		rest, city = before, seg
	}
	state, _, ok := n.geo.StateIn(code, "")
	if !ok {
		return "", false
	}
	if _, ok := n.geo.FindCity(strings.TrimSpace(city), state, ""); !ok {
		return "", false
	}
	return rest, true
}

// endsInCode reports whether s ends in a word of two capital letters.
func endsInCode(s string) bool {
	n := len(s)
	return n >= 3 && isCapital(s[n-1]) && isCapital(s[n-2]) && (s[n-3] == ' ' || s[n-3] == ',')
}

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
