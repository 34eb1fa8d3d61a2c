package graph_test

import (
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestCompaniesUnderJobFilters counts only the jobs that match a filter, as
// REST does (rest.TestCompaniesUnderJobFilters).
func TestCompaniesUnderJobFilters(t *testing.T) {
	c := gql(apitest.New(t))
	type company struct {
		Name     string `json:"name"`
		JobCount int    `json:"jobCount"`
	}
	for _, tc := range []struct {
		query string
		want  []company
	}{
		{"work_arrangement=remote", []company{{"Globex", 2}, {"Acme Cloud", 1}, {"Hooli", 1}}},
		{"skills=golang", []company{{"Acme Cloud", 1}, {"Hooli", 1}}},
		{"skills=golang&min_jobs=2", []company{}},
		{"work_arrangement=remote&min_jobs=0", []company{{"Globex", 2}, {"Acme Cloud", 1}, {"Hooli", 1},
			{"Alphacorp", 0}, {"Initech Defense", 0}, {"St. Mary Hospital", 0}, {"Umbrella Corp", 0}}},
		{"country=UK&employment_type=contract,internship", []company{{"Alphacorp", 1}, {"Globex", 1}}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			var resp struct {
				Companies struct {
					Nodes    []company `json:"nodes"`
					PageInfo struct {
						Total int `json:"total"`
					} `json:"pageInfo"`
				} `json:"companies"`
			}
			require.NoError(t, c.Post(`query($f: JobFilter, $m: Int) { companies(filter: $f, minJobs: $m, limit: 100) { nodes { name jobCount } pageInfo { total } } }`,
				&resp, gqlclient.Var("f", graphQLFilter(t, tc.query)), gqlclient.Var("m", minJobs(tc.query))))
			assert.Equal(t, len(tc.want), resp.Companies.PageInfo.Total)
			assert.Equal(t, tc.want, resp.Companies.Nodes)
		})
	}
}

func TestCompanyPage(t *testing.T) {
	c := gql(apitest.New(t))
	type page struct {
		Nodes []node `json:"nodes"`
	}
	var resp struct {
		Company *struct {
			Name              string `json:"name"`
			JobCount          int    `json:"jobCount"`
			ByWorkArrangement []struct {
				Value *string `json:"value"`
				Count int     `json:"count"`
			} `json:"byWorkArrangement"`
			Jobs struct {
				PageInfo struct {
					Total   int  `json:"total"`
					HasMore bool `json:"hasMore"`
				} `json:"pageInfo"`
				Nodes []node `json:"nodes"`
			} `json:"jobs"`
			Remote page `json:"remote"`
		} `json:"company"`
	}
	require.NoError(t, c.Post(`{ company(slug: "acme-cloud") { name jobCount byWorkArrangement { value count }
		jobs(limit: 2) { pageInfo { total hasMore } nodes { id } }
		remote: jobs(filter: {workArrangement: [REMOTE]}) { nodes { id } } } }`, &resp))
	require.NotNil(t, resp.Company)
	co := resp.Company
	assert.Equal(t, "Acme Cloud", co.Name)
	assert.Equal(t, 3, co.JobCount)
	assert.Len(t, co.ByWorkArrangement, 3)
	assert.Equal(t, 3, co.Jobs.PageInfo.Total)
	assert.True(t, co.Jobs.PageInfo.HasMore)
	assert.Equal(t, []string{"test-1", "test-2"}, nodeIDs(co.Jobs.Nodes))
	assert.Equal(t, []string{"test-12"}, nodeIDs(co.Remote.Nodes), "the company's jobs take job filters")

	var missing struct {
		Company *struct {
			Name string `json:"name"`
		} `json:"company"`
	}
	require.NoError(t, c.Post(`{ company(slug: "nobody-here") { name } }`, &missing))
	assert.Nil(t, missing.Company)
}

func TestEmployer(t *testing.T) {
	c := gql(apitest.New(t))
	type employer struct {
		Name     string `json:"name"`
		Slug     string `json:"slug,omitempty"`
		JobCount int    `json:"jobCount"`
	}
	type card struct {
		ID       string   `json:"id"`
		Employer employer `json:"employer"`
	}
	var resp struct {
		Jobs struct {
			Nodes []card `json:"nodes"`
		} `json:"jobs"`
		Job struct {
			Employer employer `json:"employer"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ jobs(filter: {skills: ["golang"]}) { nodes { id employer { name slug jobCount } } }
		job(id: "test-7") { employer { name jobCount } } }`, &resp))
	assert.Equal(t, []card{
		{"test-1", employer{Name: "Acme Cloud", Slug: "acme-cloud", JobCount: 3}},
		{"test-9", employer{Name: "Hooli", Slug: "hooli", JobCount: 2}},
	}, resp.Jobs.Nodes)
	assert.Equal(t, employer{Name: "Umbrella Corp", JobCount: 2}, resp.Job.Employer)
}
