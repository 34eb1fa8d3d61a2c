// Package auth issues API keys and checks them on requests: keys are random,
// shown once, stored only as a SHA-256 hash, and looked up through a short
// cache so that a request costs no database round trip.
//
// A request that fails authentication costs little: a key not shaped like
// one of NewKey's is refused before any lookup, one lookup at a time is made
// for each key, and each client address may fail only so often before its
// lookups are refused too.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/sync/singleflight"
	"golang.org/x/time/rate"
)

// KeyPrefix starts every jobsd API key, so that leaked keys are easy to
// recognize.
const KeyPrefix = "jobsd_"

// keyBytes is the number of random bytes in a key; keyLen is a key's
// length: the prefix, then keyBytes in unpadded base64url.
const (
	keyBytes = 24
	keyLen   = len(KeyPrefix) + (keyBytes*8+5)/6
)

// NewKey returns a new key of 192 random bits, its display prefix and its
// hash.
func NewKey() (key, prefix string, hash []byte) {
	b := make([]byte, keyBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	key = KeyPrefix + base64.RawURLEncoding.EncodeToString(b)
	return key, key[:len(KeyPrefix)+8], Hash(key)
}

// WellFormed reports whether s is shaped like a key of NewKey: KeyPrefix,
// then 32 characters of the base64url alphabet. It is a cheap test that
// needs no lookup: every key ever issued passes it.
func WellFormed(s string) bool {
	if len(s) != keyLen || s[:len(KeyPrefix)] != KeyPrefix {
		return false
	}
	for i := len(KeyPrefix); i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Hash returns the SHA-256 hash under which a key is stored.
func Hash(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// Key is what a request learns of its API key.
type Key struct {
	ID   int64
	Name string
	// Rate and Burst override the server's rate limit for this key when > 0.
	Rate  float64
	Burst int
	hash  []byte
}

// BucketID names the key's rate-limit bucket: unique to the key, wherever
// its database is, and not the key itself.
func (k *Key) BucketID() string {
	return hex.EncodeToString(k.hash[:16])
}

// Lookup finds the active key with a hash; nil, nil when there is none.
type Lookup func(ctx context.Context, hash []byte) (*Key, error)

// NewKeyInfo returns the Key of a stored key.
func NewKeyInfo(id int64, name string, hash []byte, rate float64, burst int) *Key {
	return &Key{ID: id, Name: name, hash: hash, Rate: rate, Burst: burst}
}

// FailureLimit is how often one client address may fail to authenticate:
// a token bucket of Rate failures a second, up to Burst. A zero Rate sets
// no limit.
type FailureLimit struct {
	Rate  float64
	Burst int
}

// TooManyFailuresError is Check's error for a client over its
// FailureLimit; it was refused without a lookup.
type TooManyFailuresError struct {
	// RetryAfter is how long until the client may fail once more.
	RetryAfter time.Duration
	// Limit is the failures a second a client may sustain, and Reset how
	// long until its allowance is whole again (the X-RateLimit-* of the
	// limit that was hit).
	Limit float64
	Reset time.Duration
}

// Error implements the error interface.
func (e *TooManyFailuresError) Error() string {
	return fmt.Sprintf("too many failed authentications from this address; retry in %s", e.RetryAfter.Round(time.Second))
}

// Option tunes a Checker.
type Option func(*Checker)

// WithFailureLimit limits the failed checks of each client address to l.
func WithFailureLimit(l FailureLimit) Option {
	return func(c *Checker) { c.failureLimit = l }
}

// WithCacheSize bounds each of the Checker's caches (known keys, unknown
// keys, client addresses) to n entries.
func WithCacheSize(n int) Option {
	return func(c *Checker) { c.cacheSize = n }
}

// DefaultCacheSize is the size of each of a Checker's caches unless
// WithCacheSize says otherwise.
const DefaultCacheSize = 10000

// Checker checks keys, remembering answers (found or not) for TTL so that
// revocation takes effect within TTL.
//
// Invariants: found and unknown keys are kept in separate LRU caches, so
// that a flood of unknown keys cannot evict the keys in use; a key in the
// known cache (fresh or not) was valid once, and its renewed lookup is never
// refused for its client's failures; at most one lookup per key hash is in
// flight.
type Checker struct {
	ring         *Keyring // when set, the only source of keys
	lookup       Lookup
	ttl          time.Duration
	now          func() time.Time
	cacheSize    int
	failureLimit FailureLimit

	known   *lru.Cache[[sha256.Size]byte, cached]
	unknown *lru.Cache[[sha256.Size]byte, time.Time] // the expiry
	clients *lru.Cache[string, *rate.Limiter]
	flight  singleflight.Group
}

type cached struct {
	key     *Key
	found   time.Time // when the lookup answered
	expires time.Time
}

// lookupTimeout bounds a shared lookup, which runs detached from the
// requests waiting for it (any of them may go away).
const lookupTimeout = 10 * time.Second

// NewChecker returns a Checker over lookup with the cache lifetime ttl.
func NewChecker(lookup Lookup, ttl time.Duration, opts ...Option) *Checker {
	c := &Checker{lookup: lookup, ttl: ttl, now: time.Now, cacheSize: DefaultCacheSize}
	for _, o := range opts {
		o(c)
	}
	c.cacheSize = max(1, c.cacheSize)
	c.known = mustLRU[[sha256.Size]byte, cached](c.cacheSize)
	c.unknown = mustLRU[[sha256.Size]byte, time.Time](c.cacheSize)
	c.clients = mustLRU[string, *rate.Limiter](c.cacheSize)
	return c
}

func mustLRU[K comparable, V any](size int) *lru.Cache[K, V] {
	l, err := lru.New[K, V](size)
	if err != nil {
		panic(err) // only for a size < 1, which NewChecker rules out
	}
	return l
}

// Check returns the active key for the presented key text, or nil when it is
// missing, malformed, unknown or revoked. The stored hash is compared in
// constant time.
//
// client names the request's origin (its address). Each failure counts
// against it; a client over its FailureLimit gets a *TooManyFailuresError
// instead of nil, and a key the Checker does not know from such a client
// is refused without a lookup. With a Keyring, a key in it is valid from
// any client without a lookup; one not in it is looked up as above (it
// may have been created since the keyring was read), and one the cache
// found before the keyring was read, and the keyring lacks, is revoked.
func (c *Checker) Check(ctx context.Context, presented, client string) (*Key, error) {
	if !WellFormed(presented) {
		return nil, c.fail(client)
	}
	h := sha256.Sum256([]byte(presented))
	now := c.now()
	if c.ring != nil {
		if k := c.ring.get(h); k != nil {
			return matching(k, h)
		}
	}
	e, known := c.known.Get(h)
	if known && c.ring != nil && !e.found.After(c.ring.readAt()) {
		// Not in a keyring read after the cache found it: revoked since.
		known = false
	}
	if known && now.Before(e.expires) {
		return matching(e.key, h)
	}
	if !known {
		if exp, ok := c.unknown.Get(h); ok && now.Before(exp) {
			return nil, c.fail(client)
		}
		if err := c.admit(client, now); err != nil {
			return nil, err
		}
	}
	k, err := c.sharedLookup(ctx, h)
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, c.fail(client)
	}
	return matching(k, h)
}

// matching returns k if its stored hash is h.
func matching(k *Key, h [sha256.Size]byte) (*Key, error) {
	if k == nil || subtle.ConstantTimeCompare(k.hash, h[:]) != 1 {
		return nil, nil
	}
	return k, nil
}

// sharedLookup looks h up, one lookup at a time per hash: concurrent
// callers share its answer, which it caches. Each caller waits only as
// long as its own ctx allows.
func (c *Checker) sharedLookup(ctx context.Context, h [sha256.Size]byte) (*Key, error) {
	ch := c.flight.DoChan(string(h[:]), func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
		defer cancel()
		k, err := c.lookup(lctx, h[:])
		if err != nil {
			return nil, fmt.Errorf("look up API key: %w", err)
		}
		now := c.now()
		expires := now.Add(c.ttl)
		if k == nil {
			c.known.Remove(h)
			c.unknown.Add(h, expires)
		} else {
			c.unknown.Remove(h)
			c.known.Add(h, cached{key: k, found: now, expires: expires})
		}
		return k, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*Key), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// admit returns a *TooManyFailuresError when client may not fail even once
// more now, and nil otherwise.
func (c *Checker) admit(client string, now time.Time) error {
	if c.failureLimit.Rate <= 0 {
		return nil
	}
	lim, ok := c.clients.Get(client)
	if !ok {
		return nil
	}
	if tokens := lim.TokensAt(now); tokens < 1 {
		return c.tooMany(tokens)
	}
	return nil
}

// fail counts a failed check against client: nil while the client is
// within its FailureLimit, a *TooManyFailuresError once over it.
func (c *Checker) fail(client string) error {
	if c.failureLimit.Rate <= 0 {
		return nil
	}
	lim, ok := c.clients.Get(client)
	if !ok {
		lim = rate.NewLimiter(rate.Limit(c.failureLimit.Rate), max(1, c.failureLimit.Burst))
		if prev, found, _ := c.clients.PeekOrAdd(client, lim); found {
			lim = prev // another failure of the client's added it meanwhile
		}
	}
	now := c.now()
	if lim.AllowN(now, 1) {
		return nil
	}
	return c.tooMany(lim.TokensAt(now))
}

// tooMany is the error for a client whose failure bucket holds tokens.
func (c *Checker) tooMany(tokens float64) error {
	seconds := func(s float64) time.Duration { return time.Duration(math.Ceil(s * float64(time.Second))) }
	rate := c.failureLimit.Rate
	return &TooManyFailuresError{RetryAfter: seconds((1 - tokens) / rate), Limit: rate,
		Reset: seconds((float64(max(1, c.failureLimit.Burst)) - tokens) / rate)}
}
