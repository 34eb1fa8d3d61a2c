package graph_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// relayPage is a page of jobs asked for as a Relay connection.
type relayPage struct {
	TotalCount int `json:"totalCount"`
	Edges      []struct {
		Cursor string  `json:"cursor"`
		Node   gqlCard `json:"node"`
	} `json:"edges"`
	Nodes    []node `json:"nodes"`
	PageInfo struct {
		HasNextPage     bool    `json:"hasNextPage"`
		HasPreviousPage bool    `json:"hasPreviousPage"`
		StartCursor     *string `json:"startCursor"`
		EndCursor       *string `json:"endCursor"`
		HasMore         bool    `json:"hasMore"`
	} `json:"pageInfo"`
}

const relayJobsQuery = `query($filter: JobFilter, $first: Int, $after: String, $offset: Int, $sort: JobSort) {
  jobs(filter: $filter, first: $first, after: $after, offset: $offset, sort: $sort) {
    totalCount
    edges { cursor node { id title company location { city state country full } workArrangement employmentType
            salary { min max currency period } category { field role specialization } } }
    nodes { id }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor hasMore }
  }
}`

// TestConnectionPagesAsREST: three pages of a search walked with first and
// after hold REST's three pages (limit and cursor) card for card, with
// Relay's page info; every edge's cursor is an after.
func TestConnectionPagesAsREST(t *testing.T) {
	env := apitest.New(t)
	c := gql(env)
	restAPI := env.REST()
	for _, tc := range []struct{ rest, sort string }{
		{"", ""},
		{"employment_type=FT", ""},
		{"work_arrangement=hybrid,remote", ""},
		{"", "salary_desc"},
		{"", "oldest"},
	} {
		t.Run(tc.rest+" sort="+tc.sort, func(t *testing.T) {
			vars := []gqlclient.Option{gqlclient.Var("filter", graphQLFilter(t, tc.rest)), gqlclient.Var("first", 3)}
			restQuery := "/api/v1/jobs?limit=3&" + tc.rest
			if tc.sort != "" {
				vars = append(vars, gqlclient.Var("sort", strings.ToUpper(tc.sort)))
				restQuery += "&sort=" + tc.sort
			}
			var after *string
			var restCursor string
			for page := range 3 {
				rec := apitest.Get(t, restAPI, restQuery+restCursor)
				require.Equal(t, http.StatusOK, rec.Code, "%s", rec.Body)
				rest := apitest.Decode[restPage](t, rec.Body.Bytes())

				var resp struct {
					Jobs relayPage `json:"jobs"`
				}
				require.NoError(t, c.Post(relayJobsQuery, &resp, append(vars, gqlclient.Var("after", after))...))
				got := resp.Jobs
				cards := []domain.JobCard{}
				for _, e := range got.Edges {
					cards = append(cards, e.Node.card())
				}
				assert.Equal(t, rest.Data, cards, "page %d: REST's cards, in its order", page)
				assert.Equal(t, nodeIDs(got.Nodes), cardIDs(cards), "page %d: nodes are the edges' nodes", page)
				assert.Equal(t, rest.Meta.Total, got.TotalCount, "page %d: totalCount", page)
				assert.Equal(t, rest.Meta.HasMore, got.PageInfo.HasNextPage, "page %d: hasNextPage", page)
				assert.Equal(t, got.PageInfo.HasMore, got.PageInfo.HasNextPage, "page %d: hasMore", page)
				assert.Equal(t, page > 0, got.PageInfo.HasPreviousPage, "page %d: hasPreviousPage", page)
				if len(got.Edges) == 0 {
					assert.Nil(t, got.PageInfo.StartCursor, "page %d: an empty page has no cursors", page)
					assert.Nil(t, got.PageInfo.EndCursor, "page %d", page)
					return
				}
				assert.Equal(t, got.Edges[0].Cursor, *got.PageInfo.StartCursor, "page %d: startCursor", page)
				assert.Equal(t, got.Edges[len(got.Edges)-1].Cursor, *got.PageInfo.EndCursor, "page %d: endCursor", page)
				assert.Equal(t, rest.Meta.NextCursor, got.PageInfo.EndCursor, "page %d: REST's next_cursor", page)

				// After any edge come the cards after it, in order.
				var rest1 struct {
					Jobs relayPage `json:"jobs"`
				}
				require.NoError(t, c.Post(relayJobsQuery, &rest1, append(vars, gqlclient.Var("after", got.Edges[0].Cursor))...))
				want := cardIDs(cards[1:])
				require.GreaterOrEqual(t, len(rest1.Jobs.Edges), len(want), "page %d", page)
				next := []string{}
				for _, e := range rest1.Jobs.Edges[:len(want)] {
					next = append(next, e.Node.ID)
				}
				assert.Equal(t, want, next, "page %d: after the first edge, the page's next cards", page)
				assert.True(t, rest1.Jobs.PageInfo.HasPreviousPage)

				if !got.PageInfo.HasNextPage {
					return
				}
				after = got.PageInfo.EndCursor
				restCursor = "&cursor=" + *rest.Meta.NextCursor
			}
		})
	}

	// An empty page: no edges, null cursors, items before it.
	var empty struct {
		Jobs relayPage `json:"jobs"`
	}
	require.NoError(t, c.Post(relayJobsQuery, &empty, gqlclient.Var("offset", 100)))
	assert.Empty(t, empty.Jobs.Edges)
	assert.Nil(t, empty.Jobs.PageInfo.StartCursor)
	assert.Nil(t, empty.Jobs.PageInfo.EndCursor)
	assert.True(t, empty.Jobs.PageInfo.HasPreviousPage, "offset 100: items precede")
	assert.False(t, empty.Jobs.PageInfo.HasNextPage)
	assert.Equal(t, len(apitest.AllIDs), empty.Jobs.TotalCount)
}

func cardIDs(cards []domain.JobCard) []string {
	out := []string{}
	for _, c := range cards {
		out = append(out, c.ID)
	}
	return out
}

// TestCompanyConnection: companies paged with first and after (a
// position) are the pages of limit and offset.
func TestCompanyConnection(t *testing.T) {
	c := gql(apitest.New(t))
	type page struct {
		Companies struct {
			TotalCount int `json:"totalCount"`
			Edges      []struct {
				Cursor string `json:"cursor"`
				Node   struct {
					ID   string `json:"id"`
					Slug string `json:"slug"`
				} `json:"node"`
			} `json:"edges"`
			PageInfo struct {
				HasNextPage     bool    `json:"hasNextPage"`
				HasPreviousPage bool    `json:"hasPreviousPage"`
				EndCursor       *string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"companies"`
	}
	var all page
	require.NoError(t, c.Post(`{ companies(first: 100) { totalCount edges { cursor node { id slug } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`, &all))
	require.Greater(t, all.Companies.TotalCount, 4)
	var walked []string
	var after *string
	for i := 0; ; i++ {
		var p page
		require.NoError(t, c.Post(`query($after: String) { companies(first: 2, after: $after) { totalCount edges { cursor node { id slug } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
			&p, gqlclient.Var("after", after)))
		assert.Equal(t, i > 0, p.Companies.PageInfo.HasPreviousPage)
		for _, e := range p.Companies.Edges {
			assert.Equal(t, "company:"+e.Node.Slug, e.Node.ID)
			walked = append(walked, e.Node.ID)
		}
		if !p.Companies.PageInfo.HasNextPage {
			break
		}
		after = p.Companies.PageInfo.EndCursor
	}
	var want []string
	for _, e := range all.Companies.Edges {
		want = append(want, e.Node.ID)
	}
	assert.Equal(t, want, walked, "pages of two are the list")
}

// TestNode: node(id:) refetches a job by its id and a company by
// "company:<slug>"; an unknown id is null, a closed job null with gone.
func TestNode(t *testing.T) {
	env := apitest.New(t)
	at := time.Date(2026, 11, 26, 10, 0, 2, 0, time.UTC)
	env.Close(t, at, "test-3")
	c := gql(env)
	const q = `query($id: ID!) { node(id: $id) { __typename id ... on Job { title } ... on Company { name jobCount } } }`
	type resp struct {
		Node *struct {
			Typename string `json:"__typename"`
			ID       string `json:"id"`
			Title    string `json:"title"`
			Name     string `json:"name"`
			JobCount int    `json:"jobCount"`
		} `json:"node"`
	}
	var job resp
	require.NoError(t, c.Post(q, &job, gqlclient.Var("id", "test-1")))
	require.NotNil(t, job.Node)
	assert.Equal(t, "Job", job.Node.Typename)
	assert.Equal(t, "test-1", job.Node.ID)
	assert.Equal(t, "Senior Backend Engineer", job.Node.Title)

	var company resp
	require.NoError(t, c.Post(q, &company, gqlclient.Var("id", "company:acme-cloud")))
	require.NotNil(t, company.Node)
	assert.Equal(t, "Company", company.Node.Typename)
	assert.Equal(t, "company:acme-cloud", company.Node.ID)
	assert.Equal(t, "Acme Cloud", company.Node.Name)
	assert.Equal(t, 3, company.Node.JobCount)

	for _, id := range []string{"test-999", "company:nobody", "company:", "not an id", ""} {
		var unknown resp
		require.NoError(t, c.Post(q, &unknown, gqlclient.Var("id", id)), "%q: null without error", id)
		assert.Nil(t, unknown.Node, id)
	}

	var closed resp
	errs := errorsOf(t, c.Post(q, &closed, gqlclient.Var("id", "test-3")))
	assert.Nil(t, closed.Node)
	require.Len(t, errs, 1)
	assert.Equal(t, "gone", errs[0].Extensions.Code)
	assert.Equal(t, "2026-11-26T10:00:02Z", errs[0].Extensions.ClosedAt)
	assert.Equal(t, []any{"node"}, errs[0].Path)
}

// TestConnectionNormalized: a page's normalized is interpretFilter's
// reading of its filter, typed and camelCased.
func TestConnectionNormalized(t *testing.T) {
	c := gql(apitest.New(t))
	const fields = `title { categoryField categoryRole categorySpecialization text } company location { city state country workArrangement }
		skills skillsMatch workArrangement salaryMin includeUnknownSalary salaryCurrency { currency ratesDate }`
	filter := map[string]any{"title": "backend engineer", "skills": []string{"golang", "k8s"}, "skillsMatch": "ALL",
		"location": "Remote - US", "workArrangement": []string{"HYBRID"}, "salaryMin": 0, "includeUnknownSalary": true, "company": " acme "}
	var resp struct {
		Jobs struct {
			Normalized map[string]any `json:"normalized"`
		} `json:"jobs"`
		InterpretFilter map[string]any `json:"interpretFilter"`
	}
	require.NoError(t, c.Post(`query($f: JobFilter, $g: JobFilter!) { jobs(filter: $f) { normalized { `+fields+` } } interpretFilter(filter: $g) { `+fields+` } }`,
		&resp, gqlclient.Var("f", filter), gqlclient.Var("g", filter)))
	assert.Equal(t, map[string]any{
		"title":                map[string]any{"categoryField": "Computer and Mathematical", "categoryRole": "Software Engineer", "categorySpecialization": "Backend", "text": nil},
		"company":              "acme",
		"location":             map[string]any{"city": nil, "state": nil, "country": []any{"United States"}, "workArrangement": []any{"REMOTE"}},
		"skills":               []any{"Go", "Kubernetes"},
		"skillsMatch":          "ALL",
		"workArrangement":      []any{"HYBRID"},
		"salaryMin":            0.0,
		"includeUnknownSalary": true,
		"salaryCurrency":       map[string]any{"currency": "USD", "ratesDate": nil}, // a salary filter names its currency
	}, resp.Jobs.Normalized)
	assert.Equal(t, resp.Jobs.Normalized, resp.InterpretFilter, "the page's reading is interpretFilter's")
}

// TestConnectionErrors: bad combinations of the paging arguments.
func TestConnectionErrors(t *testing.T) {
	c := gql(apitest.New(t))
	jobCursor := domain.Cursor{Sort: domain.JobSortNewest, Time: time.Date(2026, 10, 30, 10, 0, 0, 0, time.UTC), ID: "test-1", Offset: 1}.Encode()
	companyCursor := domain.OffsetCursor(2).Encode()
	for _, tc := range []struct{ query, param string }{
		{`{ jobs(first: 2, limit: 2) { edges { cursor } } }`, "first"},
		{`{ jobs(first: -1) { edges { cursor } } }`, "first"},
		{`{ jobs(first: 0) { edges { cursor } } }`, "first"},
		{`{ jobs(first: 2, after: "` + jobCursor + `", offset: 3) { edges { cursor } } }`, "after"},
		{`{ jobs(after: "` + companyCursor + `") { edges { cursor } } }`, "after"},
		{`{ jobs(after: "` + jobCursor + `", sort: OLDEST) { edges { cursor } } }`, "after"},
		{`{ companies(first: 2, limit: 2) { edges { cursor } } }`, "first"},
		{`{ companies(after: "` + companyCursor + `", offset: 1) { edges { cursor } } }`, "after"},
		{`{ companies(after: "` + jobCursor + `") { edges { cursor } } }`, "after"},
		{`{ companies(after: "garbage!") { edges { cursor } } }`, "after"},
		{`{ company(slug: "acme-cloud") { jobs(first: 1, limit: 1) { edges { cursor } } } }`, "first"},
	} {
		var data map[string]any
		errs := errorsOf(t, c.Post(tc.query, &data))
		assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, tc.query)
		assert.Equal(t, tc.param, errs[0].Extensions.Param, tc.query)
	}
}
