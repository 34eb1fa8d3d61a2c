// Package growth checks, in tests, that work grows with its input no
// faster than linearly: it measures the processor time the work takes on
// a small and a large input, side by side, and compares the two. The
// thread's processor time (on Linux) does not count the time the machine
// gives to other work, and the two sizes are measured alike, where a
// deadline against the wall clock fails on a loaded machine. A quadratic
// reader of a text 16 times longer takes 256 times longer, far past the
// slack allowed.
package growth

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// started is when the package was loaded: wallTime's origin.
var started = time.Now()

// wallTime is the time since the package was loaded.
func wallTime() time.Duration { return time.Since(started) }

// Slack is how many times slower than linear the large input may be: the
// noise of measuring, and the caches a larger input misses (a 256 KB input
// misses what a 16 KB one does not). For 16 times the input, linear work
// takes about 16 times as long, quadratic 256 times; the limit is 96.
const Slack = 6

// tries is how many times the sizes are measured before failing: a
// machine busy with other work can disturb one measure (its caches), not
// three in a row.
const tries = 3

// rounds is how many times each size is measured, alternating; the
// fastest of each counts.
const rounds = 3

// AtMostLinear fails t when the work prepare(large) returns takes more
// than Slack times large/small the processor time of the work
// prepare(small) returns, in each of tries measures. prepare builds the
// input of a size and returns the work on it, so that only the work is
// measured.
func AtMostLinear(t testing.TB, what string, small, large int, prepare func(n int) func()) {
	t.Helper()
	if small <= 0 || large <= small {
		t.Fatalf("growth: sizes %d and %d: want 0 < small < large", small, large)
	}
	smallWork, largeWork := prepare(small), prepare(large)
	limit := Slack * float64(large) / float64(small)
	var fast [2]time.Duration
	var ratio float64
	for range tries {
		fast = [2]time.Duration{math.MaxInt64, math.MaxInt64}
		for range rounds {
			for i, work := range []func(){smallWork, largeWork} {
				fast[i] = min(fast[i], perRun(work))
			}
		}
		if ratio = float64(fast[1]) / float64(max(fast[0], 1)); ratio <= limit {
			return
		}
	}
	exponent := math.Log(ratio) / math.Log(float64(large)/float64(small))
	t.Errorf("%s: %d took %v, %d took %v: %.0f times as long for %.0f times the input (as n^%.1f; at most %.0f times allowed, in %d tries)",
		what, small, fast[0], large, fast[1], ratio, float64(large)/float64(small), exponent, limit, tries)
}

// perRun is the processor time one run of work takes on this goroutine's
// thread, run often enough to last a millisecond (the counts are coarse
// below).
func perRun(work func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := workTime()
	for n := 1; ; n *= 2 {
		for range n {
			work()
		}
		if took := workTime() - start; took >= time.Millisecond {
			return took / time.Duration(2*n-1)
		}
	}
}
