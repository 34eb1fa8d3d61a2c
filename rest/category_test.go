package rest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// categoryPostings are nurses by the category they show, beside the
// fixture's test-3 (Registered Nurse - ICU): one with a title the taxonomy
// does not know and a given role, one by its title, and one whose given
// role contradicts its title.
var categoryPostings = strings.Join([]string{
	`{"id":"test-70","title":"Chief Happiness Wizard","company":"Joyco","posted_at":"2026-11-21T00:00:00Z","category":{"role":"registered nurse"}}`,
	`{"id":"test-71","title":"Registered Nurse","company":"Joyco","posted_at":"2026-11-20T00:00:00Z"}`,
	`{"id":"test-72","title":"Staff Software Engineer","company":"Joyco","posted_at":"2026-11-19T00:00:00Z","category":{"role":"Registered Nurse"}}`,
}, "\n")

// TestOneCategoryPerJob: similar jobs, the title intent, the category
// filters and facets and the company page see the category a posting
// shows (its given one, completed from its title).
func TestOneCategoryPerJob(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, categoryPostings)
	h := env.REST()
	healthcare := "Healthcare Practitioners and Technical"

	for _, tc := range []struct {
		id    string
		want  []string
		total int
	}{
		// An unknown title with a given role: the postings of that role.
		{"test-70", []string{"test-71", "test-72", "test-3"}, 3},
		{"test-72", []string{"test-70", "test-71", "test-3"}, 3},
	} {
		body := getJSON[list[domain.JobCard]](t, h, "/api/v1/jobs/"+tc.id+"/similar", 200)
		assert.Equal(t, tc.want, ids(body.Data), tc.id)
		assert.Equal(t, tc.total, body.Meta.Total, tc.id)
	}
	body := getJSON[list[domain.JobCard]](t, h, "/api/v1/jobs/test-4/similar?limit=50", 200)
	assert.NotContains(t, ids(body.Data), "test-72", "its title says software engineer; it shows a nurse")

	nurses := []string{"test-70", "test-71", "test-72", "test-3"}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"title=nurse", nurses},
		{"job_title=Registered%20Nurse", nurses},
		{"category_role=registered%20nurse", nurses},
		{"title=software%20engineer", []string{"test-1", "test-2", "test-4", "test-6", "test-9", "test-11"}},
	} {
		b := jobs(t, h, tc.query)
		assert.Equal(t, tc.want, ids(b.Data), tc.query)
		assert.Equal(t, len(tc.want), b.Meta.Total, tc.query)
	}
	b := jobs(t, h, "title=nurse")
	assert.Equal(t, map[string]any{"category_field": healthcare, "category_role": "Registered Nurse"}, b.Meta.Normalized["title"])

	vc := func(pairs ...any) []domain.FacetValue {
		out := []domain.FacetValue{}
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, domain.FacetValue{Value: pairs[i].(string), Count: pairs[i+1].(int)})
		}
		return out
	}
	b = jobs(t, h, "company=joyco&facets=category_field,category_role")
	assert.Equal(t, vc(healthcare, 3), facetValues(t, b.Meta, "category_field"))
	assert.Equal(t, vc("Registered Nurse", 3), facetValues(t, b.Meta, "category_role"))
	b = jobs(t, h, "title=nurse&facets=category_role")
	assert.Equal(t, vc("Registered Nurse", 4), facetValues(t, b.Meta, "category_role"), "the title intent narrows the role facet")

	company := getJSON[one[domain.CompanyProfile]](t, h, "/api/v1/companies/joyco", 200)
	assert.Equal(t, []domain.ValueCount{{Value: &healthcare, Count: 3}}, company.Data.ByCategory)
}
