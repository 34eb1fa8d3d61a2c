package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// The REST bodies, typed: the tests over a real database (apitest) decode
// every answer into these, refusing fields they do not name.

// list is the envelope of a list: data and meta.
type list[T any] struct {
	Data []T      `json:"data"`
	Meta listMeta `json:"meta"`
}

// one is the envelope of one record: data, no meta.
type one[T any] struct {
	Data T `json:"data"`
}

type listMeta struct {
	Total      int            `json:"total"`
	Limit      int            `json:"limit"`
	Offset     int            `json:"offset"`
	HasMore    bool           `json:"has_more"`
	NextCursor *string        `json:"next_cursor"`
	Normalized map[string]any `json:"normalized"`
	// Facets are a field's values ([]domain.FacetValue) or, for salary,
	// its buckets ([]domain.SalaryBucket): see facetValues and buckets.
	Facets map[string]json.RawMessage `json:"facets"`
}

// errorBody is the contract's error body.
type errorBody struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		Param     string `json:"param"`
		ClosedAt  string `json:"closed_at"`
		RequestID string `json:"request_id"`
	} `json:"error"`
}

// getJSON serves GET path on h, requires the status, and decodes the body
// into a T.
func getJSON[T any](t *testing.T, h http.Handler, path string, status int) T {
	t.Helper()
	rec := apitest.Get(t, h, path)
	require.Equal(t, status, rec.Code, "%s: %s", path, rec.Body)
	require.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"), path)
	return apitest.Decode[T](t, rec.Body.Bytes())
}

// jobs serves GET /api/v1/jobs?query and requires 200.
func jobs(t *testing.T, h http.Handler, query string) list[domain.JobCard] {
	t.Helper()
	return getJSON[list[domain.JobCard]](t, h, "/api/v1/jobs?"+query, http.StatusOK)
}

// fail serves GET path, requires the status, and returns the error.
func fail(t *testing.T, h http.Handler, path string, status int) errorBody {
	t.Helper()
	return getJSON[errorBody](t, h, path, status)
}

func ids(cards []domain.JobCard) []string {
	out := []string{}
	for _, c := range cards {
		out = append(out, c.ID)
	}
	return out
}

func facetValues(t *testing.T, m listMeta, field string) []domain.FacetValue {
	t.Helper()
	require.Contains(t, m.Facets, field)
	return apitest.Decode[[]domain.FacetValue](t, m.Facets[field])
}

func buckets(t *testing.T, m listMeta) []domain.SalaryBucket {
	t.Helper()
	require.Contains(t, m.Facets, "salary")
	return apitest.Decode[[]domain.SalaryBucket](t, m.Facets["salary"])
}

func ptr[T any](v T) *T { return &v }
