package graph_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestOneCategoryPerJob: a job's similar jobs, the title intent, the role
// facet and the company page see the category a posting shows, as REST's
// do (rest.TestOneCategoryPerJob).
func TestOneCategoryPerJob(t *testing.T) {
	env := apitest.New(t)
	// Nurses by the category they show, beside the fixture's test-3: a
	// title the taxonomy does not know with a given role, one by its title,
	// one whose given role contradicts its title.
	env.Import(t, strings.Join([]string{
		`{"id":"test-70","title":"Chief Happiness Wizard","company":"Joyco","posted_at":"2026-11-21T00:00:00Z","category":{"role":"registered nurse"}}`,
		`{"id":"test-71","title":"Registered Nurse","company":"Joyco","posted_at":"2026-11-20T00:00:00Z"}`,
		`{"id":"test-72","title":"Staff Software Engineer","company":"Joyco","posted_at":"2026-11-19T00:00:00Z","category":{"role":"Registered Nurse"}}`,
	}, "\n"))
	c := gql(env)
	const healthcare = "Healthcare Practitioners and Technical"

	var similar struct {
		Job struct {
			Category struct {
				Role string `json:"role"`
			} `json:"category"`
			Similar []node `json:"similar"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-70") { category { role } similar { id } } }`, &similar))
	assert.Equal(t, "Registered Nurse", similar.Job.Category.Role)
	assert.Equal(t, []string{"test-71", "test-72", "test-3"}, nodeIDs(similar.Job.Similar), "the postings of its given role")

	var page struct {
		Jobs struct {
			Nodes    []node `json:"nodes"`
			PageInfo struct {
				Total int `json:"total"`
			} `json:"pageInfo"`
			Facets []struct {
				Field  string              `json:"field"`
				Values []domain.FacetValue `json:"values"`
			} `json:"facets"`
		} `json:"jobs"`
	}
	for _, filter := range []string{`{jobTitle: "nurse"}`, `{title: "Registered Nurse"}`, `{categoryRole: "registered nurse"}`} {
		require.NoError(t, c.Post(`{ jobs(filter: `+filter+`) { nodes { id } pageInfo { total } facets(fields: [CATEGORY_FIELD]) { field values { value count } } } }`, &page))
		assert.Equal(t, []string{"test-70", "test-71", "test-72", "test-3"}, nodeIDs(page.Jobs.Nodes), filter)
		assert.Equal(t, 4, page.Jobs.PageInfo.Total, filter)
		require.Len(t, page.Jobs.Facets, 1)
		assert.Equal(t, []domain.FacetValue{{Value: healthcare, Count: 4}}, page.Jobs.Facets[0].Values, filter)
	}
	require.NoError(t, c.Post(`{ jobs(filter: {title: "software engineer"}, limit: 50) { nodes { id } pageInfo { total } facets(fields: [CATEGORY_ROLE]) { field values { value count } } } }`, &page))
	assert.NotContains(t, nodeIDs(page.Jobs.Nodes), "test-72", "its title says software engineer; it shows a nurse")
	assert.Equal(t, []domain.FacetValue{{Value: "Software Engineer", Count: page.Jobs.PageInfo.Total}}, page.Jobs.Facets[0].Values)

	var company struct {
		Company struct {
			ByCategory []struct {
				Value *string `json:"value"`
				Count int     `json:"count"`
			} `json:"byCategory"`
		} `json:"company"`
	}
	require.NoError(t, c.Post(`{ company(slug: "joyco") { byCategory { value count } } }`, &company))
	require.Len(t, company.Company.ByCategory, 1)
	assert.Equal(t, healthcare, *company.Company.ByCategory[0].Value)
	assert.Equal(t, 3, company.Company.ByCategory[0].Count)
}
