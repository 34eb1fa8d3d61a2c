// Near: places as points (a posting's cities, a query's place), the points within a distance, and the reading of a near filter.

package normalize

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
)

// Radius bounds of a near filter (contract section 13).
const (
	DefaultRadiusKm = 40
	MaxRadiusKm     = 500
	KmPerMile       = 1.609344
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

// nearPoint is the point of one or more cities of the gazetteer.
type nearPoint struct {
	lat, lng float64
	key      string // domain.NearKey
	country  string // the country of the most populous city at the point
}

// points returns every city's point once, by latitude (built on first
// use: serve's queries and imports need it, other commands do not).
func (n *Normalizer) points() []nearPoint {
	n.pointsOnce.Do(func() {
		seen := map[*city]bool{}
		byKey := map[string]int{}
		var pts []nearPoint
		var pops []int
		for _, cs := range n.geo.cities {
			for _, c := range cs {
				if seen[c] {
					continue
				}
				seen[c] = true
				k := domain.NearKey(c.Lat, c.Lng)
				if i, ok := byKey[k]; ok {
					if c.population > pops[i] || c.population == pops[i] && c.Country < pts[i].country {
						pts[i].country, pops[i] = c.Country, c.population
					}
					continue
				}
				byKey[k] = len(pts)
				pts = append(pts, nearPoint{lat: c.Lat, lng: c.Lng, key: k, country: c.Country})
				pops = append(pops, c.population)
			}
		}
		slices.SortFunc(pts, func(a, b nearPoint) int {
			return cmp.Or(cmp.Compare(a.lat, b.lat), strings.Compare(a.key, b.key))
		})
		n.nearPoints = pts
	})
	return n.nearPoints
}

// within calls visit with every point within km of lat, lng (inclusive)
// and its distance. Only the points of a latitude band and, away from the
// poles, a longitude window (the widest a circle of that radius spans,
// across the antimeridian too) are measured.
func (n *Normalizer) within(lat, lng, km float64, visit func(p *nearPoint, d float64)) {
	pts := n.points()
	band := km/kmPerDegree + 1e-9
	window := 360.0 // every longitude
	const rad = math.Pi / 180
	if s := math.Sin(km/EarthRadiusKm) / math.Cos(lat*rad); math.Abs(lat)+band < 90 && s < 1 {
		window = math.Asin(s)/rad + 1e-7
	}
	i, _ := slices.BinarySearchFunc(pts, lat-band, func(p nearPoint, t float64) int { return cmp.Compare(p.lat, t) })
	for ; i < len(pts) && pts[i].lat <= lat+band; i++ {
		if window < 180 {
			dl := math.Abs(pts[i].lng - lng)
			if dl > 180 {
				dl = 360 - dl
			}
			if dl > window {
				continue
			}
		}
		if d := DistanceKm(lat, lng, pts[i].lat, pts[i].lng); d <= km {
			visit(&pts[i], d)
		}
	}
}

// nearestPoint returns the gazetteer's point nearest to lat, lng.
func (n *Normalizer) nearestPoint(lat, lng float64) *nearPoint {
	var best *nearPoint
	bestD := math.Inf(1)
	for _, km := range []float64{50, 300, 1500, math.Pi * EarthRadiusKm} {
		n.within(lat, lng, km, func(p *nearPoint, d float64) {
			if d < bestD || d == bestD && p.key < best.key {
				best, bestD = p, d
			}
		})
		if best != nil {
			break
		}
	}
	return best
}

// jobCities returns the gazetteer's cities of a posting's location: each
// of its cities read with the posting's own states and countries (the
// most likely city of the name in one of its states and countries, else
// in one of its countries), so that "Georgetown" with Texas is
// Georgetown, Texas. A city the gazetteer does not know has no point.
func (g *gazetteer) jobCities(loc *domain.Location) []*city {
	var out []*city
	for _, name := range loc.City {
		var inCountry *city
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

func appendCity(list []*city, c *city) []*city {
	if slices.Contains(list, c) {
		return list
	}
	return append(list, c)
}

// nearKeys returns a posting's keys of places as points (contract section
// 13): the NearKey of each of its cities, and for a remote posting that
// names no city the NearRemoteKey of each of its countries, or of none.
func (n *Normalizer) nearKeys(j *domain.Job) []string {
	var keys []string
	for _, c := range n.geo.jobCities(&j.Location) {
		keys = appendNew(keys, domain.NearKey(c.Lat, c.Lng))
	}
	if len(j.Location.City) == 0 && j.WorkArrangement != nil && *j.WorkArrangement == domain.WorkArrangementRemote {
		if len(j.Location.Country) == 0 {
			keys = append(keys, domain.NearRemoteKey(""))
		}
		for _, c := range j.Location.Country {
			keys = appendNew(keys, domain.NearRemoteKey(fold.Fold(c)))
		}
	}
	return keys
}

// ParseRadius reads REST's radius: a number, decimals allowed, and an
// optional unit km or mi in any case, without a space ("25mi", "40km",
// "12.5KM"; a bare number is km). Its bounds are checked with the rest of
// the near filter.
func ParseRadius(s string) (float64, domain.DistanceUnit, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	unit := domain.DistanceUnitKm
	if v, ok := strings.CutSuffix(t, "mi"); ok {
		t, unit = v, domain.DistanceUnitMi
	} else if v, ok := strings.CutSuffix(t, "km"); ok {
		t = v
	}
	r, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" || t[0] == '+' || strings.ContainsAny(t, "eEnNiIxX_") {
		return 0, "", domain.InvalidParam("radius", "radius must be a number with an optional unit km or mi, like 25mi, 40km or 12.5 (km); got %q", domain.Clip(s))
	}
	return r, unit, nil
}

// near reads a near filter (contract section 13): a place or lat and lng,
// a radius and its unit, and include_remote, into the query's Near and a
// key filter over the points within the radius.
func (n *Normalizer) near(b *queryBuilder, in *domain.NearInput) {
	if in == nil {
		return
	}
	place := str(in.Place)
	if in.Place != nil {
		b.text("near", *in.Place)
	}
	if place == "" && *in == (domain.NearInput{Place: in.Place}) {
		return // nothing given but blanks, as an empty city= is no filter
	}
	switch {
	case b.err != nil:
		return
	case place != "" && (in.Lat != nil || in.Lng != nil):
		b.fail(domain.InvalidParam("near", "give near or lat and lng, not both"))
		return
	case (in.Lat == nil) != (in.Lng == nil):
		missing := "lng"
		if in.Lat == nil {
			missing = "lat"
		}
		b.fail(domain.InvalidParam(missing, "lat and lng go together: %s is missing", missing))
		return
	case place == "" && in.Lat == nil:
		param := "near"
		switch {
		case in.Radius != nil || in.Unit != nil:
			param = "radius"
		case in.IncludeRemote != nil:
			param = "include_remote"
		}
		b.fail(domain.InvalidParam(param, "%s needs a point: give near (a city) or lat and lng", param))
		return
	}
	km, ok := radiusKm(b, in.Radius, in.Unit)
	if !ok {
		return
	}
	echo := &domain.NormalizedNear{RadiusKm: math.Round(km*10) / 10}
	var lat, lng float64
	var country string
	if place != "" {
		c, err := n.nearCity(place)
		if err != nil {
			b.fail(err)
			return
		}
		lat, lng, country = c.Lat, c.Lng, c.Country
		name := cityText(c)
		echo.Place = &name
	} else {
		lat, lng = *in.Lat, *in.Lng
		if math.IsNaN(lat) || lat <= -90 || lat >= 90 {
			b.fail(domain.InvalidParam("lat", "lat must be a number of degrees greater than -90 and less than 90 (a pole has no direction)"))
			return
		}
		if math.IsNaN(lng) || lng < -180 || lng > 180 {
			b.fail(domain.InvalidParam("lng", "lng must be a number of degrees from -180 to 180"))
			return
		}
	}
	echo.Lat, echo.Lng = lat, lng
	remote := in.IncludeRemote != nil && *in.IncludeRemote
	var keys []string
	var kms []float64
	type hit struct {
		key string
		d   float64
	}
	var hits []hit
	n.within(lat, lng, km, func(p *nearPoint, d float64) { hits = append(hits, hit{p.key, d}) })
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(cmp.Compare(a.d, b.d), strings.Compare(a.key, b.key)) })
	for _, h := range hits {
		keys, kms = append(keys, h.key), append(kms, h.d)
	}
	filter := domain.KeyFilter{Field: domain.FieldNear, Keys: slices.Clone(keys)}
	if remote {
		if country == "" {
			if p := n.nearestPoint(lat, lng); p != nil {
				country = p.country
			}
		}
		filter.Keys = append(filter.Keys, domain.NearRemoteKey(""))
		if country != "" {
			filter.Keys = append(filter.Keys, domain.NearRemoteKey(fold.Fold(country)))
		}
		t := true
		echo.IncludeRemote = &t
	}
	filter.Values = filter.Keys
	b.q.Filters = append(b.q.Filters, filter)
	b.q.Near = domain.NewNearQuery(lat, lng, km, keys, kms)
	b.q.Normalized.Near = echo
}

// radiusKm reads a radius and its unit into km: greater than 0 and at
// most MaxRadiusKm, DefaultRadiusKm when not given.
func radiusKm(b *queryBuilder, r *float64, unit *domain.DistanceUnit) (float64, bool) {
	factor, name := 1.0, domain.DistanceUnitKm
	if unit != nil {
		switch domain.DistanceUnit(strings.ToLower(string(*unit))) {
		case domain.DistanceUnitKm:
		case domain.DistanceUnitMi:
			factor, name = KmPerMile, domain.DistanceUnitMi
		default:
			b.fail(domain.AllowedError("radius", string(*unit), domain.DistanceUnits...))
			return 0, false
		}
	}
	if r == nil {
		return DefaultRadiusKm, true
	}
	km := *r * factor
	if math.IsNaN(km) || km <= 0 || km > MaxRadiusKm {
		b.fail(domain.InvalidParam("radius", "radius must be greater than 0 and at most %d km (%.1f mi); got %s %s",
			MaxRadiusKm, MaxRadiusKm/KmPerMile, strconv.FormatFloat(*r, 'f', -1, 64), name))
		return 0, false
	}
	return km, true
}

// nearCity resolves a near filter's place to one city, as location reads
// it: a place naming no city (only a state, a country, a region or a work
// arrangement), several places, or an unknown one is an error, the last
// with the closest known city's name when one is close.
func (n *Normalizer) nearCity(text string) (*city, error) {
	loc := n.ParseLocation(text)
	switch {
	case len(loc.Places) > 1:
		names := make([]string, len(loc.Places))
		for i, p := range loc.Places {
			names[i] = placeText(n.Complete(p))
		}
		return nil, domain.InvalidParam("near", "near %q names %d places (%s); name one city", domain.Clip(text), len(names), strings.Join(names, "; "))
	case len(loc.Places) == 1 && loc.Places[0].City == "":
		p := loc.Places[0]
		if p.State != "" {
			return nil, domain.InvalidParam("near", "near %q names a state (%s), not a city: filter by state=%s, or name a city in it", domain.Clip(text), p.State, p.State)
		}
		return nil, domain.InvalidParam("near", "near %q names a country (%s), not a city: filter by country=%s, or name a city in it", domain.Clip(text), p.Country, p.Country)
	case len(loc.Places) == 1:
		p := loc.Places[0]
		if c, ok := n.geo.city(p.City, p.State, p.Country); ok {
			return c, nil
		}
	}
	msg := "near %q names no city jobsd knows"
	if c := n.geo.closestCity(text); c != nil {
		return nil, domain.InvalidParam("near", msg+"; did you mean %q?", domain.Clip(text), cityText(c))
	}
	return nil, domain.InvalidParam("near", msg+"; give a city (\"Austin, TX\") or lat and lng", domain.Clip(text))
}

// cityText is a city as meta.normalized.near shows it: "Austin, Texas,
// United States".
func cityText(c *city) string {
	return placeText(Place{City: c.Name, State: c.State, Country: c.Country})
}

// closestCity returns the most likely city of the known name closest to
// the first part of text (before a comma) by edit distance: at most one
// edit for up to five letters, two for more; nil when none is that close.
func (g *gazetteer) closestCity(text string) *city {
	first, _, _ := strings.Cut(text, ",")
	key := placeKey(first)
	if key == "" || len(key) > 64 {
		return nil
	}
	limit := 1
	if len(key) > 5 {
		limit = 2
	}
	var best *city
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
		if d < bestD || d == bestD && (c.population > bestPop || c.population == bestPop && cityText(c) < cityText(best)) {
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
