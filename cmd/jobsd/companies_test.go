package main_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompaniesUnderJobFilters counts only the jobs that match a filter.
func TestCompaniesUnderJobFilters(t *testing.T) {
	s := startService(t)
	type company struct {
		name  string
		count float64
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
			status, body, _ := s.get(t, "/api/v1/companies?limit=100&"+tc.query)
			require.Equal(t, http.StatusOK, status, "%v", body)
			got := []company{}
			for _, c := range body["data"].([]any) {
				m := c.(map[string]any)
				got = append(got, company{m["name"].(string), m["job_count"].(float64)})
			}
			assert.Equal(t, tc.want, got)
			meta := body["meta"].(map[string]any)
			assert.Equal(t, float64(len(tc.want)), meta["total"])
			assert.NotEmpty(t, meta["normalized"], "how the filter was read")

			_, gql := s.graphql(t, `query($f: JobFilter, $m: Int) { companies(filter: $f, minJobs: $m, limit: 100) { nodes { name jobCount } pageInfo { total } } }`,
				map[string]any{"f": graphQLFilter(t, tc.query), "m": minJobs(tc.query)})
			require.Nil(t, gql["errors"])
			page := gql["data"].(map[string]any)["companies"].(map[string]any)
			assert.Equal(t, float64(len(tc.want)), page["pageInfo"].(map[string]any)["total"], "GraphQL agrees")
			for i, n := range page["nodes"].([]any) {
				assert.Equal(t, tc.want[i].name, n.(map[string]any)["name"])
				assert.Equal(t, tc.want[i].count, n.(map[string]any)["jobCount"])
			}
		})
	}
	status, body, _ := s.get(t, "/api/v1/companies?skills=golang&foo=1")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "unknown_parameter", body["error"].(map[string]any)["code"])
	status, _, _ = s.get(t, "/api/v1/companies?work_arrangement=sometimes")
	assert.Equal(t, http.StatusBadRequest, status)
}

// minJobs reads min_jobs out of a query string for the GraphQL side.
func minJobs(query string) any {
	values, _ := url.ParseQuery(query)
	if n, err := strconv.Atoi(values.Get("min_jobs")); err == nil {
		return n
	}
	return nil
}

func TestCompanyPage(t *testing.T) {
	s := startService(t)
	status, body, _ := s.get(t, "/api/v1/companies/ACME-cloud")
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, map[string]any{
		"name": "Acme Cloud", "slug": "acme-cloud", "logo_url": "https://logos.example.com/acme.png", "job_count": float64(3),
		"by_category": []any{
			map[string]any{"value": "Computer and Mathematical", "count": float64(2)},
			map[string]any{"value": "Management", "count": float64(1)},
		},
		"by_work_arrangement": []any{
			map[string]any{"value": "hybrid", "count": float64(1)},
			map[string]any{"value": "onsite", "count": float64(1)},
			map[string]any{"value": "remote", "count": float64(1)},
		},
	}, body["data"])
	status, body, _ = s.get(t, "/api/v1/companies/nobody-here")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, "not_found", body["error"].(map[string]any)["code"])

	_, body, _ = s.get(t, "/api/v1/companies?limit=1")
	assert.Equal(t, "acme-cloud", body["data"].([]any)[0].(map[string]any)["slug"], "lists link to the pages")

	_, gql := s.graphql(t, `{ company(slug: "acme-cloud") { name jobCount byWorkArrangement { value count }
		jobs(limit: 2) { pageInfo { total hasMore } nodes { id } }
		remote: jobs(filter: {workArrangement: [REMOTE]}) { nodes { id } } } }`, nil)
	require.Nil(t, gql["errors"])
	c := gql["data"].(map[string]any)["company"].(map[string]any)
	assert.Equal(t, float64(3), c["jobCount"])
	jobs := c["jobs"].(map[string]any)
	assert.Equal(t, map[string]any{"total": float64(3), "hasMore": true}, jobs["pageInfo"])
	assert.Equal(t, []string{"test-1", "test-2"}, ids(jobs["nodes"]))
	assert.Equal(t, []string{"test-12"}, ids(c["remote"].(map[string]any)["nodes"]), "the company's jobs take job filters")

	_, gql = s.graphql(t, `{ company(slug: "nobody-here") { name } }`, nil)
	assert.Equal(t, map[string]any{"company": nil}, gql["data"])
}

func TestEmployer(t *testing.T) {
	s := startService(t)
	_, gql := s.graphql(t, `{ jobs(filter: {skills: ["golang"]}) { nodes { id employer { name slug jobCount } } }
		job(id: "test-7") { employer { name jobCount } } }`, nil)
	require.Nil(t, gql["errors"])
	data := gql["data"].(map[string]any)
	assert.Equal(t, []any{
		map[string]any{"id": "test-1", "employer": map[string]any{"name": "Acme Cloud", "slug": "acme-cloud", "jobCount": float64(3)}},
		map[string]any{"id": "test-9", "employer": map[string]any{"name": "Hooli", "slug": "hooli", "jobCount": float64(2)}},
	}, data["jobs"].(map[string]any)["nodes"])
	assert.Equal(t, map[string]any{"employer": map[string]any{"name": "Umbrella Corp", "jobCount": float64(2)}}, data["job"])
}
