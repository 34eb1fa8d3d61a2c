package main_test

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// burst fires n requests at once with key and counts the statuses.
func burst(t *testing.T, base, key string, n int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/jobs/test-1", nil)
			req.Header.Set("x-api-key", key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			counts[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return counts
}

func TestRateLimit(t *testing.T) {
	s := startService(t)
	slow := strings.TrimSpace(jobsd(t, s.dsn, "apikey", "create", "--name", "slow", "--rate", "1", "--burst", "5"))

	status, _, h := s.get(t, "/api/v1/jobs/test-1", "x-api-key", slow)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "1", h.Get("X-RateLimit-Limit"), "the key's own rate")
	assert.Equal(t, "4", h.Get("X-RateLimit-Remaining"))
	assert.Equal(t, "1", h.Get("X-RateLimit-Reset"), "one token to refill at 1/s")

	counts := burst(t, s.base, slow, 10)
	assert.Equal(t, 10, counts[http.StatusOK]+counts[http.StatusTooManyRequests], "only 200s and 429s: %v", counts)
	assert.LessOrEqual(t, counts[http.StatusOK], 5, "no more than the burst")
	assert.GreaterOrEqual(t, counts[http.StatusTooManyRequests], 5)

	status, body, h := s.get(t, "/api/v1/jobs/test-1", "x-api-key", slow)
	assert.Equal(t, http.StatusTooManyRequests, status)
	assert.Equal(t, "rate_limited", body["error"].(map[string]any)["code"])
	retry, err := strconv.Atoi(h.Get("Retry-After"))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, retry, 1)
	assert.Equal(t, "0", h.Get("X-RateLimit-Remaining"))

	status, _, h = s.get(t, "/api/v1/jobs/test-1")
	assert.Equal(t, http.StatusOK, status, "other keys have their own bucket")
	assert.Equal(t, "100000", h.Get("X-RateLimit-Limit"))

	_, gql := s.graphqlWithKey(t, slow, `{ jobs { pageInfo { total } } }`)
	ext := gql["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)
	assert.Equal(t, "rate_limited", ext["code"], "GraphQL-shaped 429 on /graphql")
}

// redisURL is the Redis the tests use (see ratelimit's tests).
func redisURL() string {
	if u := os.Getenv("JOBSD_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/15"
}

func TestRateLimitHoldsAcrossInstances(t *testing.T) {
	// Two instances over one database and one Redis, as behind a load
	// balancer.
	a := startService(t, "REDIS_URL="+redisURL())
	b := startServiceOn(t, a.dsn, "REDIS_URL="+redisURL())
	key := strings.TrimSpace(jobsd(t, a.dsn, "apikey", "create", "--name", "shared", "--rate", "1", "--burst", "6"))
	ca := burst(t, a.base, key, 6)
	cb := burst(t, b.base, key, 6)
	assert.Equal(t, 6, ca[http.StatusOK]+cb[http.StatusOK], "one bucket of 6 for both instances: %v %v", ca, cb)
	assert.Equal(t, 6, ca[http.StatusTooManyRequests]+cb[http.StatusTooManyRequests])
}

func TestRevokedKeyStopsWorkingWithinSeconds(t *testing.T) {
	s := startService(t)
	key := strings.TrimSpace(jobsd(t, s.dsn, "apikey", "create", "--name", "leaked"))
	status, _, _ := s.get(t, "/api/v1/jobs/test-1", "x-api-key", key)
	require.Equal(t, http.StatusOK, status)
	jobsd(t, s.dsn, "apikey", "revoke", "leaked")
	start := time.Now()
	require.Eventually(t, func() bool {
		status, _, _ := s.get(t, "/api/v1/jobs/test-1", "x-api-key", key)
		return status == http.StatusUnauthorized
	}, 10*time.Second, 250*time.Millisecond)
	t.Logf("revocation took effect after %s", time.Since(start).Round(100*time.Millisecond))
	list := jobsd(t, s.dsn, "apikey", "list")
	assert.Regexp(t, `leaked\s+jobsd_\S+\s+\S+\s+\d{4}-\d\d-\d\dT\S+\s+\d{4}-\d\d-\d\dT`, list, "last used and revoked dates are listed")
}
