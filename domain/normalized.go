package domain

import "reflect"

// NormalizedFilter tells how a job filter was read: for each member given,
// the normalized values a search matches. It is REST's meta.normalized and
// GraphQL's NormalizedFilter. Members not given are nil, and absent from
// the JSON form, whose members are in the order of their names, as
// encoding/json writes a map's keys, so that it is byte for byte the map
// of name to value it replaced (TestNormalizedFilterJSONOrder).
type NormalizedFilter struct {
	Benefits                []string            `json:"benefits,omitempty"`
	BenefitsMatch           *MatchMode          `json:"benefits_match,omitempty"`
	CategoryField           []string            `json:"category_field,omitempty"`
	CategoryRole            []string            `json:"category_role,omitempty"`
	CategorySpecialization  []string            `json:"category_specialization,omitempty"`
	Certifications          []string            `json:"certifications,omitempty"`
	CertificationsMatch     *MatchMode          `json:"certifications_match,omitempty"`
	City                    []string            `json:"city,omitempty"`
	Company                 *string             `json:"company,omitempty"`
	Country                 []string            `json:"country,omitempty"`
	EducationLevels         []string            `json:"education_levels,omitempty"`
	EducationLevelsMatch    *MatchMode          `json:"education_levels_match,omitempty"`
	EducationMajors         []string            `json:"education_majors,omitempty"`
	EducationMajorsMatch    *MatchMode          `json:"education_majors_match,omitempty"`
	EmploymentType          []string            `json:"employment_type,omitempty"`
	IncludeUnknownSalary    *bool               `json:"include_unknown_salary,omitempty"`
	Location                *NormalizedLocation `json:"location,omitempty"`
	Near                    *NormalizedNear     `json:"near,omitempty"`
	PostedAfter             *string             `json:"posted_after,omitempty"`
	Q                       *string             `json:"q,omitempty"`
	SalaryCurrency          *NormalizedCurrency `json:"salary_currency,omitempty"`
	SalaryMax               *float64            `json:"salary_max,omitempty"`
	SalaryMin               *float64            `json:"salary_min,omitempty"`
	SecurityClearances      []string            `json:"security_clearances,omitempty"`
	SecurityClearancesMatch *MatchMode          `json:"security_clearances_match,omitempty"`
	Skills                  []string            `json:"skills,omitempty"`
	SkillsMatch             *MatchMode          `json:"skills_match,omitempty"`
	SoftSkills              []string            `json:"soft_skills,omitempty"`
	SoftSkillsMatch         *MatchMode          `json:"soft_skills_match,omitempty"`
	State                   []string            `json:"state,omitempty"`
	TechnicalSkills         []string            `json:"technical_skills,omitempty"`
	TechnicalSkillsMatch    *MatchMode          `json:"technical_skills_match,omitempty"`
	Title                   *NormalizedTitle    `json:"title,omitempty"`
	Tools                   []string            `json:"tools,omitempty"`
	ToolsMatch              *MatchMode          `json:"tools_match,omitempty"`
	Visas                   []string            `json:"visas,omitempty"`
	VisasMatch              *MatchMode          `json:"visas_match,omitempty"`
	WorkArrangement         []WorkArrangement   `json:"work_arrangement,omitempty"`
}

// IsEmpty reports whether no member is set (a search without filters).
func (f *NormalizedFilter) IsEmpty() bool {
	return f == nil || reflect.ValueOf(*f).IsZero()
}

// NormalizedTitle is how a title intent was read: the category at the most
// specific level it names, or its words (Text) when it names none.
type NormalizedTitle struct {
	CategoryField          *string `json:"category_field,omitempty"`
	CategoryRole           *string `json:"category_role,omitempty"`
	CategorySpecialization *string `json:"category_specialization,omitempty"`
	Text                   *string `json:"text,omitempty"`
}

// NormalizedLocation is how free location text was read: the places it
// names and the work arrangement it states.
type NormalizedLocation struct {
	City            []string          `json:"city,omitempty"`
	Country         []string          `json:"country,omitempty"`
	State           []string          `json:"state,omitempty"`
	WorkArrangement []WorkArrangement `json:"work_arrangement,omitempty"`
}

// NormalizedNear is how a near filter was read: the point (Place nil
// for one given as lat and lng) and the radius in km, to one decimal.
type NormalizedNear struct {
	Place         *string `json:"place"`
	Lat           float64 `json:"lat"`
	Lng           float64 `json:"lng"`
	RadiusKm      float64 `json:"radius_km"`
	IncludeRemote *bool   `json:"include_remote,omitempty"`
}

// NormalizedCurrency is the currency salary bounds are given in, and the
// date of the exchange rates they are converted with.
type NormalizedCurrency struct {
	Currency  string  `json:"currency"`
	RatesDate *string `json:"rates_date"` // null without rates
}
