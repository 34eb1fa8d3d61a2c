package main_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestImportFormats imports each format's fixture with the real binary
// and reads the records back through the REST API.
func TestImportFormats(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	fixture := func(name string) string { return pgtest.Fixture(t, "formats/"+name) }

	// A Greenhouse board without company_name on one job needs --company.
	_, errOut, err := runJobsd(dsn, nil, "import", "--format", "greenhouse", fixture("greenhouse.json"))
	require.Error(t, err)
	assert.Contains(t, errOut, "invalid: record 2 (greenhouse-4012399): company is required: the Greenhouse job has no company_name; give --company NAME")
	assert.Contains(t, errOut, "1 of 3 records; nothing was written")

	for _, tc := range []struct {
		args []string
		out  string
	}{
		{[]string{"--format", "greenhouse", "--company", "Northwind Robotics", fixture("greenhouse.json")}, "3 jobs written from 3 records, 0 invalid skipped"},
		{[]string{"--format", "lever", "--company", "Maple Ledger", fixture("lever.json")}, "3 jobs written from 3 records, 0 invalid skipped"},
		{[]string{"--format", "jsonld", fixture("jobposting.html")}, "1 jobs written from 1 records, 0 invalid skipped"},
		{[]string{"--format", "jsonld", fixture("jobs.jsonld")}, "2 jobs written from 2 records, 0 invalid skipped"},
	} {
		out := jobsd(t, dsn, append([]string{"import"}, tc.args...)...)
		assert.Contains(t, out, tc.out, tc.args)
	}

	// Standard input, NDJSON of JSON-LD, and an invalid line skipped.
	out, errOut, err := runJobsd(dsn, strings.NewReader(
		`{"@type":"JobPosting","title":"Line Cook","hiringOrganization":"Diner 24","identifier":"501","datePosted":"2026-10-01"}`+"\n"+
			`{"@type":"JobPosting","title":"Line Cook"`+"\n"),
		"import", "--format", "jsonld", "--skip-invalid", "-")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "1 jobs written from 2 lines, 1 invalid skipped")
	assert.Contains(t, errOut, "invalid: line 2: not valid JSON")

	_, errOut, err = runJobsd(dsn, nil, "import", "--format", "csv", fixture("lever.json"))
	require.Error(t, err)
	assert.Contains(t, errOut, `unknown format "csv" (ndjson, jsonld, greenhouse, lever)`)

	s := startServiceOn(t, dsn)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "formats"))

	get := func(t *testing.T, id string) map[string]any {
		t.Helper()
		status, body, _ := s.get(t, "/api/v1/jobs/"+id)
		require.Equal(t, http.StatusOK, status, "%s: %v", id, body)
		return body["data"].(map[string]any)
	}
	for _, tc := range []struct {
		id   string
		want map[string]any
	}{
		{"greenhouse-4012345", map[string]any{
			"title": "Senior Backend Engineer, Payments", "company": "Northwind Robotics",
			"url": "https://boards.greenhouse.io/northwindrobotics/jobs/4012345", "posted_at": "2026-10-20T13:15:00Z",
			"location": map[string]any{"city": []any{"San Francisco", "New York"}, "state": []any{"California", "New York"},
				"country": []any{"United States"}, "full": "San Francisco, California, United States + 1 more"},
			"employment_type": "full-time", "experience_level": "5+ years", "work_arrangement": nil,
			"salary":           map[string]any{"min": 185000.0, "max": 230000.0, "currency": "USD", "period": "annual"},
			"skills":           []any{"Go", "Kubernetes", "PostgreSQL", "Kafka", "Terraform"},
			"tools":            []any{"Kubernetes", "Terraform"},
			"education_levels": []any{"Bachelor's"}, "education_majors": []any{"Computer Science"},
			"visa_sponsorship": []any{"H-1B"}, "visa_requirements": []any{}, "travel_percent": 10.0,
			"security_clearances": nil, "source": "greenhouse",
			"category": map[string]any{"field": "Computer and Mathematical", "role": "Software Engineer", "specialization": "Backend"},
		}},
		{"greenhouse-4012399", map[string]any{
			"title": "Systems Administrator (Cleared) – Federal", "company": "Northwind Robotics",
			"location":            map[string]any{"city": []any{"Chantilly"}, "state": []any{"Virginia"}, "country": []any{"United States"}, "full": "Chantilly, Virginia, United States"},
			"security_clearances": []any{"TS/SCI with Polygraph"}, "clearance_status": "Active", "travel_percent": 25.0,
			"visa_requirements": []any{"U.S. citizenship required.", "We are unable to sponsor visas for this position."},
			"experience_level":  "3-5 years", "salary": nil,
		}},
		{"lever-408738175165449289", map[string]any{
			"title": "Staff Software Engineer, Platform", "company": "Maple Ledger", "posted_at": "2026-10-28T12:40:00Z",
			"url": "https://jobs.lever.co/mapleledger/5ac21346-8e0c-4494-8e7a-3eb92ff77902",
			"location": map[string]any{"city": []any{"Toronto", "Vancouver"}, "state": []any{"Ontario", "British Columbia"},
				"country": []any{"Canada"}, "full": "Toronto, Ontario, Canada + 1 more"},
			"work_arrangement": "hybrid", "employment_type": "full-time",
			"salary":                   map[string]any{"min": 180000.0, "max": 220000.0, "currency": "CAD", "period": "annual"},
			"responsibilities":         []any{"Design event-driven services in Go and Kafka", "Lead architecture reviews across three teams", "Coach senior engineers"},
			"required_qualifications":  []any{"8+ years of experience in software engineering", "Deep experience with PostgreSQL & distributed systems"},
			"preferred_qualifications": []any{"Experience with Terraform on AWS", "Open-source contributions"},
			"benefits":                 []any{"Dental Insurance", "RRSP matching", "Paid Time Off"},
			"travel_percent":           15.0, "experience_level": "8+ years", "source": "lever",
		}},
		{"lever-797027517400147189", map[string]any{
			"work_arrangement": "remote", "employment_type": "part-time",
			"location": map[string]any{"city": []any{}, "state": []any{}, "country": []any{"United States"}, "full": "United States"},
			"salary":   map[string]any{"min": 24.0, "max": 28.0, "currency": "USD", "period": "hourly"},
			"tools":    []any{"Zendesk", "Salesforce", "Jira"}, "travel_percent": 0.0,
		}},
		{"jsonld-202755019052721733", map[string]any{
			"title": "Registered Nurse – ICU (Nights)", "company": "St. Mary's Regional Medical Center",
			"company_logo": "https://stmarys.example/img/logo.png", "posted_at": "2026-10-27T00:00:00Z",
			"location": map[string]any{"city": []any{"Austin", "Round Rock"}, "state": []any{"Texas"}, "country": []any{"United States"},
				"full": "Austin, Texas, United States + 1 more"},
			"employment_type": "full-time", "experience_level": "2+ years",
			"salary":    map[string]any{"min": 42.5, "max": 58.0, "currency": "USD", "period": "hourly"},
			"education": []any{"associate degree"}, "education_levels": []any{"Associate's"},
			"benefits": []any{"Health Insurance", "Dental Insurance", "Vision Insurance", "403(b) with 4% match", "Tuition Reimbursement"},
			"source":   "jsonld",
		}},
		{"jsonld-88231", map[string]any{
			"title": "Senior Site Reliability Engineer", "company": "Quillsoft", "company_logo": "https://quillsoft.example/logo.svg",
			"location":         map[string]any{"city": []any{}, "state": []any{}, "country": []any{"United States", "Canada"}, "full": "United States + 1 more"},
			"work_arrangement": "remote", "employment_type": "contract",
			"salary":              map[string]any{"min": 95.0, "max": 95.0, "currency": "USD", "period": "hourly"},
			"security_clearances": []any{"Secret"}, "clearance_status": "Active", "visa_sponsorship": []any{"H-1B"},
			"travel_percent": 10.0, "experience_level": "6+ years",
		}},
		{"jsonld-501", map[string]any{"title": "Line Cook", "company": "Diner 24", "posted_at": "2026-10-01T00:00:00Z"}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			job := get(t, tc.id)
			for field, want := range tc.want {
				assert.Equal(t, want, job[field], field)
			}
		})
	}

	job := get(t, "jsonld-88231")
	assert.Contains(t, job["description"], "Keep Quillsoft's editor online", "entities decoded")
	job = get(t, "greenhouse-4012345")
	assert.True(t, strings.HasPrefix(job["description_raw"].(string), "<h2>About the role</h2>"), "the HTML, unescaped once")

	status, body, _ := s.get(t, "/api/v1/jobs?company=northwind&limit=10")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []string{"greenhouse-4012400", "greenhouse-4012399", "greenhouse-4012345"}, ids(body["data"]))
	_, body, _ = s.get(t, "/api/v1/jobs?security_clearances=ts/sci%20with%20poly&limit=10")
	assert.Equal(t, []string{"greenhouse-4012399"}, ids(body["data"]))
}
