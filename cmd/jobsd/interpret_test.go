package main_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInterpretFilter(t *testing.T) {
	s := startService(t)
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
		status, body, _ := s.get(t, "/api/v1/normalize?"+tc.query)
		require.Equal(t, http.StatusOK, status, "%s: %v", tc.query, body)
		assert.Equal(t, tc.want, body["data"], tc.query)
	}
	for _, tc := range []struct{ query, param string }{
		{"field=skills", "field"},
		{"field=limit&value=5", "field"},
		{"field=skills&value=go&skills=rust", "field"},
		{"field=employment_type&value=gig", "employment_type"},
		{"salary_min=10&salary_max=1", "salary_min"},
	} {
		status, body, _ := s.get(t, "/api/v1/normalize?"+tc.query)
		assert.Equal(t, http.StatusBadRequest, status, tc.query)
		assert.Equal(t, tc.param, body["error"].(map[string]any)["param"], tc.query)
	}
	status, body, _ := s.get(t, "/api/v1/normalize?limit=5")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "unknown_parameter", body["error"].(map[string]any)["code"])

	_, gql := s.graphql(t, `{ interpretFilter(filter: {skills: ["k8s"], location: "Austin, TX"}) }`, nil)
	assert.Equal(t, map[string]any{"interpretFilter": map[string]any{
		"skills":   []any{"Kubernetes"},
		"location": map[string]any{"city": []any{"Austin"}, "state": []any{"Texas"}},
	}}, gql["data"], "the same reading through GraphQL")
}
