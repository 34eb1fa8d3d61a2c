package rest

import "time"

// SetStreamHeartbeat sets how often a quiet stream writes its comment
// line, for the tests, and returns the interval before.
func SetStreamHeartbeat(d time.Duration) time.Duration {
	before := streamHeartbeat
	streamHeartbeat = d
	return before
}
