// Points: the cities as points on the sphere, the points within a distance, and the cities of a posting.

package places

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
)

// EarthRadiusKm is the Earth's mean radius (IUGG), the sphere distances
// are measured on.
const EarthRadiusKm = 6371.0088

// DistanceKm is the great-circle distance between two points in degrees
// (the haversine formula).
func DistanceKm(lat1, lng1, lat2, lng2 float64) float64 {
	const rad = math.Pi / 180
	sLat := math.Sin((lat2 - lat1) * rad / 2)
	sLng := math.Sin((lng2 - lng1) * rad / 2)
	a := sLat*sLat + math.Cos(lat1*rad)*math.Cos(lat2*rad)*sLng*sLng
	return 2 * EarthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// kmPerDegree is the length of a degree of latitude: no two points whose
// latitudes differ by x degrees are nearer than x·kmPerDegree.
const kmPerDegree = EarthRadiusKm * math.Pi / 180

// Point is the point of one or more cities of the gazetteer.
type Point struct {
	Lat, Lng float64
	Key      string // domain.NearKey
	Country  string // the country of the most populous city at the point
}

// points returns every city's point once, by latitude (built on first
// use: serve's queries and imports need it, other commands do not).
func (g *Gazetteer) points() []Point {
	g.pointsOnce.Do(func() {
		byKey := map[string]int{}
		var pts []Point
		var pops []int
		for c := range g.Cities {
			k := domain.NearKey(c.Lat, c.Lng)
			if i, ok := byKey[k]; ok {
				if c.population > pops[i] || c.population == pops[i] && c.Country < pts[i].Country {
					pts[i].Country, pops[i] = c.Country, c.population
				}
				continue
			}
			byKey[k] = len(pts)
			pts = append(pts, Point{Lat: c.Lat, Lng: c.Lng, Key: k, Country: c.Country})
			pops = append(pops, c.population)
		}
		slices.SortFunc(pts, func(a, b Point) int {
			return cmp.Or(cmp.Compare(a.Lat, b.Lat), strings.Compare(a.Key, b.Key))
		})
		g.nearPoints = pts
	})
	return g.nearPoints
}

// Within calls visit with every point within km of lat, lng (inclusive)
// and its distance. Only the points of a latitude band and, away from the
// poles, a longitude window (the widest a circle of that radius spans,
// across the antimeridian too) are measured.
func (g *Gazetteer) Within(lat, lng, km float64, visit func(p *Point, d float64)) {
	pts := g.points()
	band := km/kmPerDegree + 1e-9
	window := 360.0 // every longitude
	const rad = math.Pi / 180
	if s := math.Sin(km/EarthRadiusKm) / math.Cos(lat*rad); math.Abs(lat)+band < 90 && s < 1 {
		window = math.Asin(s)/rad + 1e-7
	}
	i, _ := slices.BinarySearchFunc(pts, lat-band, func(p Point, t float64) int { return cmp.Compare(p.Lat, t) })
	for ; i < len(pts) && pts[i].Lat <= lat+band; i++ {
		if window < 180 {
			dl := math.Abs(pts[i].Lng - lng)
			if dl > 180 {
				dl = 360 - dl
			}
			if dl > window {
				continue
			}
		}
		if d := DistanceKm(lat, lng, pts[i].Lat, pts[i].Lng); d <= km {
			visit(&pts[i], d)
		}
	}
}

// NearestPoint returns the gazetteer's point nearest to lat, lng.
func (g *Gazetteer) NearestPoint(lat, lng float64) *Point {
	var best *Point
	bestD := math.Inf(1)
	for _, km := range []float64{50, 300, 1500, math.Pi * EarthRadiusKm} {
		g.Within(lat, lng, km, func(p *Point, d float64) {
			if d < bestD || d == bestD && p.Key < best.Key {
				best, bestD = p, d
			}
		})
		if best != nil {
			break
		}
	}
	return best
}

// JobCities returns the gazetteer's cities of a posting's location: each
// of its cities read with the posting's own states and countries (the
// most likely city of the name in one of its states and countries, else
// in one of its countries), so that "Georgetown" with Texas is
// Georgetown, Texas. A city the gazetteer does not know has no point.
func (g *Gazetteer) JobCities(loc *domain.Location) []*City {
	var out []*City
	for _, name := range loc.City {
		var inCountry *City
		for _, c := range g.cityCands(placeKey(name)) {
			if len(loc.Country) > 0 && !slices.Contains(loc.Country, c.Country) {
				continue
			}
			if len(loc.State) == 0 || slices.Contains(loc.State, c.State) {
				inCountry = nil
				out = appendCity(out, c)
				break
			}
			if inCountry == nil {
				inCountry = c
			}
		}
		if inCountry != nil {
			out = appendCity(out, inCountry)
		}
	}
	return out
}

func appendCity(list []*City, c *City) []*City {
	if slices.Contains(list, c) {
		return list
	}
	return append(list, c)
}

// CityText is a city as meta.normalized.near shows it: "Austin, Texas,
// United States".
func CityText(c *City) string {
	return PlaceText(Place{City: c.Name, State: c.State, Country: c.Country})
}

// ClosestCity returns the most likely city of the known name closest to
// the first part of text (before a comma) by edit distance: at most one
// edit for up to five letters, two for more; nil when none is that close.
func (g *Gazetteer) ClosestCity(text string) *City {
	first, _, _ := strings.Cut(text, ",")
	key := placeKey(first)
	if key == "" || len(key) > 64 {
		return nil
	}
	limit := 1
	if len(key) > 5 {
		limit = 2
	}
	var best *City
	bestD, bestPop := limit+1, -1
	for k, cs := range g.cities {
		if len(cs) == 0 || abs(len(k)-len(key)) > limit {
			continue
		}
		d := editDistance(key, k, limit+1) // limit+1: farther
		if d > limit {
			continue
		}
		c := cs[0]
		if d < bestD || d == bestD && (c.population > bestPop || c.population == bestPop && CityText(c) < CityText(best)) {
			best, bestD, bestPop = c, d, c.population
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
