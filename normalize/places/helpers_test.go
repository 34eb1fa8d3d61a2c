package places

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

// front is a gazetteer read as the Normalizer (package normalize) reads
// places, by its methods' names, so that the tests read as the front's.
type front struct{ *Gazetteer }

func (f front) ParseLocation(s string) ParsedLocation { return f.Parse(s) }
func (f front) State(s string) string                 { return f.StateName(s) }
func (f front) City(s string) string                  { return f.CityName(s) }
func (f front) Country(s string) string               { return f.CountryName(s) }

// builtin returns the gazetteer of normalize's embedded vocabularies.
func builtin(t testing.TB) front {
	t.Helper()
	g, err := Load(os.DirFS("../vocab"))
	require.NoError(t, err)
	return front{g}
}

var (
	geoRefOnce sync.Once
	geoRefG    front
	geoRefErr  error
)

// geoRef returns the gazetteer with GeoNames' cities, loaded once; the
// test is skipped without the reference data.
func geoRef(t testing.TB) front {
	t.Helper()
	dir := refdatatest.Need(t, refdatatest.Cities)
	geoRefOnce.Do(func() {
		g, err := Load(os.DirFS("../vocab"))
		if err == nil {
			err = g.LoadGeoNames(filepath.Join(dir, "locations"))
		}
		geoRefG, geoRefErr = front{g}, err
	})
	require.NoError(t, geoRefErr)
	return geoRefG
}

// placesOf reads "City|State|Country; ..." as places.
func placesOf(s string) []Place {
	var out []Place
	for p := range strings.SplitSeq(s, ";") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		parts := strings.Split(p, "|")
		for len(parts) < 3 {
			parts = append(parts, "")
		}
		out = append(out, Place{City: parts[0], State: parts[1], Country: parts[2]})
	}
	return out
}
