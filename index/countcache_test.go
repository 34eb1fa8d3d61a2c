package index

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
)

// TestFiltersKeyKnowsEveryCondition: the counts a suggestion request
// keeps are keyed by its key filters alone, in any order, and a query
// with any other condition keeps none. Each of JobQuery's fields is
// placed here: a field added to it fails this test until filtersKey says
// how it bears on counts.
func TestFiltersKeyKnowsEveryCondition(t *testing.T) {
	refused := map[string]func(*domain.JobQuery){
		"Company":     func(q *domain.JobQuery) { q.Company = "acme" },
		"TitleText":   func(q *domain.JobQuery) { q.TitleText = "nurse" },
		"Q":           func(q *domain.JobQuery) { q.Q = "kafka" },
		"SalaryMin":   func(q *domain.JobQuery) { q.SalaryMin = new(float64) },
		"SalaryMax":   func(q *domain.JobQuery) { q.SalaryMax = new(float64) },
		"PostedAfter": func(q *domain.JobQuery) { q.PostedAfter = &time.Time{} },
		"CompanyID":   func(q *domain.JobQuery) { q.CompanyID = new(int64) },
		"Near":        func(q *domain.JobQuery) { q.Near = &domain.NearQuery{} },
	}
	// Keyed, or no bearing on a count (the salary's currency and unknowns
	// bear only with a salary range, which is refused).
	known := map[string]bool{"Filters": true, "Sort": true, "Limit": true, "Offset": true, "After": true,
		"CardExtras": true, "Normalized": true, "IncludeUnknownSalary": true, "Currency": true}
	for f := range reflect.TypeFor[domain.JobQuery]().Fields() {
		_, refuses := refused[f.Name]
		assert.True(t, refuses || known[f.Name], "JobQuery.%s: say in filtersKey how it bears on counts", f.Name)
	}

	remote := domain.KeyFilter{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}
	skills := domain.KeyFilter{Field: "skills", Keys: []string{"skills:go", "skills:rust"}}
	key, ok := filtersKey(domain.JobQuery{Filters: []domain.KeyFilter{remote, skills}, Limit: 25})
	assert.True(t, ok)
	swapped := domain.KeyFilter{Field: "skills", Keys: []string{"skills:rust", "skills:go"}}
	again, _ := filtersKey(domain.JobQuery{Filters: []domain.KeyFilter{swapped, remote}, Sort: domain.JobSortOldest})
	assert.Equal(t, key, again, "the same filters in another order")
	all := skills
	all.All = true
	for _, other := range [][]domain.KeyFilter{{remote}, {remote, all}, {remote, {Field: "skills", Keys: []string{"skills:go"}}}} {
		k, _ := filtersKey(domain.JobQuery{Filters: other})
		assert.NotEqual(t, key, k, "%+v", other)
	}
	for name, set := range refused {
		q := domain.JobQuery{Filters: []domain.KeyFilter{remote}}
		set(&q)
		_, ok := filtersKey(q)
		assert.False(t, ok, name)
	}
}
