package graph

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestByteLRUKeepsItsBudget: the cache evicts the least recently used
// entries once their weight passes the budget, keeps none heavier than
// the whole budget, and counts a key added twice once.
func TestByteLRUKeepsItsBudget(t *testing.T) {
	ctx := context.Background()
	c := newByteLRU(1000, 100, persistedQueryWeight)
	c.Add(ctx, "a", strings.Repeat("x", 39)) // 40 bytes
	c.Add(ctx, "b", strings.Repeat("x", 39)) // 80
	c.Add(ctx, "b", strings.Repeat("x", 39)) // still 80
	assert.Equal(t, 80, c.bytes)
	_, ok := c.Get(ctx, "a") // a is now the most recent
	assert.True(t, ok)
	c.Add(ctx, "c", strings.Repeat("x", 39)) // 120 > 100: b goes
	assert.Equal(t, 80, c.bytes)
	_, ok = c.Get(ctx, "b")
	assert.False(t, ok, "the least recently used entry is evicted")
	for _, k := range []string{"a", "c"} {
		_, ok = c.Get(ctx, k)
		assert.True(t, ok, k)
	}
	c.Add(ctx, "huge", strings.Repeat("x", 200))
	_, ok = c.Get(ctx, "huge")
	assert.False(t, ok, "an entry over the whole budget is not kept")
	assert.Equal(t, 80, c.bytes)

	// Many small entries: bounded by the entry count too.
	c = newByteLRU(3, 1<<20, persistedQueryWeight)
	for _, k := range []string{"1", "2", "3", "4", "5"} {
		c.Add(ctx, k, "q")
	}
	assert.Equal(t, 3, c.lru.Len())
	assert.Equal(t, 6, c.bytes)
}
