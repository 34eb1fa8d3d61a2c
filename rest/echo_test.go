package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/rest"
)

// TestErrorsEchoAShortPrefix: every REST error that quotes what the client
// sent (a parameter's name, a path, a method, an id) quotes at most its
// first rest.MaxEcho bytes.
func TestErrorsEchoAShortPrefix(t *testing.T) {
	h := newRouter(t)
	long := strings.Repeat("A", 20<<10)
	for _, tt := range []struct {
		name, method, target string
		wantStatus           int
		wantCode             string
	}{
		{"unknown parameter", http.MethodGet, "/jobs?" + url.QueryEscape(long) + "=1", http.StatusBadRequest, "unknown_parameter"},
		{"unknown parameter of a job", http.MethodGet, "/jobs/test-1?" + url.QueryEscape(long) + "=1", http.StatusBadRequest, "unknown_parameter"},
		{"unknown parameter of companies", http.MethodGet, "/companies?" + url.QueryEscape(long) + "=1", http.StatusBadRequest, "unknown_parameter"},
		{"unknown path", http.MethodGet, "/" + long, http.StatusNotFound, "not_found"},
		{"unknown company", http.MethodGet, "/companies/" + strings.Repeat("a", 10<<10), http.StatusNotFound, "not_found"},
		{"unknown method", strings.Repeat("X", 10<<10), "/jobs", http.StatusMethodNotAllowed, "method_not_allowed"},
		{"a value out of a closed set", http.MethodGet, "/jobs?sort=" + long, http.StatusBadRequest, "invalid_parameter"},
		{"an unknown facet", http.MethodGet, "/jobs?facets=" + long, http.StatusBadRequest, "invalid_parameter"},
		{"a malformed id", http.MethodGet, "/jobs/" + long, http.StatusBadRequest, "invalid_parameter"},
		{"an id of a long number", http.MethodGet, "/jobs/test-" + strings.Repeat("9", 10<<10), http.StatusBadRequest, "invalid_parameter"},
		{"posted_within", http.MethodGet, "/jobs?posted_within=" + long[:900], http.StatusBadRequest, "invalid_parameter"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tt.target, nil)
			req.Method = tt.method
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, tt.wantStatus, rec.Code, "%.300s", rec.Body.String())
			var body struct {
				Error struct{ Code, Message, Param string }
			}
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
			assert.Equal(t, tt.wantCode, body.Error.Code)
			assert.Less(t, len(body.Error.Message), 1000, "%.300s", body.Error.Message)
			assert.LessOrEqual(t, len(body.Error.Param), rest.MaxEcho+len("…"))
			assert.NotContains(t, body.Error.Message, strings.Repeat("A", rest.MaxEcho+1))
			assert.NotContains(t, body.Error.Message, strings.Repeat("X", rest.MaxEcho+1))
			assert.NotContains(t, body.Error.Message, strings.Repeat("9", rest.MaxEcho+1))
		})
	}
}
