package main_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuggestEndToEnd asks the binary for suggestions as a search box
// does: a company is suggested once its posting is imported, with the
// total GET /jobs gives for its filter; the key is required.
func TestSuggestEndToEnd(t *testing.T) {
	s := startService(t)
	s.importLines(t, `{"id":"sg-1","title":"Go Developer","company":"Wombat Works","skills":["golang"]}`,
		`{"id":"sg-2","title":"Backend Engineer","company":"Wombat Works","skills":["golang"]}`)
	var data []any
	require.Eventually(t, func() bool {
		status, body, _ := s.get(t, "/api/v1/suggest?field=company&prefix=wom")
		require.Equal(t, http.StatusOK, status)
		data = body["data"].([]any)
		return len(data) == 1
	}, 10*time.Second, 50*time.Millisecond)
	sg := data[0].(map[string]any)
	assert.Equal(t, "Wombat Works", sg["value"])
	assert.Equal(t, 2.0, sg["count"])
	assert.Equal(t, map[string]any{"company": "Wombat Works"}, sg["filter"])
	_, list, _ := s.get(t, "/api/v1/jobs?company=Wombat+Works")
	assert.Equal(t, 2.0, list["meta"].(map[string]any)["total"])

	status, body, _ := s.get(t, "/api/v1/suggest?prefix=wom")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "field", body["error"].(map[string]any)["param"])
	status, _, _ = s.get(t, "/api/v1/suggest?field=company", "x-api-key", "")
	assert.Equal(t, http.StatusUnauthorized, status)
}
