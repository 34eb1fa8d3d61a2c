//go:build linux

package growth

import (
	"time"

	"golang.org/x/sys/unix"
)

// workTime is the processor time the calling thread has used, to the
// nanosecond: time the machine gives to other work while the thread waits
// does not count.
func workTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return wallTime()
	}
	return time.Duration(ts.Nano())
}
