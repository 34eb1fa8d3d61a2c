package normalize

import (
	"cmp"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/places"
)

// SuggestTerm is a value a search box may suggest (contract section 14):
// the text shown, the value of the filter parameter that selects it, and
// the spellings it is found by.
type SuggestTerm struct {
	Value     string
	Filter    string
	Spellings []string
}

// SkillTerms returns the umbrella skills, each found by its own spellings
// and those of the skills below it (a skills filter of any of them selects
// the umbrella: Skill).
func (n *Normalizer) SkillTerms() []SuggestTerm {
	by := map[string]*SuggestTerm{}
	for t := range n.Skills.Names {
		_, umbrella, ok := n.Skill(t.Name)
		if !ok || umbrella == "" {
			continue
		}
		st := by[umbrella]
		if st == nil {
			st = &SuggestTerm{Value: umbrella, Filter: umbrella, Spellings: []string{umbrella}}
			by[umbrella] = st
		}
		st.Spellings = appendNew(st.Spellings, t.Name)
		for _, a := range t.Aliases {
			st.Spellings = appendNew(st.Spellings, a)
		}
	}
	return sortedTerms(by)
}

// TitleTerms returns the category roles and specializations, for
// category_role and category_specialization filters. A specialization is
// shown with its role ("Backend Software Engineer") unless its name holds
// the role's last word already.
func (n *Normalizer) TitleTerms() (roles, specializations []SuggestTerm) {
	rs, ss := map[string]*SuggestTerm{}, map[string]*SuggestTerm{}
	for _, c := range n.taxonomy.Categories() {
		switch c.Level {
		case LevelRole:
			if rs[c.Role] == nil {
				rs[c.Role] = &SuggestTerm{Value: c.Role, Filter: c.Role, Spellings: []string{c.Role}}
			}
		case LevelSpecialization:
			if ss[c.Specialization] != nil {
				continue
			}
			shown := c.Specialization
			words := strings.Fields(c.Role)
			if len(words) > 0 && !slices.Contains(strings.Fields(fold.Fold(c.Specialization)), fold.Fold(words[len(words)-1])) {
				shown = c.Specialization + " " + c.Role
			}
			ss[c.Specialization] = &SuggestTerm{Value: shown, Filter: c.Specialization, Spellings: []string{shown}}
		}
	}
	return sortedTerms(rs), sortedTerms(ss)
}

// sortedTerms returns the terms of by, by value.
func sortedTerms(by map[string]*SuggestTerm) []SuggestTerm {
	out := make([]SuggestTerm, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b SuggestTerm) int { return cmp.Compare(a.Value, b.Value) })
	return out
}

// LocationTerms returns the cities, shown "City, State, Country" (the
// location filter's value that selects them), found by that value, by
// their name followed by their state (name or code) or their country, and
// by their aliases. A suggestion selects the city it names: a city that
// the location filter reads as another (a borough, which it reads as its
// city: Manhattan as New York) is not a value of its own, whose jobs would
// be the other's under a second name, and its spellings find the city it
// is read as; one the filter does not read as one city (of the reference
// data's 30,000, a dozen whose names hold " - " or "&", or a region's
// word, as "Asia") is not suggested.
func (n *Normalizer) LocationTerms() []SuggestTerm {
	by := map[string]*SuggestTerm{}
	for c := range n.geo.Cities {
		if c.Name == "" {
			continue
		}
		read := n.geo.Parse(places.CityText(c))
		if len(read.Places) != 1 || read.Places[0].City == "" {
			continue
		}
		value := places.PlaceText(n.geo.Complete(read.Places[0]))
		st := by[value]
		if st == nil {
			st = &SuggestTerm{Value: value, Filter: value, Spellings: []string{value}}
			by[value] = st
		}
		var code string
		if _, stateCode, ok := n.geo.StateIn(c.State, c.Country); ok && c.State != "" {
			code = stateCode
		}
		// Its name with what may follow it; its aliases alone.
		for _, after := range []string{c.State, code, c.Country} {
			if after != "" {
				st.Spellings = appendNew(st.Spellings, c.Name+" "+after)
			}
		}
		for _, a := range c.Aliases {
			st.Spellings = appendNew(st.Spellings, a)
		}
	}
	return sortedTerms(by)
}
