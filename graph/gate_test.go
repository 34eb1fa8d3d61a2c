package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

// slowStore counts the slow searches running at once: those of the
// company "slow" and keyword searches, which take a while.
type slowStore struct {
	searchtest.Store
	running, most atomic.Int64
}

func newSlowStore() *slowStore {
	s := &slowStore{}
	s.FindJobCardsFunc = func(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
		if q.Company == "slow" || q.Q != "" {
			n := s.running.Add(1)
			defer s.running.Add(-1)
			for {
				m := s.most.Load()
				if n <= m || s.most.CompareAndSwap(m, n) {
					break
				}
			}
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return nil, 0, nil, ctx.Err()
			}
		}
		return []domain.JobCard{}, 0, nil, nil
	}
	return s
}

type keyCtx struct{}

// keyedHandler is the GraphQL endpoint over store, each request's API
// key read from a test header.
func keyedHandler(t testing.TB, store search.Store, opts graph.HandlerOptions) http.Handler {
	norm, err := normalize.New()
	require.NoError(t, err)
	opts.ClientKey = func(ctx context.Context) string { s, _ := ctx.Value(keyCtx{}).(string); return s }
	h := graph.NewHandler(graph.NewResolver(search.New(norm, store), slog.New(slog.NewTextHandler(io.Discard, nil))), opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyCtx{}, r.Header.Get("X-Test-Key"))))
	})
}

// TestOneRequestHoldsFewConnections: the ten root fields of one request
// reach the store two at a time.
func TestOneRequestHoldsFewConnections(t *testing.T) {
	store := newSlowStore()
	h := keyedHandler(t, store, graph.HandlerOptions{})
	var q strings.Builder
	q.WriteString("{ ")
	for i := range 10 {
		fmt.Fprintf(&q, `j%d: jobs(filter: {company: "slow"}) { nodes { id } } `, i)
	}
	q.WriteString("}")
	status, body := request{query: q.String()}.send(t, h)
	require.Equal(t, 200, status)
	require.NotContains(t, body, `"errors"`)
	assert.Equal(t, int64(2), store.most.Load(), "store calls of one request at once")
}

// TestExpensiveWorkIsBoundedPerKey: one key's expensive operations run one
// at a time, while another key's cheap ones are not held up by them.
func TestExpensiveWorkIsBoundedPerKey(t *testing.T) {
	store := newSlowStore()
	h := keyedHandler(t, store, graph.HandlerOptions{DBPerRequest: 10})
	expensive := `{ a: jobs(filter: {q: "one"}) { nodes { id } } b: jobs(filter: {q: "two"}) { nodes { id } } }`
	var wg sync.WaitGroup
	var hostileDone atomic.Int64
	for range 4 {
		wg.Go(func() {
			_, body := sendKeyed(t, h, "hostile", expensive)
			assert.NotContains(t, body, `"errors"`)
			hostileDone.Add(1)
		})
	}
	time.Sleep(30 * time.Millisecond)
	_, body := sendKeyed(t, h, "friendly", `{ jobs { nodes { id } } }`)
	assert.NotContains(t, body, `"errors"`)
	assert.Less(t, hostileDone.Load(), int64(4), "the cheap request of another key waited for the expensive ones")
	wg.Wait()
	assert.Equal(t, int64(2), store.most.Load(), "slow searches at once: those of one expensive operation")
}

func sendKeyed(t *testing.T, h http.Handler, key, query string) (int, string) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query})
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Test-Key", key)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.String()
}
