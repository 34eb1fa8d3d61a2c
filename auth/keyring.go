// Keyring: every active key in memory, so that an unknown key costs no lookup.

package auth

import (
	"crypto/sha256"
	"sync/atomic"
	"time"
)

// Keyring holds every active key by its hash, replaced whole whenever the
// stored keys change (the store watches them). A Checker with one
// (WithKeyring) finds a key in it without a lookup, whatever its client's
// failures: only a key not in it (unknown, or created since the keyring
// was read) is looked up, and refused to a client over its failure limit.
type Keyring struct {
	ring atomic.Pointer[ring]
}

// ring is one reading of the keys: the keys by hash, and when they were
// read.
type ring struct {
	keys map[[sha256.Size]byte]*Key
	at   time.Time
}

// Replace makes keys, as read at at, the active keys.
func (r *Keyring) Replace(keys []*Key, at time.Time) {
	m := make(map[[sha256.Size]byte]*Key, len(keys))
	for _, k := range keys {
		if len(k.hash) == sha256.Size {
			m[[sha256.Size]byte(k.hash)] = k
		}
	}
	r.ring.Store(&ring{keys: m, at: at})
}

// readAt returns when the keys were read (zero before the first reading).
func (r *Keyring) readAt() time.Time {
	if g := r.ring.Load(); g != nil {
		return g.at
	}
	return time.Time{}
}

// Len returns how many keys are active.
func (r *Keyring) Len() int {
	if g := r.ring.Load(); g != nil {
		return len(g.keys)
	}
	return 0
}

// get returns the active key with hash h, or nil.
func (r *Keyring) get(h [sha256.Size]byte) *Key {
	if g := r.ring.Load(); g != nil {
		return g.keys[h]
	}
	return nil
}

// WithKeyring makes the Checker find keys in the keyring r first.
func WithKeyring(r *Keyring) Option {
	return func(c *Checker) { c.ring = r }
}
