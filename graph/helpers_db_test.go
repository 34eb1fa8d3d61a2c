package graph_test

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/normalize"
)

// The tests over a real database (apitest) read answers with gqlgen's test
// client, which decodes data into the test's structs and refuses fields
// they do not name, or with the typed client (package client).

// gql returns gqlgen's test client of env's GraphQL endpoint.
func gql(env *apitest.Env) *gqlclient.Client {
	return gqlclient.New(env.GraphQL(graph.HandlerOptions{}))
}

// gqlError is one of a response's errors.
type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code     string `json:"code"`
		Param    string `json:"param"`
		ClosedAt string `json:"closedAt"`
	} `json:"extensions"`
	Path []any `json:"path"`
}

// errorsOf returns the errors of a response, from the error of gqlgen's
// client's Post; it fails the test when the response had none.
func errorsOf(t *testing.T, err error) []gqlError {
	t.Helper()
	var raw gqlclient.RawJsonError
	require.ErrorAs(t, err, &raw, "the response has errors")
	var errs []gqlError
	require.NoError(t, json.Unmarshal(raw.RawMessage, &errs))
	require.NotEmpty(t, errs)
	return errs
}

// node is a list element selected by its id alone.
type node struct {
	ID string `json:"id"`
}

func nodeIDs(nodes []node) []string {
	out := []string{}
	for _, n := range nodes {
		out = append(out, n.ID)
	}
	return out
}

// gqlCard is a JobCard as GraphQL writes it.
type gqlCard struct {
	ID              string          `json:"id"`
	Title           string          `json:"title"`
	Company         string          `json:"company"`
	Location        domain.Location `json:"location"`
	WorkArrangement *string         `json:"workArrangement"`
	EmploymentType  *string         `json:"employmentType"`
	Salary          *domain.Salary  `json:"salary"`
	Category        domain.Category `json:"category"`
}

// card returns the card as REST writes it.
func (n gqlCard) card() domain.JobCard {
	c := domain.JobCard{ID: n.ID, Title: n.Title, Company: n.Company, Location: n.Location, EmploymentType: n.EmploymentType,
		Salary: n.Salary, Category: n.Category}
	if n.WorkArrangement != nil {
		wa := domain.WorkArrangement(strings.ToLower(*n.WorkArrangement))
		c.WorkArrangement = &wa
	}
	// GraphQL spells the closed sets as enums; REST as the contract's words.
	if n.EmploymentType != nil {
		et := strings.ToLower(strings.ReplaceAll(*n.EmploymentType, "_", "-"))
		c.EmploymentType = &et
	}
	if n.Salary != nil && n.Salary.Period != nil {
		s := *n.Salary
		period := strings.ToLower(*s.Period)
		s.Period = &period
		c.Salary = &s
	}
	return c
}

// restPage is a page of jobs as REST writes it.
type restPage struct {
	Data []domain.JobCard `json:"data"`
	Meta struct {
		Total      int            `json:"total"`
		Limit      int            `json:"limit"`
		Offset     int            `json:"offset"`
		HasMore    bool           `json:"has_more"`
		NextCursor *string        `json:"next_cursor"`
		Normalized map[string]any `json:"normalized"`
	} `json:"meta"`
}

// listParams are the REST parameters that are lists in JobFilter.
var listParams = map[string]bool{"skills": true, "tools": true, "technical_skills": true, "soft_skills": true, "visas": true,
	"education_levels": true, "education_majors": true, "certifications": true, "security_clearances": true,
	"benefits": true, "work_arrangement": true, "employment_type": true}

// graphQLFilter turns a REST query string into the JobFilter variables
// meaning the same.
func graphQLFilter(t *testing.T, query string) map[string]any {
	t.Helper()
	values, err := url.ParseQuery(query)
	require.NoError(t, err)
	f := map[string]any{}
	for name, vs := range values {
		if name == "min_jobs" || name == "limit" || name == "offset" {
			continue
		}
		v := vs[0]
		key := camel(name)
		switch {
		case strings.HasSuffix(name, "_match"):
			f[key] = strings.ToUpper(v)
		case name == "include_unknown_salary":
			f[key] = v == "true"
		case name == "employment_type":
			// GraphQL takes the enum value of what REST's alias names.
			norm, err := normalize.New()
			require.NoError(t, err)
			var enums []string
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					name, ok := norm.EmploymentType(s)
					require.True(t, ok, s)
					enums = append(enums, strings.ToUpper(strings.ReplaceAll(name, "-", "_")))
				}
			}
			f[key] = enums
		case name == "work_arrangement":
			var enums []string
			for _, s := range strings.Split(v, ",") {
				enums = append(enums, strings.ToUpper(strings.ReplaceAll(s, "-", "")))
			}
			f[key] = enums
		case listParams[name]:
			f[key] = strings.Split(v, ",")
		case name == "salary_min" || name == "salary_max":
			n, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			f[key] = n
		default:
			f[key] = v
		}
	}
	return f
}

// minJobs reads min_jobs out of a REST query string (nil when absent).
func minJobs(query string) any {
	values, _ := url.ParseQuery(query)
	if n, err := strconv.Atoi(values.Get("min_jobs")); err == nil {
		return n
	}
	return nil
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}
