package main_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestErrorsEchoAShortPrefix: REST errors about what the client sent
// quote at most its first 64 bytes, whatever its length.
func TestErrorsEchoAShortPrefix(t *testing.T) {
	s := startService(t)
	long := strings.Repeat("Z", 20<<10)
	for _, tt := range []struct {
		name, method, path string
		wantStatus         int
		wantCode           string
	}{
		{"unknown parameter", http.MethodGet, "/api/v1/jobs?" + url.QueryEscape(long) + "=1", http.StatusBadRequest, "unknown_parameter"},
		{"unknown path under /api/v1", http.MethodGet, "/api/v1/" + long, http.StatusNotFound, "not_found"},
		{"unknown path", http.MethodGet, "/" + long, http.StatusNotFound, "not_found"},
		{"unknown method", long, "/api/v1/jobs", http.StatusMethodNotAllowed, "method_not_allowed"},
		{"unknown method elsewhere", long, "/healthz", http.StatusMethodNotAllowed, "method_not_allowed"},
		{"unknown company", http.MethodGet, "/api/v1/companies/" + strings.ToLower(long), http.StatusNotFound, "not_found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body, _ := apitest.Do(t, s.request(t, tt.method, tt.path))
			assert.Equal(t, tt.wantStatus, status)
			e, _ := body["error"].(map[string]any)
			assert.Equal(t, tt.wantCode, e["code"])
			msg, _ := e["message"].(string)
			assert.Less(t, len(msg), 1000, "%.200s", msg)
			assert.NotContains(t, strings.ToUpper(msg), strings.Repeat("Z", 65))
			param, _ := e["param"].(string)
			assert.LessOrEqual(t, len(param), 64+len("…"))
		})
	}
}
