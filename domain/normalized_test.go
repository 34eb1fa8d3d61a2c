package domain_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
)

// TestNormalizedFilterJSONOrder: the typed NormalizedFilter writes the same
// bytes as the map of name to value REST's meta.normalized was, whose keys
// encoding/json sorts: every JSON struct's members are declared in the
// order of their names, and a filled one round-trips through a map
// unchanged.
func TestNormalizedFilterJSONOrder(t *testing.T) {
	for _, v := range []any{domain.NormalizedFilter{}, domain.NormalizedTitle{}, domain.NormalizedLocation{}, domain.NormalizedCurrency{}} {
		typ := reflect.TypeOf(v)
		var names []string
		for f := range typ.Fields() {
			names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
		}
		assert.True(t, slices.IsSorted(names), "%s members in the order of their JSON names: %v", typ.Name(), names)
	}

	s := func(v string) *string { return &v }
	f := func(v float64) *float64 { return &v }
	all, yes := domain.MatchAll, true
	full := domain.NormalizedFilter{
		Benefits: []string{"401(k)"}, BenefitsMatch: &all, CategoryField: []string{"Engineering"}, CategoryRole: []string{"Backend"},
		CategorySpecialization: []string{"Go"}, Certifications: []string{"CPA"}, City: []string{"Austin"}, Company: s("Acme <&>"),
		Country: []string{"United States"}, EducationLevels: []string{"Bachelor's"}, EducationMajors: []string{"CS"},
		EmploymentType: []string{"full-time"}, IncludeUnknownSalary: &yes,
		Location:    &domain.NormalizedLocation{City: []string{"Austin"}, State: []string{"Texas"}, WorkArrangement: []domain.WorkArrangement{domain.WorkArrangementRemote}},
		PostedAfter: s("2026-11-01T00:00:00Z"), Q: s("kafka"), SalaryCurrency: &domain.NormalizedCurrency{Currency: "EUR", RatesDate: s("2026-11-26")},
		SalaryMax: f(1e21), SalaryMin: f(0), SecurityClearances: []string{"Secret"}, Skills: []string{"Go"}, SkillsMatch: &all,
		SoftSkills: []string{"Communication"}, State: []string{"Texas"}, TechnicalSkills: []string{"SQL"},
		Title: &domain.NormalizedTitle{CategoryField: s("Engineering"), CategoryRole: s("Backend")}, Tools: []string{"Git"},
		Visas: []string{"H-1B"}, VisasMatch: &all, WorkArrangement: []domain.WorkArrangement{domain.WorkArrangementHybrid},
	}
	typed, err := json.Marshal(full)
	require.NoError(t, err)
	var asMap map[string]any
	require.NoError(t, json.Unmarshal(typed, &asMap))
	fromMap, err := json.Marshal(asMap)
	require.NoError(t, err)
	assert.Equal(t, string(fromMap), string(typed))
	assert.Contains(t, string(typed), `"salary_min":0,`, "a bound of 0 is given, not omitted")

	empty, err := json.Marshal(domain.NormalizedFilter{})
	require.NoError(t, err)
	assert.Equal(t, "{}", string(empty))
	assert.True(t, (&domain.NormalizedFilter{}).IsEmpty())
	assert.False(t, full.IsEmpty())
}
