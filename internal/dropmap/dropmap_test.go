package dropmap

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStoreDropsWhenFull: Store keeps entries until their cost would pass
// the bound, then drops them all and keeps the new one at its cost.
func TestStoreDropsWhenFull(t *testing.T) {
	var m Map[string, int]
	m.Store("a", 1, 3, 10)
	m.Store("b", 2, 7, 10)
	got, ok := m.Load("a")
	assert.True(t, ok)
	assert.Equal(t, 1, got)
	assert.Equal(t, int64(10), m.Cost(), "at the bound, not past it")

	m.Store("c", 3, 2, 10)
	_, ok = m.Load("a")
	assert.False(t, ok, "dropped together")
	_, ok = m.Load("b")
	assert.False(t, ok, "dropped together")
	got, ok = m.Load("c")
	assert.True(t, ok, "the entry stored is kept")
	assert.Equal(t, 3, got)
	assert.Equal(t, int64(2), m.Cost())
}

// TestLoadOrStoreAndCharge: LoadOrStore charges an entry's cost once, when
// it stores it; Charge counts more, and past the bound drops everything
// and starts from nothing, the entry just stored too.
func TestLoadOrStoreAndCharge(t *testing.T) {
	var m Map[string, *int]
	one, two := new(int), new(int)
	got, loaded := m.LoadOrStore("a", one, 4, 10)
	assert.False(t, loaded)
	assert.Same(t, one, got)
	got, loaded = m.LoadOrStore("a", two, 4, 10)
	assert.True(t, loaded)
	assert.Same(t, one, got, "the value kept, not charged again")
	assert.Equal(t, int64(4), m.Cost())

	m.Charge(6, 10)
	_, ok := m.Load("a")
	assert.True(t, ok)
	m.Charge(1, 10)
	_, ok = m.Load("a")
	assert.False(t, ok, "dropped once past the bound")
	assert.Zero(t, m.Cost())

	got, loaded = m.LoadOrStore("b", two, 11, 10)
	assert.False(t, loaded)
	assert.Same(t, two, got, "returned though dropped at once")
	_, ok = m.Load("b")
	assert.False(t, ok)
	assert.Zero(t, m.Cost())
}
