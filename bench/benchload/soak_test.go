package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSoakGrace(t *testing.T) {
	s := time.Second
	r := &soakResult{Config: soakConfig{Grace: 10 * s}}
	assert.False(t, r.inGrace(0, 100*s), "no restart yet")
	r.Restart.Start = 50 * s
	assert.True(t, r.inGrace(49*s, 51*s), "the restart under way")
	assert.False(t, r.inGrace(10*s, 20*s), "before it")
	r.Restart.End = 52 * s
	for _, tc := range []struct {
		from, to time.Duration
		want     bool
	}{
		{40 * s, 49 * s, false},
		{40 * s, 50 * s, true},
		{55 * s, 60 * s, true},
		{62 * s, 70 * s, true},
		{63 * s, 70 * s, false},
	} {
		assert.Equal(t, tc.want, r.inGrace(tc.from, tc.to), "%v–%v", tc.from, tc.to)
	}
	w := window{Start: 45 * s, End: 60 * s, phaseResult: phaseResult{Problems: map[string]int{}}}
	assert.True(t, r.toleratedError(w, "status 503: unavailable"))
	assert.False(t, r.toleratedError(w, "status 500: internal"), "only 503s")
	w.Start, w.End = 100*s, 110*s
	assert.False(t, r.toleratedError(w, "status 503: unavailable"), "outside the grace")
}

func TestSoakGrowth(t *testing.T) {
	m := func(at time.Duration, rss, g, fds float64) resources {
		return resources{At: at, RSS: rss, Goroutines: g, OpenFiles: fds}
	}
	r := &soakResult{Config: soakConfig{Growth: 0.10, Window: 30 * time.Second, Warmup: time.Minute}}
	r.Config.Duration = 10 * time.Minute
	r.Restart.Start = 5 * time.Minute
	for at := time.Duration(0); at <= r.Config.Duration; at += 10 * time.Second {
		r.Samples = append(r.Samples, m(at, 100e6, 40, 30))
	}
	assert.Empty(t, r.failures(), "flat")
	r.Samples[len(r.Samples)-1] = m(r.Config.Duration, 200e6, 40, 30)
	assert.Empty(t, r.failures(), "the end is the median of its samples")
	for i := range r.Samples {
		if r.Samples[i].At >= 9*time.Minute {
			r.Samples[i] = m(r.Samples[i].At, 120e6, 44, 33)
		}
	}
	f := r.failures()
	assert.Len(t, f, 1, "RSS grew 20%%; 4 goroutines and 3 files are within the slack: %v", f)
	assert.Contains(t, f[0], "RSS grew 20%")
}

func TestSoakNeedsSamples(t *testing.T) {
	r := &soakResult{Config: soakConfig{Growth: 0.10, Window: 30 * time.Second, Warmup: time.Minute}}
	r.Config.Duration = 10 * time.Minute
	r.Samples = []resources{{At: 9 * time.Minute, RSS: 1, Goroutines: 1, OpenFiles: 1}} // the end only
	f := r.failures()
	if assert.NotEmpty(t, f) {
		assert.Contains(t, f[0], "no resource sample at the start, middle")
	}
	for _, tc := range []struct {
		duration, warmup time.Duration
		ok               bool
	}{{30 * time.Minute, 5 * time.Minute, true}, {10 * time.Minute, 5 * time.Minute, false}, {12 * time.Minute, 5 * time.Minute, true}} {
		err := checkSoakWindows(soakConfig{liveConfig: liveConfig{Duration: tc.duration}, Warmup: tc.warmup, Window: 30 * time.Second})
		assert.Equal(t, tc.ok, err == nil, "%s after %s: %v", tc.duration, tc.warmup, err)
	}
}

func TestSoakCountsEveryBadAnswer(t *testing.T) {
	r := &soakResult{Config: soakConfig{Growth: 0.10, Window: 30 * time.Second, Warmup: time.Minute}}
	r.Config.Duration = 10 * time.Minute
	for at := time.Duration(0); at <= r.Config.Duration; at += 10 * time.Second {
		r.Samples = append(r.Samples, resources{At: at, RSS: 100e6, Goroutines: 40, OpenFiles: 30})
	}
	r.Hostile.byStatus = map[string]int{}
	for i := range 60 {
		r.Hostile.add("wrong key", 500, fmt.Sprintf("wrong key %d: status 500", i))
	}
	assert.Len(t, r.Hostile.Bad, 50, "the first 50 described")
	assert.Contains(t, r.failures(), "60 wrong answers to the hostile traffic")
}
