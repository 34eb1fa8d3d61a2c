package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestUnauthenticatedRequestsCostNothing: a malformed key is refused as
// such, a bad key is refused before the request's body is read, and once
// an address has failed its burst, its failures get 429 with Retry-After
// while a key in use from that address still works.
func TestUnauthenticatedRequestsCostNothing(t *testing.T) {
	s := loadedService(t, pgtest.NewURL(t), "JOBSD_AUTH_FAILURE_RATE=0.01", "JOBSD_AUTH_FAILURE_BURST=3")
	status, _, _ := s.get(t, "/api/v1/jobs/test-1")
	require.Equal(t, http.StatusOK, status, "the key is in use")

	// A body that would take long to send: 1 MB announced, a few bytes sent.
	c, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "POST /graphql HTTP/1.1\r\nHost: jobsd\r\nContent-Type: application/json\r\n"+
		"Content-Length: 1000000\r\nx-api-key: jobsd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n\r\n{\"query\":")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(3*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "answered without waiting for the body")
	var gql struct {
		Errors []struct{ Extensions struct{ Code string } }
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&gql))
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Len(t, gql.Errors, 1)
	assert.Equal(t, "unauthorized", gql.Errors[0].Extensions.Code)

	steps := []struct {
		name       string
		key        string
		wantStatus int
		wantCode   string
		wantText   string
	}{
		{"malformed key", "jobsd_not-a-real-key", http.StatusUnauthorized, "unauthorized", "not a jobsd key"},
		{"no key", "", http.StatusUnauthorized, "unauthorized", "required"},
		{"over the limit", "jobsd_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", http.StatusTooManyRequests, "rate_limited", "failed to authenticate"},
		{"still over the limit", "nonsense", http.StatusTooManyRequests, "rate_limited", "failed to authenticate"},
		{"the key in use", s.key, http.StatusOK, "", ""},
	}
	for _, st := range steps {
		status, body, h := s.get(t, "/api/v1/jobs/test-1", "x-api-key", st.key)
		assert.Equal(t, st.wantStatus, status, st.name)
		if st.wantCode == "" {
			continue
		}
		e, _ := body["error"].(map[string]any)
		assert.Equal(t, st.wantCode, e["code"], st.name)
		assert.Contains(t, e["message"], st.wantText, st.name)
		if st.wantStatus == http.StatusTooManyRequests {
			retry, err := strconv.Atoi(h.Get("Retry-After"))
			assert.NoError(t, err, st.name)
			assert.Greater(t, retry, 1, st.name)
		}
	}
}

// TestTrustedProxies: behind a trusted proxy (--trusted-proxies), each
// client is the one X-Forwarded-For names: a client whose bad keys are
// limited (429 with the X-RateLimit-* of the failure limit) does not get
// another client refused, not even with a key created after the failures;
// and a valid key, even one created after them, works from the limited
// client itself.
func TestTrustedProxies(t *testing.T) {
	dsn := pgtest.NewURL(t)
	s := loadedService(t, dsn, "JOBSD_TRUSTED_PROXIES=127.0.0.0/8,::1", "JOBSD_AUTH_FAILURE_RATE=0.01", "JOBSD_AUTH_FAILURE_BURST=3")
	const attacker, other = "198.51.100.1", "198.51.100.2"
	status, _, _ := s.get(t, "/api/v1/jobs/test-1", "X-Forwarded-For", attacker)
	require.Equal(t, http.StatusOK, status, "the key is in use")
	var body map[string]any
	var last int
	var lastHeaders http.Header
	for range 10 {
		last, _, lastHeaders = s.get(t, "/api/v1/jobs/test-1", "x-api-key", "jobsd_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", "X-Forwarded-For", attacker)
	}
	require.Equal(t, http.StatusTooManyRequests, last, "the failing client is limited")
	assert.Equal(t, "0.01", lastHeaders.Get("X-RateLimit-Limit"))
	assert.Equal(t, "0", lastHeaders.Get("X-RateLimit-Remaining"))
	assert.NotEmpty(t, lastHeaders.Get("X-RateLimit-Reset"))

	fresh := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "fresh"))
	status, body, _ = s.get(t, "/api/v1/jobs/test-1", "x-api-key", fresh, "X-Forwarded-For", other)
	assert.Equal(t, http.StatusOK, status, "another client's new key: %v", body)
	status, body, _ = s.get(t, "/api/v1/jobs/test-1", "x-api-key", "jobsd_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", "X-Forwarded-For", other)
	assert.Equal(t, http.StatusUnauthorized, status, "another client's bad key is its own first failure: %v", body)
	status, _, _ = s.get(t, "/api/v1/jobs/test-1", "X-Forwarded-For", attacker)
	assert.Equal(t, http.StatusOK, status, "a key in use still works from the limited client")

	// A key created now works from the limited client too once serve has
	// read the keys (every 250 ms): a key serve holds is never refused for
	// its client's failures.
	again := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "again"))
	require.Eventually(t, func() bool {
		status, _, _ := s.get(t, "/api/v1/jobs/test-1", "x-api-key", again, "X-Forwarded-For", attacker)
		return status == http.StatusOK
	}, 5*time.Second, 50*time.Millisecond)
	// Revoked, it is refused within as long.
	jobsd(t, dsn, "apikey", "revoke", "again")
	require.Eventually(t, func() bool {
		status, _, _ := s.get(t, "/api/v1/jobs/test-1", "x-api-key", again, "X-Forwarded-For", other)
		return status == http.StatusUnauthorized
	}, 5*time.Second, 50*time.Millisecond)
}
