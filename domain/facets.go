package domain

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

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

// UnmarshalGQL reads the GraphQL enum value.
func (f *FacetField) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("FacetField must be a string")
	}
	*f = FacetField(strings.ToLower(s))
	if !slices.Contains(FacetFields, string(*f)) {
		return fmt.Errorf("%s is not a valid FacetField", s)
	}
	return nil
}

// MarshalGQL writes the GraphQL enum value.
func (f FacetField) MarshalGQL(out io.Writer) {
	_, _ = io.WriteString(out, strconv.Quote(strings.ToUpper(string(f))))
}

// Facet is the counts of one field under a job query.
type Facet struct {
	Field   FacetField     `json:"field"`
	Values  []FacetValue   `json:"values"`
	Buckets []SalaryBucket `json:"buckets,omitempty"`
}
