package rest_test

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
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

// stalledWriter is a stream's response writer whose client reads its
// first accept writes and nothing after: each later write waits, as a
// full TCP buffer does, until the write deadline the handler set passes
// (forever when it set none, until release).
type stalledWriter struct {
	header  http.Header
	accept  int
	mu      sync.Mutex
	limit   time.Time
	release chan struct{}
	written []string
}

func (s *stalledWriter) Header() http.Header { return s.header }
func (s *stalledWriter) WriteHeader(int)     {}
func (s *stalledWriter) Flush()              {}

func (s *stalledWriter) SetWriteDeadline(t time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = t
	return nil
}

func (s *stalledWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	s.written = append(s.written, string(b))
	limit, accepted := s.limit, len(s.written) <= s.accept
	s.mu.Unlock()
	if accepted {
		return len(b), nil
	}
	var expired <-chan time.Time
	if !limit.IsZero() {
		expired = time.After(time.Until(limit))
	}
	select {
	case <-expired:
		return 0, os.ErrDeadlineExceeded
	case <-s.release:
		return 0, errors.New("released")
	}
}

// TestStalledStreamIsLetGo: a stream whose client stops reading ends once
// a write has waited its limit (the subscription is given back), where it
// used to hold its subscription and goroutines for as long as the
// connection stayed open.
func TestStalledStreamIsLetGo(t *testing.T) {
	env := apitest.NewWithOptions(t, `{"id":"sse-0","title":"Registered Nurse","company":"Stall Co"}`, apitest.Options{Live: true, LivePerKey: 1})
	require.Eventually(t, func() bool { return env.Hub.Position() > 0 }, 10*time.Second, 10*time.Millisecond)
	const limit = 200 * time.Millisecond
	h := env.REST(rest.WithStreamHeartbeat(10*time.Millisecond), rest.WithStreamWriteLimit(limit))
	w := &stalledWriter{header: http.Header{}, accept: 2, release: make(chan struct{})}
	defer close(w.release)
	ctx := search.WithSubscriber(context.Background(), "key-1", "sse")
	req := httptest.NewRequest(http.MethodGet, "/api/v1/jobs/stream?skills=golang", nil).WithContext(ctx)
	done := make(chan time.Duration, 1)
	start := time.Now()
	go func() {
		h.ServeHTTP(w, req)
		done <- time.Since(start)
	}()
	select {
	case took := <-done:
		assert.GreaterOrEqual(t, took, limit, "the stalled write waited its limit")
	case <-time.After(10 * time.Second):
		t.Fatal("a stream whose client reads nothing was not let go")
	}
	w.mu.Lock()
	assert.Equal(t, ": jobsd job changes\n\n", w.written[0])
	assert.Equal(t, ": keep-alive\n\n", w.written[1])
	w.mu.Unlock()

	// Its subscription was given back: the key, allowed one, opens another.
	again := &stalledWriter{header: http.Header{}, accept: 1 << 20, release: make(chan struct{})}
	defer close(again.release)
	ctx, cancel := context.WithCancel(ctx)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		h.ServeHTTP(again, httptest.NewRequest(http.MethodGet, "/api/v1/jobs/stream?skills=python", nil).WithContext(ctx))
	}()
	require.Eventually(t, func() bool {
		again.mu.Lock()
		defer again.mu.Unlock()
		return len(again.written) > 0
	}, 10*time.Second, 5*time.Millisecond)
	cancel()
	<-ended
	assert.Equal(t, ": jobsd job changes\n\n", again.written[0], "not refused as the key's second stream")
}
