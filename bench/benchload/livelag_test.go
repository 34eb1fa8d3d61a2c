package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestTotalWatch(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

	w := totalWatch{Before: 0, After: 40}
	for i, total := range []int{0, 0, 40, 40} {
		w.observe(total, at(20*i))
	}
	assert.Empty(t, w.Wrong)
	assert.Equal(t, 4, w.Polls)
	lag, ok := w.lag(at(10))
	assert.True(t, ok)
	assert.Equal(t, 30*time.Millisecond, lag, "from the commit to the first poll that saw it")
	lag, ok = w.lag(at(100))
	assert.True(t, ok)
	assert.Zero(t, lag, "seen before the import's command exited")

	w = totalWatch{Before: 0, After: 40}
	w.observe(0, at(0))
	w.observe(17, at(20))
	w.observe(40, at(40))
	w.observe(0, at(60))
	w.observe(40, at(80))
	assert.Len(t, w.Wrong, 2)
	assert.Contains(t, w.Wrong[0], "total 17, neither 0 before nor 40 after")
	assert.Contains(t, w.Wrong[1], "backwards")

	w = totalWatch{Before: 0, After: 40}
	w.observe(0, at(0))
	_, ok = w.lag(at(0))
	assert.False(t, ok, "never seen")
}

func TestLagStats(t *testing.T) {
	var lags []time.Duration
	for i := 20; i >= 1; i-- {
		lags = append(lags, time.Duration(i)*time.Millisecond)
	}
	s := newLagStats(lags)
	assert.Equal(t, lagStats{N: 20, P50: 10 * time.Millisecond, P95: 19 * time.Millisecond, Max: 20 * time.Millisecond}, s)
	assert.Equal(t, 20*time.Millisecond, lags[0], "the caller's order is kept")

	assert.Equal(t, lagStats{}, newLagStats(nil))
	one := newLagStats([]time.Duration{time.Second})
	assert.Equal(t, lagStats{N: 1, P50: time.Second, P95: time.Second, Max: time.Second}, one)
}
