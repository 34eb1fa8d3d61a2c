package main

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// totalWatch follows the meta.total of a list whose total an import moves
// from Before to After, one observation at a time: when After was first
// seen, and every total that is wrong: neither Before nor After, or Before
// again once After was seen (going backwards).
type totalWatch struct {
	Before, After int
	// Polls counts the observations.
	Polls int
	// Seen is when After was first observed (zero until then).
	Seen time.Time
	// Wrong describes the wrong totals observed.
	Wrong []string
}

// observe records one total observed at t.
func (w *totalWatch) observe(total int, t time.Time) {
	w.Polls++
	switch {
	case total == w.After:
		if w.Seen.IsZero() {
			w.Seen = t
		}
	case total == w.Before && w.Seen.IsZero():
	case total == w.Before:
		w.Wrong = append(w.Wrong, fmt.Sprintf("total %d after %d was seen (backwards)", total, w.After))
	default:
		w.Wrong = append(w.Wrong, fmt.Sprintf("total %d, neither %d before nor %d after", total, w.Before, w.After))
	}
}

// lag is the time from the import's commit (its command's exit) until
// After was first observed: zero when it was seen before the command
// exited, and ok false when it was never seen.
func (w *totalWatch) lag(committed time.Time) (d time.Duration, ok bool) {
	if w.Seen.IsZero() {
		return 0, false
	}
	return max(0, w.Seen.Sub(committed)), true
}

// lagStats summarizes the visibility lags of a run.
type lagStats struct {
	N             int
	P50, P95, Max time.Duration
}

// newLagStats returns the nearest-rank p50 and p95 and the maximum of lags.
func newLagStats(lags []time.Duration) lagStats {
	s := slices.Sorted(slices.Values(lags))
	st := lagStats{N: len(s)}
	if len(s) > 0 {
		st.P50, st.P95, st.Max = rank(s, 0.50), rank(s, 0.95), s[len(s)-1]
	}
	return st
}

// rank is the p-quantile of sorted by nearest rank: the smallest value
// with at least p of the values at or below it.
func rank(sorted []time.Duration, p float64) time.Duration {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}
