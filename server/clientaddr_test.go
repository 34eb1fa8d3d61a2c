package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/server"
)

func TestParseTrustedProxies(t *testing.T) {
	got, err := server.ParseTrustedProxies([]string{"10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "10.1.2.3/8", "::ffff:192.0.2.8"})
	require.NoError(t, err)
	var texts []string
	for _, p := range got {
		texts = append(texts, p.String())
	}
	assert.Equal(t, []string{"10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32", "10.0.0.0/8", "192.0.2.8/32"}, texts)
	for _, bad := range []string{"10.0.0.0/33", "proxy.local", "fe80::1%eth0", ""} {
		_, err := server.ParseTrustedProxies([]string{bad})
		assert.Error(t, err, bad)
	}
}

// TestClientBehindTrustedProxies: a request from a trusted proxy is the
// client's its Forwarded or X-Forwarded-For names (the rightmost untrusted
// hop); a request from anywhere else is its peer's, whatever headers it
// writes. The limit on failed authentications counts per client so found,
// so that one client's failures behind the proxy do not refuse another's
// valid key, and the access log names the client.
func TestClientBehindTrustedProxies(t *testing.T) {
	proxies, err := server.ParseTrustedProxies([]string{"10.0.0.0/8", "2001:db8:ffff::/48"})
	require.NoError(t, err)
	var access bytes.Buffer
	h, key := newHandlerWith(t, &searchtest.Store{}, slog.New(slog.DiscardHandler), 0, func(c *server.Config) {
		// Every well-formed key is valid; failures are malformed keys.
		c.Keys = auth.NewChecker(func(_ context.Context, h []byte) (*auth.Key, error) {
			return auth.NewKeyInfo(1, "good", h, 0, 0), nil
		}, time.Minute, auth.WithFailureLimit(auth.FailureLimit{Rate: 0.5, Burst: 2}))
		c.AccessLog, c.TrustedProxies = slog.New(slog.NewJSONHandler(&access, nil)), proxies
	})
	send := func(peer, key string, headers ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/companies", nil)
		req.RemoteAddr = peer
		req.Header.Set("x-api-key", key)
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Add(headers[i], headers[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	lastClient := func() string {
		lines := bytes.Split(bytes.TrimSpace(access.Bytes()), []byte("\n"))
		var entry struct{ Client string }
		require.NoError(t, json.Unmarshal(lines[len(lines)-1], &entry))
		return entry.Client
	}
	bad := "jobsd_nope"
	const proxy, otherProxy = "10.0.0.5:40000", "[2001:db8:ffff::9]:40000"

	// One client behind the proxy fails until it is limited.
	for range 2 {
		assert.Equal(t, http.StatusUnauthorized, send(proxy, bad, "X-Forwarded-For", "198.51.100.1").Code)
	}
	assert.Equal(t, "198.51.100.1", lastClient())
	limited := send(proxy, bad, "X-Forwarded-For", "198.51.100.1")
	assert.Equal(t, http.StatusTooManyRequests, limited.Code)
	assert.Equal(t, "0.5", limited.Header().Get("X-RateLimit-Limit"), "the limit that was hit")
	assert.Equal(t, "0", limited.Header().Get("X-RateLimit-Remaining"))
	assert.NotEmpty(t, limited.Header().Get("X-RateLimit-Reset"))
	assert.NotEmpty(t, limited.Header().Get("Retry-After"))

	for _, tc := range []struct {
		name    string
		peer    string
		headers []string
		client  string
		status  int
	}{
		{"another client behind the proxy", proxy, []string{"X-Forwarded-For", "198.51.100.2"}, "198.51.100.2", http.StatusOK},
		{"behind two trusted hops", proxy, []string{"X-Forwarded-For", "198.51.100.3, 10.9.9.9"}, "198.51.100.3", http.StatusOK},
		{"a forged first hop is not the client", proxy, []string{"X-Forwarded-For", "198.51.100.1, 198.51.100.4"}, "198.51.100.4", http.StatusOK},
		{"Forwarded", otherProxy, []string{"Forwarded", `for="[2001:db8:1:2::7]";proto=https`}, "2001:db8:1:2::/64", http.StatusOK},
		{"the limited client's valid key", proxy, []string{"X-Forwarded-For", "198.51.100.1"}, "198.51.100.1", http.StatusOK},
		{"an untrusted peer's headers are not read", "203.0.113.9:1234", []string{"X-Forwarded-For", "198.51.100.1"}, "203.0.113.9", http.StatusOK},
		{"every hop trusted: the peer", proxy, []string{"X-Forwarded-For", "10.1.1.1"}, "10.0.0.5", http.StatusOK},
		{"no header: the peer", proxy, nil, "10.0.0.5", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := send(tc.peer, key, tc.headers...)
			assert.Equal(t, tc.status, rec.Code, "%s", rec.Body)
			assert.Equal(t, tc.client, lastClient())
		})
	}
	// The limited client is still limited; the others' failures are theirs.
	assert.Equal(t, http.StatusTooManyRequests, send(proxy, bad, "X-Forwarded-For", "198.51.100.1").Code)
	assert.Equal(t, http.StatusUnauthorized, send(proxy, bad, "X-Forwarded-For", "198.51.100.2").Code)
	assert.Equal(t, http.StatusUnauthorized, send("203.0.113.9:1", bad, "X-Forwarded-For", "198.51.100.1").Code,
		"a peer outside the proxies is its own client, whatever it writes")
}
