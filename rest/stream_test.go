package rest_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/rest"
	"github.com/jobsd-dev/jobsd/search"
)

// TestStreamHeartbeatsAndLimit: a stream with no event writes a comment
// line each heartbeat (proxies keep it open), and a key holding as many
// streams as it may is refused one more with 429 rate_limited.
func TestStreamHeartbeatsAndLimit(t *testing.T) {
	env := apitest.NewWithOptions(t, `{"id":"sse-0","title":"Registered Nurse","company":"Beat Co"}`, apitest.Options{Live: true, LivePerKey: 1})
	require.Eventually(t, func() bool { return env.Hub.Position() > 0 }, 10*time.Second, 10*time.Millisecond)
	h := env.REST(rest.WithStreamHeartbeat(50 * time.Millisecond))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(search.WithSubscriber(r.Context(), "key-1", "sse")))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/v1/jobs/stream?skills=golang", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r := bufio.NewReader(resp.Body)
	beats := 0
	for beats < 3 {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		if strings.HasPrefix(line, ": keep-alive") {
			beats++
		}
	}

	second := apitest.Get(t, srv.Config.Handler, "/api/v1/jobs/stream?skills=python")
	assert.Equal(t, http.StatusTooManyRequests, second.Code)
	assert.Contains(t, second.Body.String(), `"rate_limited"`)
}
