package domain

import "strings"

// Suggestion is a value a search box may complete a prefix to (contract
// section 14): the text shown, how many jobs it selects under the
// request's filters, and the filter that selects it.
type Suggestion struct {
	Value  string
	Count  int
	Filter SuggestedFilter
}

// SuggestedFilter is the filter of a suggestion: the members of JobFilter
// it sets (one of them), which a client merges into its filter.
type SuggestedFilter struct {
	Company                *string  `json:"company,omitempty"`
	Skills                 []string `json:"skills,omitempty"`
	CategoryRole           *string  `json:"categoryRole,omitempty"`
	CategorySpecialization *string  `json:"categorySpecialization,omitempty"`
	Location               *string  `json:"location,omitempty"`
}

// Param returns the REST parameter the filter sets and its value ("" when
// it sets none).
func (f SuggestedFilter) Param() (string, string) {
	switch {
	case f.Company != nil:
		return "company", *f.Company
	case len(f.Skills) > 0:
		return "skills", strings.Join(f.Skills, ",")
	case f.CategoryRole != nil:
		return "category_role", *f.CategoryRole
	case f.CategorySpecialization != nil:
		return "category_specialization", *f.CategorySpecialization
	case f.Location != nil:
		return "location", *f.Location
	}
	return "", ""
}

// Suggestions are the suggestions of one request, with what it asked.
type Suggestions struct {
	Field  string
	Prefix string
	Limit  int
	Nodes  []Suggestion
}

// ValueFilter is the conditions that select one suggested value, as a
// JobQuery holds them: its key filters and company substring. A source of
// suggestions keeps one for each of its values.
type ValueFilter struct {
	Filters []KeyFilter
	Company string
}

// Query returns the job query of f's conditions alone.
func (f *ValueFilter) Query() JobQuery { return JobQuery{Filters: f.Filters, Company: f.Company} }
