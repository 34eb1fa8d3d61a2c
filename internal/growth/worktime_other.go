//go:build !linux

package growth

import "time"

// workTime is the time since the package started, where a thread's
// processor time is not at hand.
func workTime() time.Duration { return wallTime() }
