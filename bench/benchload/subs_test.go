package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSubsFilters: the scenario's filters are as many as asked for, and
// no two alike.
func TestSubsFilters(t *testing.T) {
	var skills, cities, roles []string
	for i := range 40 {
		skills = append(skills, fmt.Sprint("Skill ", i))
		cities = append(cities, fmt.Sprint("City ", i))
		roles = append(roles, fmt.Sprint("Role ", i))
	}
	got := subsFilters(skills, cities, []string{"United States", "Germany"}, roles, 3000)
	require.Len(t, got, 3000)
	seen := map[string]bool{}
	for _, f := range got {
		b, err := json.Marshal(f)
		require.NoError(t, err)
		assert.False(t, seen[string(b)], "%s twice", b)
		seen[string(b)] = true
	}
}

// TestSubsSection: the section reports the events' check and the lags,
// and says which targets were missed; it lands after the live section.
func TestSubsSection(t *testing.T) {
	r := &subsResult{Config: subsConfig{N: 10, DBN: 500, Rate: 50, Duration: time.Minute, Commit: "abc"}, Events: 9, Expected: 10, Lost: 1,
		Lags: []time.Duration{time.Millisecond, 3 * time.Second}, Problems: map[string]int{}}
	md := r.markdown()
	assert.Contains(t, md, "| events received / expected | 9 / 10 |")
	assert.Contains(t, md, "delivery lag p99 ≤ 2 s")
	assert.Contains(t, r.failures()[0], "1 events lost")
	doc, err := placeSection(beginMarker(500)+"\nq\n"+endMarker+"\n"+liveBeginMarker(500)+"\nl\n"+liveEndMarker+"\n# end\n", md,
		subsBeginMarker(500, 100), subsEndMarker, [2]string{liveBeginMarker(500), liveEndMarker}, [2]string{beginMarker(500), endMarker})
	require.NoError(t, err)
	assert.Less(t, strings.Index(doc, liveEndMarker), strings.Index(doc, subsBeginMarker(500, 100)))
	assert.Less(t, strings.Index(doc, subsEndMarker), strings.Index(doc, "# end"))
}

// TestSubsSectionOneASocket: the run with one subscription a socket has a
// section of its own, after the section of many a socket, replaced by the
// next such run; its memory is a subscription's with its socket.
func TestSubsSectionOneASocket(t *testing.T) {
	file := filepath.Join(t.TempDir(), "results.md")
	many := (&subsResult{Config: subsConfig{N: 10, DBN: 500, PerSocket: 100}, Problems: map[string]int{}}).markdown()
	require.NoError(t, os.WriteFile(file, []byte("# results\n\n"+many+"\n# end\n"), 0o644))
	one := &subsResult{Config: subsConfig{N: 10, DBN: 500, PerSocket: 1, Commit: "first"}, Problems: map[string]int{}}
	require.NoError(t, rewriteFile(file, func(doc string) (string, error) { return placeSubsSection(doc, 500, 1, one.markdown()) }))
	one.Config.Commit = "second"
	require.NoError(t, rewriteFile(file, func(doc string) (string, error) { return placeSubsSection(doc, 500, 1, one.markdown()) }))
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	doc := string(b)
	assert.Equal(t, 1, strings.Count(doc, subsBeginMarker(500, 1)), "replaced, not added")
	assert.Equal(t, 1, strings.Count(doc, subsBeginMarker(500, 100)))
	assert.Contains(t, doc, "commit second")
	assert.NotContains(t, doc, "commit first")
	assert.Contains(t, doc, "| memory per idle subscription with its socket |")
	assert.Less(t, strings.Index(doc, subsBeginMarker(500, 100)), strings.Index(doc, subsBeginMarker(500, 1)))
	assert.Less(t, strings.Index(doc, subsBeginMarker(500, 1)), strings.Index(doc, "# end"))
}
