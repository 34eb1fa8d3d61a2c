package domain

// Facet fields: the fields a job list can be counted by (REST names).
const (
	FacetSalary  = "salary"
	FacetCompany = "company"
)

// FacetFields lists every facet field in its REST spelling.
var FacetFields = []string{
	FieldWorkArrangement, FieldEmploymentType, FieldCategoryField, FieldCategoryRole, FieldSkills, FacetCompany,
	FieldEducationLevels, FieldVisas, FieldSecurityClearances, FieldCountry, FieldState, FieldCity, FacetSalary,
}

// FacetValue is how many matching jobs have a value.
type FacetValue struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// SalaryBucket is how many matching jobs have an annualized salary (the
// middle of their range) in [Min, Max); Max is nil for the last bucket.
type SalaryBucket struct {
	Min   float64  `json:"min"`
	Max   *float64 `json:"max"`
	Count int      `json:"count"`
}

// FacetField names a facet: its REST spelling ("work_arrangement"), shown
// upper-cased in GraphQL (WORK_ARRANGEMENT).
type FacetField string

// Facet is the counts of one field under a job query.
type Facet struct {
	Field   FacetField     `json:"field"`
	Values  []FacetValue   `json:"values"`
	Buckets []SalaryBucket `json:"buckets,omitempty"`
}
