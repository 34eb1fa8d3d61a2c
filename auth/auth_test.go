package auth

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewKey(t *testing.T) {
	key, prefix, hash := NewKey()
	assert.Regexp(t, `^jobsd_[A-Za-z0-9_-]{32}$`, key, "192 random bits, URL-safe")
	assert.Equal(t, key[:14], prefix)
	assert.Equal(t, Hash(key), hash)
	assert.True(t, WellFormed(key))
	other, _, _ := NewKey()
	assert.NotEqual(t, key, other)
}

func TestWellFormed(t *testing.T) {
	key, _, _ := NewKey()
	tests := []struct {
		name string
		give string
		want bool
	}{
		{"a new key", key, true},
		{"every kind of character of the alphabet", "jobsd_" + strings.Repeat("AZaz09-_", 4), true},
		{"empty", "", false},
		{"the prefix alone", "jobsd_", false},
		{"short", "jobsd_unknown", false},
		{"one character short", key[:len(key)-1], false},
		{"one character long", key + "A", false},
		{"another prefix", "jobsx_" + key[6:], false},
		{"no prefix", strings.Repeat("A", len(key)), false},
		{"standard base64", "jobsd_" + strings.Repeat("+", 32), false},
		{"padding", key[:len(key)-1] + "=", false},
		{"a space", key[:10] + " " + key[11:], false},
		{"non-ASCII", key[:len(key)-2] + "é", false},
		{"huge", "jobsd_" + strings.Repeat("A", 1<<16), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, WellFormed(tt.give))
		})
	}
}

// countingLookup is a Lookup over one active key that counts its calls.
type countingLookup struct {
	hash  []byte
	calls atomic.Int64
	// gate, when set, holds every lookup until it is closed.
	gate chan struct{}
}

func (l *countingLookup) lookup(ctx context.Context, h []byte) (*Key, error) {
	l.calls.Add(1)
	if l.gate != nil {
		select {
		case <-l.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if string(h) == string(l.hash) {
		return NewKeyInfo(7, "alice", h, 0, 0), nil
	}
	return nil, nil
}

func TestCheckerCachesAndLearnsOfRevocation(t *testing.T) {
	key, _, hash := NewKey()
	active := true
	lookups := 0
	c := NewChecker(func(_ context.Context, h []byte) (*Key, error) {
		lookups++
		if active && string(h) == string(hash) {
			return NewKeyInfo(7, "alice", h, 0, 0), nil
		}
		return nil, nil
	}, 5*time.Second)
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	ctx := context.Background()

	k, err := c.Check(ctx, key, "192.0.2.1")
	require.NoError(t, err)
	require.NotNil(t, k)
	assert.Equal(t, "alice", k.Name)
	_, _ = c.Check(ctx, key, "192.0.2.1")
	assert.Equal(t, 1, lookups, "the second check is served from the cache")

	active = false
	now = now.Add(6 * time.Second)
	k, err = c.Check(ctx, key, "192.0.2.1")
	require.NoError(t, err)
	assert.Nil(t, k, "a revoked key stops working once its cache entry expires")

	other, _, _ := NewKey()
	k, err = c.Check(ctx, other, "192.0.2.1")
	require.NoError(t, err)
	assert.Nil(t, k)
	k, err = c.Check(ctx, "", "192.0.2.1")
	require.NoError(t, err)
	assert.Nil(t, k)
}

func TestCheckerPassesLookupErrors(t *testing.T) {
	boom := errors.New("database down")
	c := NewChecker(func(context.Context, []byte) (*Key, error) { return nil, boom }, time.Second)
	key, _, _ := NewKey()
	_, err := c.Check(context.Background(), key, "192.0.2.1")
	assert.ErrorIs(t, err, boom, "an error is not cached as 'unknown key'")
}

// TestMalformedKeysCostNoLookup: a key not shaped like NewKey's is refused
// before the database is asked.
func TestMalformedKeysCostNoLookup(t *testing.T) {
	key, _, hash := NewKey()
	l := &countingLookup{hash: hash}
	c := NewChecker(l.lookup, time.Minute)
	for _, give := range []string{"", "x", "jobsd_unknown", "jobsd_not-a-real-key", key + "x", key[:len(key)-1] + "+",
		"Bearer " + key, strings.Repeat("jobsd_", 1000)} {
		k, err := c.Check(context.Background(), give, "192.0.2.1")
		assert.NoError(t, err)
		assert.Nil(t, k, "%.40q", give)
	}
	assert.Zero(t, l.calls.Load(), "no lookup for a malformed key")
	k, err := c.Check(context.Background(), key, "192.0.2.1")
	require.NoError(t, err)
	assert.NotNil(t, k)
	assert.EqualValues(t, 1, l.calls.Load())
}

// TestOneLookupInFlightPerKey: concurrent checks of one key share one
// lookup, whether the key is unknown or valid.
func TestOneLookupInFlightPerKey(t *testing.T) {
	valid, _, hash := NewKey()
	unknown, _, _ := NewKey()
	for _, tt := range []struct {
		name    string
		key     string
		wantKey bool
	}{{"unknown key", unknown, false}, {"valid key", valid, true}} {
		t.Run(tt.name, func(t *testing.T) {
			l := &countingLookup{hash: hash, gate: make(chan struct{})}
			c := NewChecker(l.lookup, time.Minute)
			const n = 50
			var wg sync.WaitGroup
			var started sync.WaitGroup
			found := atomic.Int64{}
			started.Add(n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					started.Done()
					k, err := c.Check(context.Background(), tt.key, "192.0.2.1")
					assert.NoError(t, err)
					if k != nil {
						found.Add(1)
					}
				}()
			}
			started.Wait()
			time.Sleep(50 * time.Millisecond) // the checks reach the lookup and wait on it
			close(l.gate)
			wg.Wait()
			assert.EqualValues(t, 1, l.calls.Load(), "one lookup for %d concurrent checks", n)
			if tt.wantKey {
				assert.EqualValues(t, n, found.Load())
			} else {
				assert.Zero(t, found.Load())
			}
		})
	}
}

// TestLookupOutlivesItsFirstCaller: the shared lookup is not cancelled with
// the request that started it; that request alone gives up.
func TestLookupOutlivesItsFirstCaller(t *testing.T) {
	key, _, hash := NewKey()
	l := &countingLookup{hash: hash, gate: make(chan struct{})}
	c := NewChecker(l.lookup, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := c.Check(ctx, key, "192.0.2.1")
		first <- err
	}()
	require.Eventually(t, func() bool { return l.calls.Load() == 1 }, time.Second, time.Millisecond)
	second := make(chan *Key, 1)
	go func() {
		k, _ := c.Check(context.Background(), key, "192.0.2.2")
		second <- k
	}()
	cancel()
	assert.ErrorIs(t, <-first, context.Canceled)
	close(l.gate)
	assert.NotNil(t, <-second, "the second caller gets the shared answer")
	assert.EqualValues(t, 1, l.calls.Load())
}

func TestFailureLimitPerClient(t *testing.T) {
	valid, _, hash := NewKey()
	l := &countingLookup{hash: hash}
	c := NewChecker(l.lookup, 5*time.Second, WithFailureLimit(FailureLimit{Rate: 1, Burst: 3}))
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	ctx := context.Background()
	const attacker, bystander = "192.0.2.1", "192.0.2.2"

	k, err := c.Check(ctx, valid, attacker)
	require.NoError(t, err)
	require.NotNil(t, k, "the attacker's address also has a client with a valid key")

	steps := []struct {
		name        string
		key         string
		client      string
		wantKey     bool
		wantLimited bool
		wantLookups int64
	}{
		{"first failure", "jobsd_x", attacker, false, false, 1},
		{"second failure", mustKey(), attacker, false, false, 2},
		{"third failure", mustKey(), attacker, false, false, 3},
		{"over the limit, malformed", "x", attacker, false, true, 3},
		{"over the limit, unknown: no lookup", mustKey(), attacker, false, true, 3},
		{"another address is not limited", mustKey(), bystander, false, false, 4},
		{"a valid key from the limited address", valid, attacker, true, false, 4},
	}
	for _, s := range steps {
		k, err := c.Check(ctx, s.key, s.client)
		var limited *TooManyFailuresError
		if s.wantLimited {
			require.ErrorAs(t, err, &limited, s.name)
			assert.Equal(t, time.Second, limited.RetryAfter, s.name)
		} else {
			assert.NoError(t, err, s.name)
		}
		assert.Equal(t, s.wantKey, k != nil, s.name)
		assert.Equal(t, s.wantLookups, l.calls.Load(), s.name)
	}

	now = now.Add(6 * time.Second) // the valid key's entry expires; the bucket refills
	k, err = c.Check(ctx, valid, attacker)
	require.NoError(t, err)
	assert.NotNil(t, k, "a key known before is looked up again whatever its address's failures")
	_, err = c.Check(ctx, mustKey(), attacker)
	assert.NoError(t, err, "the bucket refilled")
}

func TestKeyCacheIsBounded(t *testing.T) {
	valid, _, hash := NewKey()
	l := &countingLookup{hash: hash}
	c := NewChecker(l.lookup, time.Minute, WithCacheSize(4))
	ctx := context.Background()
	_, _ = c.Check(ctx, valid, "192.0.2.1")
	unknown := make([]string, 10)
	for i := range unknown {
		unknown[i] = mustKey()
		_, _ = c.Check(ctx, unknown[i], "192.0.2.1")
	}
	assert.Equal(t, 4, c.unknown.Len(), "the unknown keys' cache holds at most its size")
	calls := l.calls.Load()
	k, _ := c.Check(ctx, valid, "192.0.2.1")
	assert.NotNil(t, k)
	assert.Equal(t, calls, l.calls.Load(), "a flood of unknown keys does not evict the keys in use")
	_, _ = c.Check(ctx, unknown[0], "192.0.2.1")
	assert.Equal(t, calls+1, l.calls.Load(), "the least recently used unknown key was evicted")
	_, _ = c.Check(ctx, unknown[9], "192.0.2.1")
	assert.Equal(t, calls+1, l.calls.Load(), "the most recent one is cached")
}

func mustKey() string {
	k, _, _ := NewKey()
	return k
}

// TestKeyring: with a keyring, a key in it is valid from any client, a
// limited one too, without a lookup; a key not in it is looked up while
// its client is within its failure limit (it may be newer than the
// keyring); a key that left the keyring is refused at once.
func TestKeyring(t *testing.T) {
	var lookups atomic.Int64
	ring := &Keyring{}
	good, _, goodHash := NewKey()
	fresh, _, freshHash := NewKey()
	unknown, _, _ := NewKey()
	ring.Replace([]*Key{NewKeyInfo(1, "good", goodHash, 0, 0)}, time.Now())
	stored := map[string]*Key{string(goodHash): NewKeyInfo(1, "good", goodHash, 0, 0)}
	var mu sync.Mutex
	c := NewChecker(func(_ context.Context, h []byte) (*Key, error) {
		lookups.Add(1)
		mu.Lock()
		defer mu.Unlock()
		return stored[string(h)], nil
	}, time.Minute, WithKeyring(ring), WithFailureLimit(FailureLimit{Rate: 0.001, Burst: 2}))
	ctx := context.Background()

	k, err := c.Check(ctx, good, "a")
	require.NoError(t, err)
	require.NotNil(t, k)
	assert.Equal(t, "good", k.Name)
	assert.Zero(t, lookups.Load(), "found in the keyring")
	for range 2 {
		k, err = c.Check(ctx, unknown, "a")
		assert.NoError(t, err)
		assert.Nil(t, k)
	}
	assert.EqualValues(t, 1, lookups.Load(), "an unknown key is looked up once, then remembered")
	_, err = c.Check(ctx, fresh, "a")
	var tooMany *TooManyFailuresError
	require.ErrorAs(t, err, &tooMany, "a's failures are limited: no lookup")
	assert.EqualValues(t, 1, lookups.Load())

	// A key created since the keyring was read is looked up from b.
	mu.Lock()
	stored[string(freshHash)] = NewKeyInfo(2, "fresh", freshHash, 0, 0)
	mu.Unlock()
	k, err = c.Check(ctx, fresh, "b")
	require.NoError(t, err)
	require.NotNil(t, k)
	// Once the keyring has it, it is valid from the limited client too.
	ring.Replace([]*Key{NewKeyInfo(1, "good", goodHash, 0, 0), NewKeyInfo(2, "fresh", freshHash, 0, 0)}, time.Now())
	k, err = c.Check(ctx, fresh, "a")
	require.NoError(t, err, "a key is never refused for its client's failures")
	assert.Equal(t, "fresh", k.Name)
	k, err = c.Check(ctx, good, "a")
	require.NoError(t, err)
	assert.NotNil(t, k)

	// Revoked: out of the keyring and the store, refused at once although
	// the cache knew it.
	ring.Replace([]*Key{NewKeyInfo(2, "fresh", freshHash, 0, 0)}, time.Now())
	mu.Lock()
	delete(stored, string(goodHash))
	mu.Unlock()
	k, err = c.Check(ctx, good, "b")
	require.NoError(t, err)
	assert.Nil(t, k, "revoked at once")
	assert.Equal(t, 1, ring.Len())
}
