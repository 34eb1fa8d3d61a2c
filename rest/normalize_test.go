package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestInterpretFilter: GET /api/v1/normalize reads a filter as GET /jobs
// would. Its data is a map of how each filter was read: its shape is the
// filters', so it stays a map here.
func TestInterpretFilter(t *testing.T) {
	h := apitest.New(t).REST()
	for _, tc := range []struct {
		query string
		want  map[string]any
	}{
		{"field=skills&value=k8s,golang,eks", map[string]any{"skills": []any{"Kubernetes", "Go", "AWS"}}},
		{"skills=k8s", map[string]any{"skills": []any{"Kubernetes"}}},
		{"location=Austin,%20TX&visas=h1b", map[string]any{
			"location": map[string]any{"city": []any{"Austin"}, "state": []any{"Texas"}},
			"visas":    []any{"H-1B"},
		}},
		{"field=title&value=Senior%20Backend%20Engineer", map[string]any{"title": map[string]any{
			"category_field": "Computer and Mathematical", "category_role": "Software Engineer", "category_specialization": "Backend"}}},
		{"field=work_arrangement&value=on-site", map[string]any{"work_arrangement": []any{"onsite"}}},
		{"", map[string]any{}},
	} {
		body := getJSON[one[map[string]any]](t, h, "/api/v1/normalize?"+tc.query, http.StatusOK)
		assert.Equal(t, tc.want, body.Data, tc.query)
	}
	for _, tc := range []struct{ query, param string }{
		{"field=skills", "field"},
		{"field=limit&value=5", "field"},
		{"field=skills&value=go&skills=rust", "field"},
		{"field=employment_type&value=gig", "employment_type"},
		{"salary_min=10&salary_max=1", "salary_min"},
	} {
		assert.Equal(t, tc.param, fail(t, h, "/api/v1/normalize?"+tc.query, http.StatusBadRequest).Error.Param, tc.query)
	}
	assert.Equal(t, "unknown_parameter", fail(t, h, "/api/v1/normalize?limit=5", http.StatusBadRequest).Error.Code)
}
