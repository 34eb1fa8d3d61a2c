package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestCompaniesUnderJobFilters counts only the jobs that match a filter.
func TestCompaniesUnderJobFilters(t *testing.T) {
	h := apitest.New(t).REST()
	type company struct {
		name  string
		count int
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
			body := getJSON[list[domain.Company]](t, h, "/api/v1/companies?limit=100&"+tc.query, http.StatusOK)
			got := []company{}
			for _, c := range body.Data {
				got = append(got, company{c.Name, c.JobCount})
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, len(tc.want), body.Meta.Total)
			assert.NotEmpty(t, body.Meta.Normalized, "how the filter was read")
		})
	}
	assert.Equal(t, "unknown_parameter", fail(t, h, "/api/v1/companies?skills=golang&foo=1", http.StatusBadRequest).Error.Code)
	fail(t, h, "/api/v1/companies?work_arrangement=sometimes", http.StatusBadRequest)
}

func TestCompanyPage(t *testing.T) {
	h := apitest.New(t).REST()
	vc := func(v string, n int) domain.ValueCount { return domain.ValueCount{Value: &v, Count: n} }
	assert.Equal(t, domain.CompanyProfile{
		Name: "Acme Cloud", Slug: "acme-cloud", LogoURL: ptr("https://logos.example.com/acme.png"), JobCount: 3,
		ByCategory:        []domain.ValueCount{vc("Computer and Mathematical", 2), vc("Management", 1)},
		ByWorkArrangement: []domain.ValueCount{vc("hybrid", 1), vc("onsite", 1), vc("remote", 1)},
	}, getJSON[one[domain.CompanyProfile]](t, h, "/api/v1/companies/ACME-cloud", http.StatusOK).Data)
	assert.Equal(t, "not_found", fail(t, h, "/api/v1/companies/nobody-here", http.StatusNotFound).Error.Code)

	body := getJSON[list[domain.Company]](t, h, "/api/v1/companies?limit=1", http.StatusOK)
	assert.Equal(t, "acme-cloud", body.Data[0].Slug, "lists link to the pages")
}
