package store

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// passHook, when set (by tests), runs at the start of every pass of a
// background loop, with the loop's name, inside the pass's recovery.
var passHook atomic.Pointer[func(loop string)]

// guard runs one pass of the background loop named loop and recovers a
// panic in it: the panic is logged with its stack, and guard reports it so
// that the loop backs off before its next pass. A background loop thus
// neither ends the process nor stops silently.
func guard(log *slog.Logger, loop string, pass func()) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("background loop panicked; it goes on after a pause", "loop", loop,
				"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			panicked = true
		}
	}()
	if h := passHook.Load(); h != nil {
		(*h)(loop)
	}
	pass()
	return false
}

// firstPanicBackoff and lastPanicBackoff bound the pause after a pass
// panicked: it doubles with each pass in a row that panics.
var firstPanicBackoff, lastPanicBackoff = time.Second, time.Minute

// panicBackoff is the pause of a loop after a panicked pass.
type panicBackoff struct{ last time.Duration }

// next returns the pause after one more panicked pass in a row.
func (b *panicBackoff) next() time.Duration {
	b.last = min(max(2*b.last, firstPanicBackoff), lastPanicBackoff)
	return b.last
}

// reset starts the doubling anew, after a pass that did not panic.
func (b *panicBackoff) reset() { b.last = 0 }
