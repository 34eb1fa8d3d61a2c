package graph_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// typesJobs are postings beside the fixture's with what the typed fields
// must show: the list extras, a source's employment type outside the
// contract's set, and a posting without a date.
var typesJobs = strings.Join([]string{
	`{"id":"types-1","title":"Staff Go Engineer","company":"Acme Cloud","company_logo":"https://logos.example.com/acme-2.png","summary":"Own the <b>API</b> platform & its SLOs.","posted_at":"2026-10-31T23:30:00-02:00","location":{"full":"Austin, TX"},"work_arrangement":"hybrid","employment_type":"FT","salary":{"min":90,"max":110,"currency":"USD","period":"per hour"},"skills":["golang"]}`,
	`{"id":"types-2","title":"Backend Engineer","company":"Sixty","summary":"Gig work on payments.","location":{"full":"Denver, CO"},"employment_type":"gig","salary":{"min":300,"currency":"USD","period":"per shift"},"skills":["golang"]}`,
}, "\n")

// restIDs returns the ids of a REST job list.
func restIDs(t *testing.T, h http.Handler, query string) []string {
	t.Helper()
	rec := apitest.Get(t, h, "/api/v1/jobs?limit=100&"+query)
	require.Equal(t, http.StatusOK, rec.Code, "%s", rec.Body)
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &page))
	ids := []string{}
	for _, c := range page.Data {
		ids = append(ids, c.ID)
	}
	return ids
}

// jobIDs asks GraphQL for the ids of a job search with the filter.
func jobIDs(t *testing.T, c *gqlclient.Client, filter map[string]any) []string {
	t.Helper()
	var resp struct {
		Jobs struct {
			Nodes []node `json:"nodes"`
		} `json:"jobs"`
	}
	require.NoError(t, c.Post(`query($f: JobFilter) { jobs(filter: $f, limit: 100) { nodes { id } } }`, &resp, gqlclient.Var("f", filter)))
	return nodeIDs(resp.Jobs.Nodes)
}

var dateTimeOut = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// TestDateTime: every instant is a DateTime written in UTC to the second;
// postedAfter reads RFC 3339 date-times (offsets converted) and dates as
// REST's posted_after does, and refuses anything else as invalid_parameter.
func TestDateTime(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, typesJobs)
	c := gql(env)

	var one struct {
		Job struct {
			PostedAt *string `json:"postedAt"`
		} `json:"job"`
		Undated struct {
			PostedAt *string `json:"postedAt"`
		} `json:"undated"`
	}
	require.NoError(t, c.Post(`{ job(id: "types-1") { postedAt } undated: job(id: "types-2") { postedAt } }`, &one))
	require.NotNil(t, one.Job.PostedAt)
	assert.Equal(t, "2026-11-01T01:30:00Z", *one.Job.PostedAt, "an offset given at import is shown in UTC")
	assert.Nil(t, one.Undated.PostedAt)

	for _, tc := range []struct{ graphQL, rest string }{
		{"2026-10-29", "2026-10-29"},
		{"2026-10-29T09:00:00Z", "2026-10-29T09:00:00Z"},
		{"2026-10-29T11:00:00+02:00", "2026-10-29T09:00:00Z"},
		{"2026-10-29T09:00:00.999Z", "2026-10-29T09:00:00Z"},
		{"2026-10-29T09:00:00", "2026-10-29T09:00:00Z"},
	} {
		want := restIDs(t, env.REST(), "posted_after="+tc.rest)
		require.NotEmpty(t, want)
		assert.Equal(t, want, jobIDs(t, c, map[string]any{"postedAfter": tc.graphQL}), "postedAfter %s", tc.graphQL)
	}

	for _, bad := range []any{"last tuesday", "2026-13-01", "", 20261029} {
		var resp map[string]any
		errs := errorsOf(t, c.Post(`query($f: JobFilter) { jobs(filter: $f) { nodes { id } } }`, &resp, gqlclient.Var("f", map[string]any{"postedAfter": bad})))
		assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, "postedAfter %v: %s", bad, errs[0].Message)
	}
	var resp map[string]any
	errs := errorsOf(t, c.Post(`{ jobs(filter: {postedAfter: "soon"}) { nodes { id } } }`, &resp))
	assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, "a literal: %s", errs[0].Message)
	assert.Contains(t, errs[0].Message, "RFC 3339")

	page, err := changes(c, nil, 100)
	require.NoError(t, err)
	require.NotEmpty(t, page.Nodes)
	for _, ch := range page.Nodes {
		assert.Regexp(t, dateTimeOut, ch.At, "a change's at")
	}
}

// TestEnums: the contract's closed sets are enums in and out, spelled the
// same on cards, jobs, filters, facet values and company pages.
func TestEnums(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, typesJobs)
	c := gql(env)

	type salary struct {
		Period *string `json:"period"`
	}
	var resp struct {
		Jobs struct {
			Nodes []struct {
				ID              string  `json:"id"`
				WorkArrangement *string `json:"workArrangement"`
				EmploymentType  *string `json:"employmentType"`
				Salary          *salary `json:"salary"`
			} `json:"nodes"`
		} `json:"jobs"`
		Job struct {
			EmploymentType *string `json:"employmentType"`
			Salary         *salary `json:"salary"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ jobs(filter: {skills: ["golang"]}, limit: 100) { nodes { id workArrangement employmentType salary { period } } }
		job(id: "test-3") { employmentType salary { period } } }`, &resp))
	byID := map[string]int{}
	for i, n := range resp.Jobs.Nodes {
		byID[n.ID] = i
	}
	require.Contains(t, byID, "types-1")
	require.Contains(t, byID, "types-2")
	typed := resp.Jobs.Nodes[byID["types-1"]]
	assert.Equal(t, ptr("HYBRID"), typed.WorkArrangement)
	assert.Equal(t, ptr("FULL_TIME"), typed.EmploymentType, `"FT" at import`)
	assert.Equal(t, &salary{Period: ptr("HOURLY")}, typed.Salary, `"per hour" at import`)
	assert.Nil(t, resp.Jobs.Nodes[byID["types-2"]].EmploymentType, "a kind outside the set is null in GraphQL")
	assert.Equal(t, &salary{}, resp.Jobs.Nodes[byID["types-2"]].Salary, "so is a period outside the set")
	assert.Equal(t, ptr("PART_TIME"), resp.Job.EmploymentType)
	assert.Equal(t, &salary{Period: ptr("HOURLY")}, resp.Job.Salary)

	rec := apitest.Get(t, env.REST(), "/api/v1/jobs/types-2")
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Contains(t, rec.Body.String(), `"employment_type":"gig"`, "REST shows the source's word")
	assert.Contains(t, rec.Body.String(), `"period":"per shift"`, "REST shows the source's word")

	// Filters take the enum values; REST's aliases are REST's.
	assert.Equal(t, restIDs(t, env.REST(), "employment_type=part-time,internship"),
		jobIDs(t, c, map[string]any{"employmentType": []string{"PART_TIME", "INTERNSHIP"}}))
	assert.Equal(t, restIDs(t, env.REST(), "employment_type=FT"), jobIDs(t, c, map[string]any{"employmentType": []string{"FULL_TIME"}}))
	var bad map[string]any
	errs := errorsOf(t, c.Post(`query($f: JobFilter) { jobs(filter: $f) { nodes { id } } }`, &bad, gqlclient.Var("f", map[string]any{"employmentType": []string{"FT"}})))
	assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, "an alias is not an enum value: %s", errs[0].Message)
	errs = errorsOf(t, c.Post(`{ jobs(filter: {employmentType: [full_time]}) { nodes { id } } }`, &bad))
	assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, errs[0].Message)

	// Enum values in variables are read in any case, as gqlparser
	// validates them, for every enum.
	assert.Equal(t, jobIDs(t, c, map[string]any{"workArrangement": []string{"REMOTE"}, "employmentType": []string{"FULL_TIME"}}),
		jobIDs(t, c, map[string]any{"workArrangement": []string{"remote"}, "employmentType": []string{"full_time"}}))
	assert.Equal(t, jobIDs(t, c, map[string]any{"skills": []string{"go", "python"}, "skillsMatch": "ALL"}),
		jobIDs(t, c, map[string]any{"skills": []string{"go", "python"}, "skillsMatch": "all"}))
	var sorted struct {
		Jobs struct {
			Nodes []node `json:"nodes"`
		} `json:"jobs"`
	}
	var upper = sorted
	nearQuery := `query($s: JobSort, $u: DistanceUnit) { jobs(sort: $s, filter: {near: {place: "Austin, TX", radius: 50, unit: $u}}) { nodes { id } } }`
	require.NoError(t, c.Post(nearQuery, &sorted, gqlclient.Var("s", "oldest"), gqlclient.Var("u", "mi")))
	require.NoError(t, c.Post(nearQuery, &upper, gqlclient.Var("s", "OLDEST"), gqlclient.Var("u", "MI")))
	assert.NotEmpty(t, upper.Jobs.Nodes)
	assert.Equal(t, upper, sorted)

	// Facet values are spelled as the enum, and go back into the filter.
	var facets struct {
		Jobs struct {
			Facets []struct {
				Field  string `json:"field"`
				Values []struct {
					Value string `json:"value"`
					Count int    `json:"count"`
				} `json:"values"`
			} `json:"facets"`
		} `json:"jobs"`
	}
	require.NoError(t, c.Post(`{ jobs { facets(fields: [WORK_ARRANGEMENT, EMPLOYMENT_TYPE], limit: 20) { field values { value count } } } }`, &facets))
	require.Len(t, facets.Jobs.Facets, 2)
	filterOf := map[string]string{"WORK_ARRANGEMENT": "workArrangement", "EMPLOYMENT_TYPE": "employmentType"}
	var seen []string
	for _, f := range facets.Jobs.Facets {
		require.NotEmpty(t, f.Values, f.Field)
		for _, v := range f.Values {
			seen = append(seen, v.Value)
			if v.Value == "gig" {
				continue // no enum value: kept as the source wrote it
			}
			assert.Regexp(t, `^[A-Z_]+$`, v.Value, "%s value", f.Field)
			ids := jobIDs(t, c, map[string]any{filterOf[f.Field]: []string{v.Value}})
			assert.Len(t, ids, v.Count, "%s %s given back to the filter", f.Field, v.Value)
		}
	}
	sort.Strings(seen)
	assert.Equal(t, []string{"CONTRACT", "FULL_TIME", "HYBRID", "INTERNSHIP", "ONSITE", "PART_TIME", "REMOTE", "TEMPORARY", "gig"}, seen)

	rec = apitest.Get(t, env.REST(), "/api/v1/jobs?facets=work_arrangement&limit=1")
	require.Equal(t, http.StatusOK, rec.Code, "%s", rec.Body)
	assert.Contains(t, rec.Body.String(), `"value":"hybrid"`, "REST keeps its spellings")

	var profile struct {
		Company struct {
			ByWorkArrangement []struct {
				Value *string `json:"value"`
			} `json:"byWorkArrangement"`
		} `json:"company"`
	}
	require.NoError(t, c.Post(`{ company(by: {slug: "acme-cloud"}) { byWorkArrangement { value } } }`, &profile))
	var arrangements []string
	for _, v := range profile.Company.ByWorkArrangement {
		require.NotNil(t, v.Value)
		arrangements = append(arrangements, *v.Value)
	}
	assert.ElementsMatch(t, []string{"ONSITE", "HYBRID", "REMOTE"}, arrangements)
}

// TestCompanyOneOf: company(by:) takes exactly one of slug and name, as a
// literal or a variable; the deprecated arguments still work alone.
func TestCompanyOneOf(t *testing.T) {
	env := apitest.New(t)
	c := gqlclient.New(env.GraphQL(graph.HandlerOptions{Introspection: true}))
	type company struct {
		Slug string `json:"slug"`
	}
	for _, tc := range []struct {
		name  string
		query string
		vars  []gqlclient.Option
	}{
		{"by slug", `{ company(by: {slug: "acme-cloud"}) { slug } }`, nil},
		{"by name", `{ company(by: {name: "ACME  cloud"}) { slug } }`, nil},
		{"by a variable", `query($k: CompanyKey) { company(by: $k) { slug } }`, []gqlclient.Option{gqlclient.Var("k", map[string]any{"slug": "acme-cloud"})}},
		{"slug (deprecated)", `{ company(slug: "acme-cloud") { slug } }`, nil},
		{"name (deprecated)", `{ company(name: "Acme Cloud") { slug } }`, nil},
	} {
		var resp struct {
			Company *company `json:"company"`
		}
		require.NoError(t, c.Post(tc.query, &resp, tc.vars...), tc.name)
		assert.Equal(t, &company{Slug: "acme-cloud"}, resp.Company, tc.name)
	}
	for _, tc := range []struct {
		name  string
		query string
		vars  []gqlclient.Option
	}{
		{"both", `{ company(by: {slug: "acme-cloud", name: "Acme Cloud"}) { slug } }`, nil},
		{"none", `{ company(by: {}) { slug } }`, nil},
		{"a null member", `{ company(by: {slug: null}) { slug } }`, nil},
		{"both in a variable", `query($k: CompanyKey) { company(by: $k) { slug } }`, []gqlclient.Option{gqlclient.Var("k", map[string]any{"slug": "acme-cloud", "name": "Acme Cloud"})}},
		{"none in a variable", `query($k: CompanyKey) { company(by: $k) { slug } }`, []gqlclient.Option{gqlclient.Var("k", map[string]any{})}},
		{"by and slug", `{ company(by: {slug: "acme-cloud"}, slug: "acme-cloud") { slug } }`, nil},
		{"no argument", `{ company { slug } }`, nil},
	} {
		var resp map[string]any
		errs := errorsOf(t, c.Post(tc.query, &resp, tc.vars...))
		assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, "%s: %s", tc.name, errs[0].Message)
	}

	var intro struct {
		Type struct {
			IsOneOf bool `json:"isOneOf"`
		} `json:"__type"`
	}
	require.NoError(t, c.Post(`{ __type(name: "CompanyKey") { isOneOf } }`, &intro))
	assert.True(t, intro.Type.IsOneOf, "introspection shows @oneOf")
}

// extras are a card's list extras, and a job's same fields.
type extras struct {
	ID          string  `json:"id"`
	PostedAt    *string `json:"postedAt"`
	CompanyLogo *string `json:"companyLogo"`
	Summary     *string `json:"summary"`
}

// TestCardExtras: a card's postedAt, companyLogo and summary equal its
// job's, on the fast path and through gqlgen's executor (fragments), on
// a search's page, a company's jobs and similar jobs; REST's card keeps
// its eight fields.
func TestCardExtras(t *testing.T) {
	env := apitest.New(t)
	env.Import(t, typesJobs)
	var served atomic.Int64
	opts := graph.HandlerOptions{}
	graph.CountFastPath(&opts, &served)
	c := gqlclient.New(env.GraphQL(opts))

	jobOf := map[string]extras{}
	for _, id := range append(slices.Clone(apitest.AllIDs), "types-1", "types-2") {
		var resp struct {
			Job extras `json:"job"`
		}
		require.NoError(t, c.Post(`query($id: ID!) { job(id: $id) { id postedAt companyLogo summary } }`, &resp, gqlclient.Var("id", id)))
		jobOf[id] = resp.Job
	}
	require.NotNil(t, jobOf["types-1"].Summary)
	require.NotNil(t, jobOf["test-1"].CompanyLogo)

	check := func(what string, cards []extras, wantLen int) {
		t.Helper()
		require.Len(t, cards, wantLen, what)
		for _, card := range cards {
			assert.Equal(t, jobOf[card.ID], card, "%s: the card of %s", what, card.ID)
		}
	}

	var page struct {
		Jobs struct {
			Nodes []extras `json:"nodes"`
		} `json:"jobs"`
	}
	before := served.Load()
	require.NoError(t, c.Post(`{ jobs(limit: 100) { nodes { id postedAt companyLogo summary } } }`, &page))
	assert.Equal(t, before+1, served.Load(), "the fast path answers a page with the extras")
	check("fast path", page.Jobs.Nodes, len(apitest.AllIDs)+2)

	for _, sort := range []string{"NEWEST", "OLDEST", "SALARY_DESC"} {
		require.NoError(t, c.Post(`query($s: JobSort) { jobs(limit: 5, sort: $s) { nodes { ...Extras } } }
			fragment Extras on JobCard { id postedAt companyLogo summary }`, &page, gqlclient.Var("s", sort)))
		check("fragment, "+sort, page.Jobs.Nodes, 5)
	}
	require.NoError(t, c.Post(`{ jobs(limit: 4, filter: {q: "payments"}, sort: RELEVANCE) { nodes { ... on JobCard { id postedAt companyLogo summary } } } }`, &page))
	check("inline fragment, SQL path", page.Jobs.Nodes, 1)

	var company struct {
		Company struct {
			Jobs struct {
				Nodes []extras `json:"nodes"`
			} `json:"jobs"`
		} `json:"company"`
	}
	require.NoError(t, c.Post(`{ company(by: {slug: "acme-cloud"}) { jobs { nodes { id postedAt companyLogo summary } } } }`, &company))
	check("a company's jobs", company.Company.Jobs.Nodes, 4)

	var similar struct {
		Job struct {
			Similar []extras `json:"similar"`
		} `json:"job"`
	}
	require.NoError(t, c.Post(`{ job(id: "test-1") { similar(limit: 10) { id postedAt companyLogo summary } } }`, &similar))
	require.NotEmpty(t, similar.Job.Similar)
	check("similar jobs", similar.Job.Similar, len(similar.Job.Similar))

	// REST's card is the specification's eight fields, extras or not.
	rec := apitest.Get(t, env.REST(), "/api/v1/jobs?company=acme&limit=100")
	require.Equal(t, http.StatusOK, rec.Code)
	var rest struct {
		Data []map[string]json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &rest))
	require.NotEmpty(t, rest.Data)
	for _, card := range rest.Data {
		var keys []string
		for k := range card {
			keys = append(keys, k)
		}
		assert.ElementsMatch(t, []string{"id", "title", "company", "location", "work_arrangement", "employment_type", "salary", "category"}, keys)
	}
}
