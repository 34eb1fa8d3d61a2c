package normalize_test

import (
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
	"github.com/jobsd-dev/jobsd/normalize"
)

func TestGeoNamesGazetteer(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	n, err := normalize.New(normalize.WithRefData(dir))
	require.NoError(t, err)
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("loaded in %s, %.0f MiB of heap", took.Round(time.Millisecond), float64(after.HeapAlloc-before.HeapAlloc)/(1<<20))

	tests := []struct {
		give string
		want normalize.Place
	}{
		{"Cambridge, ON", normalize.Place{City: "Cambridge", State: "Ontario"}},
		{"Boise, ID", normalize.Place{City: "Boise", State: "Idaho"}},
		{"Springfield, MO", normalize.Place{City: "Springfield", State: "Missouri"}},
		{"Krakow, Poland", normalize.Place{City: "Kraków", Country: "Poland"}},
		{"Portland", normalize.Place{City: "Portland"}},
		{"London", normalize.Place{City: "London"}},
		{"Nairobi", normalize.Place{City: "Nairobi"}},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got := n.ParseLocation(tt.give)
			require.Len(t, got.Places, 1)
			assert.Equal(t, tt.want, got.Places[0])
		})
	}
	// Parts a job is stored with: the country and state a city implies.
	for give, want := range map[string][]string{
		"Portland":  {"Oregon", "United States"},
		"London":    {"England", "United Kingdom"},
		"Nairobi":   {"Nairobi County", "Kenya"},
		"Boise, ID": {"Idaho", "United States"},
	} {
		rec, err := n.Job(jobAt(give))
		require.NoError(t, err, give)
		assert.Equal(t, []string{want[0]}, rec.Location.State, give)
		assert.Equal(t, []string{want[1]}, rec.Location.Country, give)
	}
	lyon, err := n.Job(jobAt("Lyon"))
	require.NoError(t, err)
	assert.Equal(t, []string{"France"}, lyon.Location.Country, "GeoNames still files Lyon under its pre-2016 region")
	assert.GreaterOrEqual(t, len(n.Sources()), 2, "the curated vocabularies, GeoNames and the other reference data")
	assert.Contains(t, n.Sources()[1].Attribution, "GeoNames")
}

// BenchmarkNewWithRefData measures what loading every vocabulary with the
// reference data takes (to stay under 2 s and 150 MB): the time of
// normalize.New, and the heap the normalizer keeps after a GC
// (retained-MiB), all it allocates on the way (allocated-MiB), and the
// CPU time of the process per build, garbage collection included
// (cpu-ms/op; the two forced collections of each round count too). It
// does so without the cache (files), with an empty cache directory that
// New writes (cold), and with the cache written (warm).
func BenchmarkNewWithRefData(b *testing.B) {
	dir := refdatatest.Need(b, refdatatest.Cities)
	warm := b.TempDir()
	_, err := normalize.New(normalize.WithRefData(dir), normalize.WithCacheDir(warm))
	require.NoError(b, err)
	cold := b.TempDir()
	for _, bc := range []struct {
		name  string
		cache func(i int) string
	}{
		{"files", func(int) string { return "" }},
		{"cold", func(i int) string { return filepath.Join(cold, strconv.Itoa(i)) }},
		{"warm", func(int) string { return warm }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var retained, allocated float64
			cpu := processCPU()
			for i := 0; b.Loop(); i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				n, err := normalize.New(normalize.WithRefData(dir), normalize.WithCacheDir(bc.cache(i)))
				require.NoError(b, err)
				runtime.GC()
				runtime.ReadMemStats(&after)
				retained = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
				allocated = float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
				runtime.KeepAlive(n)
			}
			b.ReportMetric(float64((processCPU()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(retained, "retained-MiB")
			b.ReportMetric(allocated, "allocated-MiB")
		})
	}
}
