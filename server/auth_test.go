package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/server"
)

// keyStore is an auth.Lookup over one valid key that counts its calls;
// each lookup takes delay.
type keyStore struct {
	key   string
	hash  []byte
	delay time.Duration
	calls atomic.Int64
}

func newKeyStore(delay time.Duration) *keyStore {
	key, _, hash := auth.NewKey()
	return &keyStore{key: key, hash: hash, delay: delay}
}

func (k *keyStore) lookup(ctx context.Context, h []byte) (*auth.Key, error) {
	k.calls.Add(1)
	time.Sleep(k.delay)
	if string(h) == string(k.hash) {
		return auth.NewKeyInfo(1, "test", h, 0, 0), nil
	}
	return nil, nil
}

// newAuthHandler returns jobsd's handler with the Checker and Ping given
// (nil Ping: the database answers).
func newAuthHandler(t *testing.T, keys *auth.Checker, ping func(context.Context) error, draining func() bool) http.Handler {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	if ping == nil {
		ping = func(context.Context) error { return nil }
	}
	return server.New(server.Config{
		Search:   search.New(norm, &searchtest.Store{}),
		Keys:     keys,
		Ping:     ping,
		Draining: draining,
		Log:      log,
	})
}

// errorCode returns the error code of a REST or GraphQL error body.
func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var b struct {
		Error  struct{ Code string }
		Errors []struct{ Extensions struct{ Code string } }
	}
	require.NoError(t, json.Unmarshal(body, &b), "%s", body)
	if len(b.Errors) > 0 {
		return b.Errors[0].Extensions.Code
	}
	return b.Error.Code
}

// TestMalformedKeysCostNoLookup: a key not shaped like a jobsd key is
// refused with 401 before any lookup, on REST and GraphQL.
func TestMalformedKeysCostNoLookup(t *testing.T) {
	keys := newKeyStore(0)
	h := newAuthHandler(t, auth.NewChecker(keys.lookup, time.Minute), nil, nil)
	for _, tt := range []struct {
		name, key string
	}{
		{"short", "jobsd_not-a-real-key"},
		{"no prefix", strings.Repeat("A", 38)},
		{"bad character", keys.key[:len(keys.key)-1] + "+"},
		{"too long", keys.key + "A"},
		{"huge", strings.Repeat("x", 64<<10)},
	} {
		for _, path := range []string{"/api/v1/jobs", "/graphql?query=%7Bjobs%7BpageInfo%7Btotal%7D%7D%7D"} {
			t.Run(tt.name+" "+path[:8], func(t *testing.T) {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Header.Set("x-api-key", tt.key)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				assert.Equal(t, http.StatusUnauthorized, rec.Code)
				assert.Equal(t, "unauthorized", errorCode(t, rec.Body.Bytes()))
				assert.Contains(t, rec.Body.String(), "not a jobsd key")
			})
		}
	}
	assert.Zero(t, keys.calls.Load(), "no lookup for a malformed key")
}

// TestConcurrentUnknownKeyCostsOneLookup: 50 concurrent requests with one
// unknown key make one lookup between them.
func TestConcurrentUnknownKeyCostsOneLookup(t *testing.T) {
	keys := newKeyStore(100 * time.Millisecond)
	srv := httptest.NewServer(newAuthHandler(t, auth.NewChecker(keys.lookup, time.Minute), nil, nil))
	t.Cleanup(srv.Close)
	unknown, _, _ := auth.NewKey()
	var wg sync.WaitGroup
	statuses := make(chan int, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/jobs", nil)
			req.Header.Set("x-api-key", unknown)
			resp, err := http.DefaultClient.Do(req)
			if !assert.NoError(t, err) {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			statuses <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		assert.Equal(t, http.StatusUnauthorized, s)
	}
	assert.EqualValues(t, 1, keys.calls.Load(), "one lookup for 50 concurrent requests with the same unknown key")
}

// TestFailedAuthenticationsAreLimitedPerAddress: once an address has
// failed its burst, its next failures get 429 with Retry-After, and its
// unknown keys are not looked up; a key in use from there still works, and
// other addresses are not affected.
func TestFailedAuthenticationsAreLimitedPerAddress(t *testing.T) {
	keys := newKeyStore(0)
	h := newAuthHandler(t, auth.NewChecker(keys.lookup, time.Minute,
		auth.WithFailureLimit(auth.FailureLimit{Rate: 0.01, Burst: 3})), nil, nil)
	const attacker, sameNetwork, bystander = "[2001:db8:1:2::1]:4000", "[2001:db8:1:2::ffff]:4001", "192.0.2.7:5000"
	steps := []struct {
		name        string
		remote      string
		path        string
		key         string
		wantStatus  int
		wantCode    string
		wantLookups int64
	}{
		{"a valid key", attacker, "/api/v1/companies", keys.key, http.StatusOK, "", 1},
		{"no key", attacker, "/api/v1/jobs", "", http.StatusUnauthorized, "unauthorized", 1},
		{"malformed key", attacker, "/api/v1/jobs", "jobsd_nope", http.StatusUnauthorized, "unauthorized", 1},
		{"unknown key", attacker, "/api/v1/jobs", mustKey(), http.StatusUnauthorized, "unauthorized", 2},
		{"over the limit", attacker, "/api/v1/jobs", "jobsd_nope", http.StatusTooManyRequests, "rate_limited", 2},
		{"over the limit, unknown key: no lookup", attacker, "/api/v1/jobs", mustKey(), http.StatusTooManyRequests, "rate_limited", 2},
		{"over the limit on GraphQL", attacker, "/graphql?query=%7B__typename%7D", "", http.StatusTooManyRequests, "rate_limited", 2},
		{"the same /64", sameNetwork, "/api/v1/jobs", "", http.StatusTooManyRequests, "rate_limited", 2},
		{"the valid key still works", attacker, "/api/v1/companies", keys.key, http.StatusOK, "", 2},
		{"another address", bystander, "/api/v1/jobs", mustKey(), http.StatusUnauthorized, "unauthorized", 3},
	}
	for _, s := range steps {
		req := httptest.NewRequest(http.MethodGet, s.path, nil)
		req.RemoteAddr = s.remote
		if s.key != "" {
			req.Header.Set("x-api-key", s.key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, s.wantStatus, rec.Code, s.name)
		if s.wantCode != "" {
			assert.Equal(t, s.wantCode, errorCode(t, rec.Body.Bytes()), s.name)
		}
		if s.wantStatus == http.StatusTooManyRequests {
			assert.Equal(t, "100", rec.Header().Get("Retry-After"), s.name)
		} else {
			assert.Empty(t, rec.Header().Get("Retry-After"), s.name)
		}
		assert.Equal(t, s.wantLookups, keys.calls.Load(), s.name)
	}
}

// bodyProbe is a request body that records whether it was read.
type bodyProbe struct {
	read atomic.Bool
	r    io.Reader
}

func (b *bodyProbe) Read(p []byte) (int, error) {
	b.read.Store(true)
	return b.r.Read(p)
}

// TestKeyIsCheckedBeforeTheBodyIsRead: a request without a valid key is
// answered without reading its body; one with a valid key still has its
// body limited.
func TestKeyIsCheckedBeforeTheBodyIsRead(t *testing.T) {
	keys := newKeyStore(0)
	h := newAuthHandler(t, auth.NewChecker(keys.lookup, time.Minute), nil, nil)
	big := `{"query":"{ __typename }","variables":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`
	small := `{"query":"{ __typename }"}`
	for _, tt := range []struct {
		name, key, body string
		wantStatus      int
		wantRead        bool
	}{
		{"no key", "", big, http.StatusUnauthorized, false},
		{"malformed key", "jobsd_x", big, http.StatusUnauthorized, false},
		{"unknown key", mustKey(), big, http.StatusUnauthorized, false},
		{"valid key, body too large", keys.key, big, http.StatusRequestEntityTooLarge, true},
		{"valid key", keys.key, small, http.StatusOK, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := &bodyProbe{r: strings.NewReader(tt.body)}
			req := httptest.NewRequest(http.MethodPost, "/graphql", body)
			req.ContentLength = -1 // unknown: the size limit must read to learn it
			req.Header.Set("Content-Type", "application/json")
			if tt.key != "" {
				req.Header.Set("x-api-key", tt.key)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tt.wantStatus, rec.Code, rec.Body.String())
			assert.Equal(t, tt.wantRead, body.read.Load(), "body read")
		})
	}
}

// TestReadyzPingsAtMostOncePerSecond: concurrent /readyz requests share a
// ping, and its result serves for a second.
func TestReadyzPingsAtMostOncePerSecond(t *testing.T) {
	var pings atomic.Int64
	var down atomic.Bool
	var draining atomic.Bool
	ping := func(ctx context.Context) error {
		pings.Add(1)
		time.Sleep(50 * time.Millisecond)
		if down.Load() {
			return context.DeadlineExceeded
		}
		return nil
	}
	srv := httptest.NewServer(newAuthHandler(t, auth.NewChecker(newKeyStore(0).lookup, time.Minute), ping, draining.Load))
	t.Cleanup(srv.Close)
	readyz := func() int {
		resp, err := http.Get(srv.URL + "/readyz")
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	burst := func() map[int]int {
		var mu sync.Mutex
		counts := map[int]int{}
		var wg sync.WaitGroup
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := readyz()
				mu.Lock()
				counts[s]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		return counts
	}

	start := time.Now()
	assert.Equal(t, map[int]int{http.StatusOK: 50}, burst())
	assert.Equal(t, map[int]int{http.StatusOK: 50}, burst())
	// One ping for the 100 requests; on a slow machine one more a second.
	assert.LessOrEqual(t, pings.Load(), 1+int64(time.Since(start)/time.Second), "at most one ping a second")
	down.Store(true)
	time.Sleep(1100 * time.Millisecond)
	before := pings.Load()
	assert.Equal(t, map[int]int{http.StatusServiceUnavailable: 50}, burst(), "a result at most a second old")
	assert.Equal(t, before+1, pings.Load())

	draining.Store(true)
	down.Store(false)
	assert.Equal(t, http.StatusServiceUnavailable, readyz(), "shutting down")
	resp, err := http.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.True(t, resp.Close, "responses close their connection while draining")
}

func mustKey() string {
	k, _, _ := auth.NewKey()
	return k
}
