package store_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/store"
)

// TestWatchAPIKeys: the watcher gives the active keys at once, then again
// after a key is created, revoked or replaced, each reading with the
// instant it began.
func TestWatchAPIKeys(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, e.st.CreateAPIKey(e.ctx, &store.APIKey{Name: "one", Prefix: "p1", Hash: make([]byte, 32)}, false))
	var mu sync.Mutex
	var names []string
	var at time.Time
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	before := time.Now()
	require.NoError(t, e.st.WatchAPIKeys(ctx, 20*time.Millisecond, func(keys []store.APIKey, read time.Time) {
		mu.Lock()
		defer mu.Unlock()
		names, at = nil, read
		for _, k := range keys {
			names = append(names, k.Name+"/"+k.Prefix)
		}
	}, slog.New(slog.DiscardHandler)))
	current := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return names
	}
	assert.Equal(t, []string{"one/p1"}, current(), "read before it returns")
	assert.False(t, at.Before(before))

	hash := make([]byte, 32)
	hash[0] = 1
	require.NoError(t, e.st.CreateAPIKey(e.ctx, &store.APIKey{Name: "two", Prefix: "p2", Hash: hash}, false))
	require.Eventually(t, func() bool { return len(current()) == 2 }, 5*time.Second, 5*time.Millisecond, "a new key")
	n, err := e.st.RevokeAPIKey(e.ctx, "one")
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Eventually(t, func() bool { c := current(); return len(c) == 1 && c[0] == "two/p2" }, 5*time.Second, 5*time.Millisecond, "revoked")
	hash2 := make([]byte, 32)
	hash2[0] = 2
	require.NoError(t, e.st.CreateAPIKey(e.ctx, &store.APIKey{Name: "two", Prefix: "p3", Hash: hash2}, true))
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(names) == 1 && names[0] == "two/p3" && at.After(before)
	}, 5*time.Second, 5*time.Millisecond, "replaced")
}
