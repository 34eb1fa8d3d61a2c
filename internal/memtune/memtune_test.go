package memtune

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTuneGC: after a build the memory limit is the live heap plus the
// headroom and slack, raised during the next build by room for a second
// index (its SizeInBytes and a quarter, at most the live heap)
// (lifted during the first), and an operator's GOGC or GOMEMLIMIT is left
// alone.
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

	runtime.GC()
	tuneGC()
	tuned := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(tuned)
	live, _ := heapSizes()
	roomForBuild(live / 2)
	assert.InDelta(t, float64(tuned+int64(live/2+live/8)), float64(debug.SetMemoryLimit(-1)), float64(4<<20),
		"room for a second index during a build: its size and a quarter")
	roomForBuild(live)
	assert.InDelta(t, float64(tuned+int64(live)), float64(debug.SetMemoryLimit(-1)), float64(4<<20),
		"no more room than the live heap it is part of")

	liftMemoryLimit()
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "lifted during the first build")

	// Goroutines' stacks (an open subscription holds two) are memory
	// outside the heap: the limit makes room for them.
	runtime.GC()
	tuneGC()
	before := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(before)
	stop := make(chan struct{})
	var started, ended sync.WaitGroup
	for range 2000 {
		started.Add(1)
		ended.Add(1)
		go func() {
			defer ended.Done()
			deepStack(32, started.Done, stop) // a 32 KiB stack or more each
		}()
	}
	started.Wait()
	runtime.GC()
	tuneGC() // as the indexer does between builds
	assert.Greater(t, debug.SetMemoryLimit(-1), before+2000*16<<10, "the limit counts the goroutines' stacks (32 KiB each)")
	close(stop)
	ended.Wait()

	// So is a live heap that grew since the build (the subscriptions'
	// state is on the heap too). The ended goroutines' stacks go back to
	// the heap over a collection or two: they are let go first, so that
	// their memory leaving the count does not hide the heap's growth.
	for range 3 {
		runtime.GC()
	}
	debug.FreeOSMemory()
	tuneGC()
	before = debug.SetMemoryLimit(-1)
	kept := make([][]byte, 64)
	for i := range kept {
		kept[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	tuneGC()
	assert.Greater(t, debug.SetMemoryLimit(-1), before+48<<20, "the limit follows the live heap (64 MiB more)")
	runtime.KeepAlive(kept)
	liftMemoryLimit()

	t.Setenv("GOGC", "300")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(300)
	debug.SetMemoryLimit(1 << 30)
	tuneGC()
	roomForBuild(1 << 20)
	liftMemoryLimit()
	assert.Equal(t, int64(1<<30), debug.SetMemoryLimit(-1), "the operator's limit")
	assert.Equal(t, 300, debug.SetGCPercent(300), "the operator's GOGC")
}

// deepStack holds n frames of 1 KiB on its goroutine's stack until stop
// is closed, calling ready once they are.
func deepStack(n int, ready func(), stop <-chan struct{}) byte {
	var frame [1 << 10]byte
	frame[n%len(frame)] = byte(n)
	if n == 0 {
		ready()
		<-stop
		return frame[0]
	}
	return deepStack(n-1, ready, stop) + frame[1]
}
