// Package dropmap is a concurrent map bounded by a cost: once the cost
// charged for its entries passes the bound, every entry is dropped
// together, and it fills again. It suits the caches of answers a newer
// index or dictionary replaces anyway (the counts of suggested values, a
// dictionary's answers by prefix): what a search box asks is a few
// questions again and again, and keeping it needs no eviction order.
//
// The bound is approximate under concurrency: an entry stored while
// another caller drops the map may be dropped with the rest, or kept and
// not counted until the next drop; the bound can be passed by the entries
// stored in that moment, no more.
package dropmap

import (
	"sync"
	"sync/atomic"
)

// Map maps keys to values within a bound given with each cost charged.
// Its zero value is empty and ready to use; it must not be copied after
// first use.
type Map[K comparable, V any] struct {
	m    sync.Map
	cost atomic.Int64
}

// Load returns the value kept under k.
func (m *Map[K, V]) Load(k K) (V, bool) {
	v, ok := m.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}

// Store keeps v under k at the cost given: when the cost kept would pass
// bound with it, every entry is dropped first, and v's cost is all that is
// kept.
func (m *Map[K, V]) Store(k K, v V, cost, bound int64) {
	if m.cost.Add(cost) > bound {
		m.m.Clear()
		m.cost.Store(cost)
	}
	m.m.Store(k, v)
}

// LoadOrStore returns the value kept under k and true, else keeps v under
// it, charges its cost (Charge) and returns v and false. v is returned
// even when that charge dropped it with every other entry.
func (m *Map[K, V]) LoadOrStore(k K, v V, cost, bound int64) (V, bool) {
	actual, loaded := m.m.LoadOrStore(k, v)
	if !loaded {
		m.Charge(cost, bound)
	}
	return actual.(V), loaded
}

// Charge counts more cost for what is kept (a value kept that grew): once
// the cost passes bound, every entry is dropped, and the cost starts again
// from nothing.
func (m *Map[K, V]) Charge(cost, bound int64) {
	if m.cost.Add(cost) > bound {
		m.m.Clear()
		m.cost.Store(0)
	}
}

// Cost returns the cost charged for the entries kept.
func (m *Map[K, V]) Cost() int64 { return m.cost.Load() }
