package domain

// JobFilter is a job search's filter as both transports give it: GraphQL's
// JobFilter input (bound by name; schema.graphqls documents each member)
// and the filter parameters of GET /jobs. Values are raw: package search
// validates and normalizes them (into a JobQuery). All given members must
// match; within a list, any value matches unless its Match mode says all.
type JobFilter struct {
	Title    *string `json:"title,omitempty"`
	JobTitle *string `json:"jobTitle,omitempty"` // alias of Title
	Company  *string `json:"company,omitempty"`
	Location *string `json:"location,omitempty"`
	City     *string `json:"city,omitempty"`
	State    *string `json:"state,omitempty"`
	Country  *string `json:"country,omitempty"`

	Skills             []string          `json:"skills,omitempty"`
	Tools              []string          `json:"tools,omitempty"`
	TechnicalSkills    []string          `json:"technicalSkills,omitempty"`
	SoftSkills         []string          `json:"softSkills,omitempty"`
	Visas              []string          `json:"visas,omitempty"`
	EducationLevels    []string          `json:"educationLevels,omitempty"`
	EducationMajors    []string          `json:"educationMajors,omitempty"`
	Certifications     []string          `json:"certifications,omitempty"`
	SecurityClearances []string          `json:"securityClearances,omitempty"`
	Benefits           []string          `json:"benefits,omitempty"`
	WorkArrangement    []WorkArrangement `json:"workArrangement,omitempty"`
	EmploymentType     []string          `json:"employmentType,omitempty"` // REST spellings (full-time)

	// SalaryMin and SalaryMax bound the annualized salary range (overlap),
	// in SalaryCurrency (default USD).
	SalaryMin      *float64 `json:"salaryMin,omitempty"`
	SalaryMax      *float64 `json:"salaryMax,omitempty"`
	SalaryCurrency *string  `json:"salaryCurrency,omitempty"`

	CategoryField          *string `json:"categoryField,omitempty"`
	CategoryRole           *string `json:"categoryRole,omitempty"`
	CategorySpecialization *string `json:"categorySpecialization,omitempty"`

	// Q is the keyword search.
	Q *string `json:"q,omitempty"`
	// PostedAfter is an instant in TimeLayout (GraphQL's DateTime) or, from
	// REST, as given; PostedWithin a span ("24h", "7d").
	PostedAfter          *string    `json:"postedAfter,omitempty"`
	PostedWithin         *string    `json:"postedWithin,omitempty"`
	IncludeUnknownSalary *bool      `json:"includeUnknownSalary,omitempty"`
	Near                 *NearInput `json:"near,omitempty"`

	SkillsMatch             *MatchMode `json:"skillsMatch,omitempty"`
	ToolsMatch              *MatchMode `json:"toolsMatch,omitempty"`
	TechnicalSkillsMatch    *MatchMode `json:"technicalSkillsMatch,omitempty"`
	SoftSkillsMatch         *MatchMode `json:"softSkillsMatch,omitempty"`
	VisasMatch              *MatchMode `json:"visasMatch,omitempty"`
	EducationLevelsMatch    *MatchMode `json:"educationLevelsMatch,omitempty"`
	EducationMajorsMatch    *MatchMode `json:"educationMajorsMatch,omitempty"`
	CertificationsMatch     *MatchMode `json:"certificationsMatch,omitempty"`
	SecurityClearancesMatch *MatchMode `json:"securityClearancesMatch,omitempty"`
	BenefitsMatch           *MatchMode `json:"benefitsMatch,omitempty"`
}

// NearInput is the near filter (contract section 13): a place, or a point
// (Lat and Lng), and a radius in Unit (default km).
type NearInput struct {
	Place         *string       `json:"place,omitempty"`
	Lat           *float64      `json:"lat,omitempty"`
	Lng           *float64      `json:"lng,omitempty"`
	Radius        *float64      `json:"radius,omitempty"`
	Unit          *DistanceUnit `json:"unit,omitempty"`
	IncludeRemote *bool         `json:"includeRemote,omitempty"`
}

// DistanceUnit is the unit of a near filter's radius, in its REST spelling
// ("25mi"); GraphQL shows it upper-cased (KM, MI).
type DistanceUnit string

// The units of distance.
const (
	DistanceUnitKm DistanceUnit = "km"
	DistanceUnitMi DistanceUnit = "mi" // statute miles, 1.609344 km
)

// DistanceUnits lists every unit.
var DistanceUnits = []DistanceUnit{DistanceUnitKm, DistanceUnitMi}

// SuggestField is what a suggestion completes (contract section 14), in
// its REST spelling; GraphQL shows it upper-cased (TITLE, …).
type SuggestField string

// The fields suggestions complete.
const (
	SuggestTitle    SuggestField = "title"
	SuggestCompany  SuggestField = "company"
	SuggestSkills   SuggestField = "skills"
	SuggestLocation SuggestField = "location"
)

// SuggestFields lists every suggested field in the contract's order.
var SuggestFields = []SuggestField{SuggestTitle, SuggestCompany, SuggestSkills, SuggestLocation}
