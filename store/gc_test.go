package store

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTuneGC: after a build the memory limit is the live heap plus the
// headroom and slack, lifted during the next build, and an operator's
// GOGC or GOMEMLIMIT is left alone.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	runtime.GC()

	tuneGC()
	limit := debug.SetMemoryLimit(-1)
	assert.Greater(t, limit, int64(gcHeadroom+memorySlack), "the live heap, its headroom and the slack")
	assert.Less(t, limit, int64(gcHeadroom+memorySlack+1<<30), "a test's live heap is far below 1 GiB")
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	assert.GreaterOrEqual(t, percent, 25)
	assert.LessOrEqual(t, percent, 100)

	liftMemoryLimit()
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "lifted during a build")

	t.Setenv("GOGC", "300")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(300)
	debug.SetMemoryLimit(1 << 30)
	tuneGC()
	liftMemoryLimit()
	assert.Equal(t, int64(1<<30), debug.SetMemoryLimit(-1), "the operator's limit")
	assert.Equal(t, 300, debug.SetGCPercent(300), "the operator's GOGC")
}
