package graph

import "sync/atomic"

// CountFastPath makes the handler built with opts count in n the
// operations its fast path answers.
func CountFastPath(opts *HandlerOptions, n *atomic.Int64) {
	opts.fastPathServed = func() { n.Add(1) }
}
