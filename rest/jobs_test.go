package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestJobs: GET /api/v1/jobs and /api/v1/jobs/{id} over the fixture in a
// real database: the filters, paging, the shape of cards and jobs, the
// normalized echo and the errors.
func TestJobs(t *testing.T) {
	h := apitest.New(t).REST()

	t.Run("filters", func(t *testing.T) {
		for _, tc := range apitest.FilterCases {
			t.Run(tc.Query, func(t *testing.T) {
				body := jobs(t, h, "limit=100&"+tc.Query)
				assert.Equal(t, tc.Want, ids(body.Data))
				assert.Equal(t, len(tc.Want), body.Meta.Total)
				assert.False(t, body.Meta.HasMore)
			})
		}
	})

	t.Run("pagination", func(t *testing.T) {
		var walked []string
		for offset := 0; ; offset += 5 {
			body := jobs(t, h, "limit=5&offset="+strconv.Itoa(offset))
			assert.Equal(t, 12, body.Meta.Total)
			assert.Equal(t, 5, body.Meta.Limit)
			assert.Equal(t, offset, body.Meta.Offset)
			page := ids(body.Data)
			walked = append(walked, page...)
			assert.Equal(t, offset+len(page) < 12, body.Meta.HasMore)
			if !body.Meta.HasMore {
				break
			}
		}
		assert.Equal(t, apitest.AllIDs, walked)

		assert.Equal(t, 25, jobs(t, h, "").Meta.Limit, "default limit")
		assert.Equal(t, 100, jobs(t, h, "limit=500").Meta.Limit, "clamped")
		body := jobs(t, h, "offset=100")
		assert.Equal(t, []domain.JobCard{}, body.Data)
		assert.Equal(t, 12, body.Meta.Total)
		assert.False(t, body.Meta.HasMore)

		// Cursor pages walk the same list.
		walked = nil
		cursor := ""
		for range 5 {
			body := jobs(t, h, "limit=5"+cursor)
			walked = append(walked, ids(body.Data)...)
			if body.Meta.NextCursor == nil || !body.Meta.HasMore {
				break
			}
			cursor = "&cursor=" + url.QueryEscape(*body.Meta.NextCursor)
		}
		assert.Equal(t, apitest.AllIDs, walked)

		companies := getJSON[list[domain.Company]](t, h, "/api/v1/companies?limit=2&offset=1", http.StatusOK)
		assert.Equal(t, listMeta{Total: 7, Limit: 2, Offset: 1, HasMore: true}, companies.Meta)
	})

	t.Run("field presence", func(t *testing.T) {
		cards := getJSON[list[map[string]json.RawMessage]](t, h, "/api/v1/jobs?limit=100", http.StatusOK)
		require.Len(t, cards.Data, 12)
		for _, card := range cards.Data {
			assert.ElementsMatch(t, []string{"id", "title", "company", "location", "work_arrangement", "employment_type", "salary", "category"}, keys(card))
			assert.ElementsMatch(t, []string{"city", "state", "country", "full"}, keys(apitest.Decode[map[string]json.RawMessage](t, card["location"])))
			assert.ElementsMatch(t, []string{"field", "role", "specialization"}, keys(apitest.Decode[map[string]json.RawMessage](t, card["category"])))
			if sal := apitest.Decode[map[string]json.RawMessage](t, card["salary"]); sal != nil {
				assert.ElementsMatch(t, []string{"min", "max", "currency", "period"}, keys(sal))
			}
		}
		raw := getJSON[map[string]json.RawMessage](t, h, "/api/v1/jobs/test-5", http.StatusOK)
		assert.Equal(t, []string{"data"}, keys(raw), "no meta on a single job")
		assert.ElementsMatch(t, []string{"id", "title", "company", "company_logo", "url", "posted_at", "location", "work_arrangement",
			"employment_type", "experience_level", "salary", "summary", "description", "description_raw", "responsibilities",
			"required_qualifications", "preferred_qualifications", "skills", "tools", "soft_skills", "technical_skills", "benefits",
			"education", "education_levels", "education_majors", "certifications", "visa_sponsorship", "visa_requirements",
			"security_clearances", "clearance_status", "travel_percent", "source", "category"}, keys(apitest.Decode[map[string]json.RawMessage](t, raw["data"])))
		job := getJSON[one[domain.Job]](t, h, "/api/v1/jobs/test-5", http.StatusOK).Data
		assert.Nil(t, job.Salary)
		assert.Nil(t, job.SecurityClearances)
		assert.Nil(t, job.ClearanceStatus)
		assert.Nil(t, job.CompanyLogo)
		assert.Equal(t, []string{}, job.Tools, "empty lists are [], never null")
		assert.Equal(t, ptr("2026-10-26T06:00:00Z"), job.PostedAt)

		job = getJSON[one[domain.Job]](t, h, "/api/v1/jobs/test-6", http.StatusOK).Data
		assert.Equal(t, []string{"Top Secret/SCI"}, job.SecurityClearances)
		assert.Equal(t, ptr("Active"), job.ClearanceStatus)
		assert.Equal(t, []string{"EKS", "Terraform", "AWS"}, job.Skills)

		assert.Nil(t, getJSON[one[domain.Job]](t, h, "/api/v1/jobs/test-10", http.StatusOK).Data.PostedAt)
	})

	t.Run("normalized echo", func(t *testing.T) {
		body := jobs(t, h, "skills=golang,k8s&city=SF&title=software%20engineer")
		assert.Equal(t, map[string]any{
			"skills": []any{"Go", "Kubernetes"},
			"city":   []any{"San Francisco"},
			"title":  map[string]any{"category_field": "Computer and Mathematical", "category_role": "Software Engineer"},
		}, body.Meta.Normalized)
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			path   string
			status int
			code   string
			param  string
		}{
			{"/api/v1/jobs?limit=0", 400, "invalid_parameter", "limit"},
			{"/api/v1/jobs?limit=abc", 400, "invalid_parameter", "limit"},
			{"/api/v1/jobs?limit=2.5", 400, "invalid_parameter", "limit"},
			{"/api/v1/jobs?offset=-1", 400, "invalid_parameter", "offset"},
			{"/api/v1/jobs?salary_min=-5", 400, "invalid_parameter", "salary_min"},
			{"/api/v1/jobs?salary_min=lots", 400, "invalid_parameter", "salary_min"},
			{"/api/v1/jobs?salary_min=200&salary_max=100", 400, "invalid_parameter", "salary_min"},
			{"/api/v1/jobs?work_arrangement=sometimes", 400, "invalid_parameter", "work_arrangement"},
			{"/api/v1/jobs?employment_type=gig", 400, "invalid_parameter", "employment_type"},
			{"/api/v1/jobs?title=nurse&job_title=engineer", 400, "invalid_parameter", "job_title"},
			{"/api/v1/jobs?skills=" + strings.Repeat("a,", 51), 400, "invalid_parameter", "skills"},
			{"/api/v1/jobs?sort=relevance", 400, "invalid_parameter", "sort"},
			{"/api/v1/jobs?sort=cheapest", 400, "invalid_parameter", "sort"},
			{"/api/v1/jobs?cursor=garbage", 400, "invalid_parameter", "cursor"},
			{"/api/v1/jobs?posted_within=2w", 400, "invalid_parameter", "posted_within"},
			{"/api/v1/jobs?posted_after=yesterday", 400, "invalid_parameter", "posted_after"},
			{"/api/v1/jobs?skills=go&skills_match=some", 400, "invalid_parameter", "skills_match"},
			{"/api/v1/jobs?include_unknown_salary=maybe", 400, "invalid_parameter", "include_unknown_salary"},
			{"/api/v1/jobs?skil=go", 400, "unknown_parameter", "skil"},
			{"/api/v1/jobs?foo=bar", 400, "unknown_parameter", "foo"},
			{"/api/v1/jobs/Not%20An%20Id", 400, "invalid_parameter", "id"},
			{"/api/v1/jobs/test-999", 404, "not_found", ""},
			{"/api/v1/companies?min_jobs=abc", 400, "invalid_parameter", "min_jobs"},
			{"/api/v1/companies?min_jobs=-1", 400, "invalid_parameter", "min_jobs"},
			{"/api/v1/nothing-here", 404, "not_found", ""},
		}
		for i, tc := range cases {
			t.Run(tc.path, func(t *testing.T) {
				id := "req-" + strconv.Itoa(i)
				rec := apitest.Get(t, h, tc.path, "X-Request-ID", id)
				assert.Equal(t, tc.status, rec.Code)
				assert.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"))
				e := apitest.Decode[errorBody](t, rec.Body.Bytes()).Error
				assert.Equal(t, tc.code, e.Code)
				assert.NotEmpty(t, e.Message)
				assert.Equal(t, id, e.RequestID, "the request's id")
				if tc.param != "" {
					assert.Equal(t, tc.param, e.Param)
				}
			})
		}
		assert.Contains(t, fail(t, h, "/api/v1/jobs?skil=go", http.StatusBadRequest).Error.Message, `did you mean "skills"`)

		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v1/jobs", nil))
		assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
		assert.Equal(t, "method_not_allowed", apitest.Decode[errorBody](t, rec.Body.Bytes()).Error.Code)
		assert.Contains(t, rec.Header().Get("Allow"), "GET")
	})
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
