package places

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

func TestDistanceKm(t *testing.T) {
	for _, c := range []struct {
		name                   string
		lat1, lng1, lat2, lng2 float64
		want, tolerance        float64
	}{
		{"same point", 30.27, -97.74, 30.27, -97.74, 0, 0},
		{"a degree of latitude", 10, 20, 11, 20, kmPerDegree, 1e-9},
		{"across the antimeridian", 0, 179.5, 0, -179.5, kmPerDegree, 1e-9},
		{"pole to pole", -89.9999, 0, 89.9999, 0, math.Pi * EarthRadiusKm, 0.1},
		{"London to Paris", 51.5074, -0.1278, 48.8566, 2.3522, 343.6, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.InDelta(t, c.want, DistanceKm(c.lat1, c.lng1, c.lat2, c.lng2), c.tolerance)
		})
	}
}

// TestNearAntimeridian: points on both sides of 180° are near each other.
func TestNearAntimeridian(t *testing.T) {
	g := builtin(t).Gazetteer
	g.points()
	g.nearPoints = []Point{{Lat: -17.0, Lng: 179.9, Key: domain.NearKey(-17, 179.9)}, {Lat: -17.0, Lng: -179.9, Key: domain.NearKey(-17, -179.9)}}
	var got []string
	g.Within(-17, 180, 20, func(p *Point, d float64) { got = append(got, p.Key) })
	assert.ElementsMatch(t, []string{"near:-17.0000,179.9000", "near:-17.0000,-179.9000"}, got)
}

// TestBuiltInCityPoints checks the coordinates written in cities.json
// against the reference data's (GeoNames), when it is present: each
// within 30 km of the same city's.
func TestBuiltInCityPoints(t *testing.T) {
	withRef := geoRef(t)
	builtIn := builtin(t)
	var cities []*City
	for _, cs := range builtIn.curated {
		for _, c := range cs {
			if !slices.Contains(cities, c) {
				cities = append(cities, c)
			}
		}
	}
	require.NotEmpty(t, cities)
	far := 0
	for _, c := range cities {
		ref, ok := withRef.FindCity(c.Name, c.State, c.Country)
		require.True(t, ok, c.Name)
		if d := DistanceKm(c.Lat, c.Lng, ref.Lat, ref.Lng); d > 30 {
			far++
			t.Errorf("%s: cities.json's point is %.0f km from the reference data's", CityText(c), d)
		}
	}
	assert.Zero(t, far)
}

// TestWithinAsAScan: the points within a radius are those a scan of every
// point finds, at random points and radii (the poles and the
// antimeridian among them).
func TestWithinAsAScan(t *testing.T) {
	g := builtin(t).Gazetteer
	if refdatatest.Find(refdatatest.Cities) != "" {
		g = geoRef(t).Gazetteer
	}
	pts := g.points()
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 400 {
		lat, lng := r.Float64()*179.8-89.9, r.Float64()*360-180
		switch i % 8 {
		case 0:
			lat = 89.9 * math.Copysign(1, lat)
		case 1:
			lng = 179.99 * math.Copysign(1, lng)
		case 2, 3, 4:
			p := pts[r.IntN(len(pts))]
			lat, lng = p.Lat, p.Lng
		}
		km := []float64{0.5, 10, 40, 100, 500}[r.IntN(5)] * r.Float64()
		var got, want []string
		g.Within(lat, lng, km, func(p *Point, d float64) { got = append(got, p.Key) })
		for _, p := range pts {
			if DistanceKm(lat, lng, p.Lat, p.Lng) <= km {
				want = append(want, p.Key)
			}
		}
		require.ElementsMatch(t, want, got, "%.4f,%.4f within %.3f km", lat, lng, km)
	}
}
