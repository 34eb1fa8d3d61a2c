package graph_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestQueries: job, jobs and companies over the fixture in a real database,
// their paging and their errors.
func TestQueries(t *testing.T) {
	env := apitest.New(t)
	c := gql(env)

	type job struct {
		ID                 string         `json:"id"`
		Title              string         `json:"title"`
		CompanyLogo        *string        `json:"companyLogo"`
		PostedAt           *string        `json:"postedAt"`
		WorkArrangement    *string        `json:"workArrangement"`
		Skills             []string       `json:"skills"`
		SecurityClearances []string       `json:"securityClearances"`
		Salary             *domain.Salary `json:"salary"`
		Location           struct {
			Full string `json:"full"`
		} `json:"location"`
		Category struct {
			Role           *string `json:"role"`
			Specialization *string `json:"specialization"`
		} `json:"category"`
	}
	var one struct {
		Job *job `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-1") { id title companyLogo postedAt workArrangement skills securityClearances salary { min max currency period } location { full } category { role specialization } } }`, &one))
	want := job{ID: "test-1", Title: "Senior Backend Engineer", CompanyLogo: ptr("https://logos.example.com/acme.png"),
		PostedAt: ptr("2026-10-30T10:00:00Z"), WorkArrangement: ptr("ONSITE"), Skills: []string{"Go", "Kubernetes", "PostgreSQL", "Docker"},
		SecurityClearances: nil, Salary: &domain.Salary{Min: ptr(150000.0), Max: ptr(200000.0), Currency: ptr("USD"), Period: ptr("ANNUAL")}}
	want.Location.Full = "San Francisco, California, United States"
	want.Category.Role, want.Category.Specialization = ptr("Software Engineer"), ptr("Backend")
	assert.Equal(t, &want, one.Job)

	var missing struct {
		Job *node `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-999") { id } }`, &missing), "unknown id is null without error")
	assert.Nil(t, missing.Job)

	type company struct {
		Name     string  `json:"name"`
		LogoURL  *string `json:"logoUrl"`
		JobCount int     `json:"jobCount"`
	}
	var companies struct {
		Companies struct {
			Nodes    []company `json:"nodes"`
			PageInfo struct {
				Total   int  `json:"total"`
				HasMore bool `json:"hasMore"`
			} `json:"pageInfo"`
		} `json:"companies"`
	}
	require.NoError(t, c.Post(`{ companies(minJobs: 2) { nodes { name logoUrl jobCount } pageInfo { total hasMore } } }`, &companies))
	assert.Equal(t, []company{
		{Name: "Acme Cloud", LogoURL: ptr("https://logos.example.com/acme.png"), JobCount: 3},
		{Name: "Globex", JobCount: 2},
		{Name: "Hooli", JobCount: 2},
		{Name: "Umbrella Corp", JobCount: 2},
	}, companies.Companies.Nodes)
	assert.Equal(t, 4, companies.Companies.PageInfo.Total)
	assert.False(t, companies.Companies.PageInfo.HasMore)

	// Cursor pagination.
	var walked []string
	var after *string
	for range 5 {
		var page struct {
			Jobs struct {
				Nodes    []node `json:"nodes"`
				PageInfo struct {
					HasMore   bool    `json:"hasMore"`
					EndCursor *string `json:"endCursor"`
				} `json:"pageInfo"`
			} `json:"jobs"`
		}
		require.NoError(t, c.Post(`query($after: String) { jobs(limit: 5, after: $after) { nodes { id } pageInfo { hasMore endCursor } } }`,
			&page, gqlclient.Var("after", after)))
		walked = append(walked, nodeIDs(page.Jobs.Nodes)...)
		if !page.Jobs.PageInfo.HasMore {
			break
		}
		after = page.Jobs.PageInfo.EndCursor
	}
	assert.Equal(t, apitest.AllIDs, walked)

	for _, tc := range []struct{ query, code, param string }{
		{`{ jobs(limit: 0) { nodes { id } } }`, "invalid_parameter", "limit"},
		{`{ jobs(filter: { salaryMin: 10, salaryMax: 1 }) { nodes { id } } }`, "invalid_parameter", "salaryMin"},
		{`{ jobs(filter: { workArrangement: [SOMETIMES] }) { nodes { id } } }`, "invalid_parameter", ""},
		{`{ job(id: "BAD") { id } }`, "invalid_parameter", "id"},
		{`{ jobs { nodes { nope } } }`, "invalid_parameter", ""},
		{`{ jobs(`, "invalid_parameter", ""},
	} {
		var data map[string]any
		errs := errorsOf(t, c.Post(tc.query, &data)) // HTTP 200: gqlgen's client fails on any other status
		assert.Equal(t, tc.code, errs[0].Extensions.Code, tc.query)
		if tc.param != "" {
			assert.Equal(t, tc.param, errs[0].Extensions.Param, tc.query)
		}
	}

	// GET /graphql serves queries too.
	rec := apitest.Get(t, env.GraphQL(graph.HandlerOptions{}), "/graphql?query="+url.QueryEscape(`{ jobs(filter: {skills: ["golang"], city: "SF"}) { pageInfo { total } } }`))
	assert.Equal(t, http.StatusOK, rec.Code)
	type total struct {
		Data struct {
			Jobs struct {
				PageInfo struct {
					Total int `json:"total"`
				} `json:"pageInfo"`
			} `json:"jobs"`
		} `json:"data"`
		Extensions json.RawMessage `json:"extensions"`
	}
	assert.Equal(t, 2, apitest.Decode[total](t, rec.Body.Bytes()).Data.Jobs.PageInfo.Total)
}

// TestRESTAndGraphQLAgree: for every filter of apitest.FilterCases, a page
// of jobs has the same cards in the same order, and the same paging, in
// GraphQL as in REST.
func TestRESTAndGraphQLAgree(t *testing.T) {
	env := apitest.New(t)
	c := gql(env)
	restAPI := env.REST()
	const jobsQuery = `query($filter: JobFilter, $limit: Int, $offset: Int) {
  jobs(filter: $filter, limit: $limit, offset: $offset) {
    nodes { id title company location { city state country full } workArrangement employmentType
            salary { min max currency period } category { field role specialization } }
    pageInfo { total limit offset hasMore endCursor }
  }
}`
	for _, tc := range apitest.FilterCases {
		t.Run(tc.Query, func(t *testing.T) {
			rec := apitest.Get(t, restAPI, "/api/v1/jobs?limit=4&offset=1&"+tc.Query)
			require.Equal(t, http.StatusOK, rec.Code, "%s", rec.Body)
			rest := apitest.Decode[restPage](t, rec.Body.Bytes())

			var resp struct {
				Jobs struct {
					Nodes    []gqlCard `json:"nodes"`
					PageInfo struct {
						Total     int     `json:"total"`
						Limit     int     `json:"limit"`
						Offset    int     `json:"offset"`
						HasMore   bool    `json:"hasMore"`
						EndCursor *string `json:"endCursor"`
					} `json:"pageInfo"`
				} `json:"jobs"`
			}
			require.NoError(t, c.Post(jobsQuery, &resp, gqlclient.Var("filter", graphQLFilter(t, tc.Query)), gqlclient.Var("limit", 4), gqlclient.Var("offset", 1)))
			cards := []domain.JobCard{}
			for _, n := range resp.Jobs.Nodes {
				cards = append(cards, n.card())
			}
			assert.Equal(t, rest.Data, cards, "same cards, same order")
			info := resp.Jobs.PageInfo
			assert.Equal(t, rest.Meta.Total, info.Total, "total")
			assert.Equal(t, rest.Meta.Limit, info.Limit, "limit")
			assert.Equal(t, rest.Meta.Offset, info.Offset, "offset")
			assert.Equal(t, rest.Meta.HasMore, info.HasMore, "has_more")
		})
	}
}

func ptr[T any](v T) *T { return &v }
