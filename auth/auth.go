// Package auth issues API keys and checks them on requests: keys are random,
// shown once, stored only as a SHA-256 hash, and looked up through a short
// cache so that a request costs no database round trip.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"sync"
	"time"
)

// KeyPrefix starts every jobsd API key, so that leaked keys are easy to
// recognize.
const KeyPrefix = "jobsd_"

// NewKey returns a new key of 192 random bits, its display prefix and its
// hash.
func NewKey() (key, prefix string, hash []byte) {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	key = KeyPrefix + base64.RawURLEncoding.EncodeToString(b)
	return key, key[:len(KeyPrefix)+8], Hash(key)
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

// Checker checks keys, remembering answers (found or not) for TTL so that
// revocation takes effect within TTL.
type Checker struct {
	lookup Lookup
	ttl    time.Duration
	now    func() time.Time

	mu    sync.Mutex
	cache map[[sha256.Size]byte]cached
}

type cached struct {
	key     *Key
	expires time.Time
}

// NewChecker returns a Checker over lookup with the cache lifetime ttl.
func NewChecker(lookup Lookup, ttl time.Duration) *Checker {
	return &Checker{lookup: lookup, ttl: ttl, now: time.Now, cache: map[[sha256.Size]byte]cached{}}
}

// maxCached bounds the cache, so that a flood of random keys cannot grow it
// without end.
const maxCached = 10000

// Check returns the active key for the presented key text, or nil when it is
// unknown or revoked. The stored hash is compared in constant time.
func (c *Checker) Check(ctx context.Context, presented string) (*Key, error) {
	if presented == "" {
		return nil, nil
	}
	var h [sha256.Size]byte
	copy(h[:], Hash(presented))
	now := c.now()
	c.mu.Lock()
	e, ok := c.cache[h]
	c.mu.Unlock()
	if !ok || now.After(e.expires) {
		k, err := c.lookup(ctx, h[:])
		if err != nil {
			return nil, err
		}
		e = cached{key: k, expires: now.Add(c.ttl)}
		c.mu.Lock()
		if len(c.cache) >= maxCached {
			clear(c.cache)
		}
		c.cache[h] = e
		c.mu.Unlock()
	}
	if e.key == nil || subtle.ConstantTimeCompare(e.key.hash, h[:]) != 1 {
		return nil, nil
	}
	return e.key, nil
}
