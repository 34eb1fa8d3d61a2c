// Near: places as points (a posting's cities, a query's place), the points within a distance, and the reading of a near filter.

package normalize

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/normalize/places"

	"github.com/jobsd-dev/jobsd/domain"
)

// Radius bounds of a near filter (contract section 13).
const (
	DefaultRadiusKm = 40
	MaxRadiusKm     = 500
	KmPerMile       = 1.609344
)

// nearKeys returns a posting's keys of places as points (contract section
// 13): the NearKey of each of its cities, and for a remote posting that
// names no city the NearRemoteKey of each of its countries, or of none.
func (n *Normalizer) nearKeys(j *domain.Job) []string {
	var keys []string
	for _, c := range n.geo.JobCities(&j.Location) {
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
		name := places.CityText(c)
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
	n.geo.Within(lat, lng, km, func(p *places.Point, d float64) { hits = append(hits, hit{p.Key, d}) })
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(cmp.Compare(a.d, b.d), strings.Compare(a.key, b.key)) })
	for _, h := range hits {
		keys, kms = append(keys, h.key), append(kms, h.d)
	}
	filter := domain.KeyFilter{Field: domain.FieldNear, Keys: slices.Clone(keys)}
	if remote {
		if country == "" {
			if p := n.geo.NearestPoint(lat, lng); p != nil {
				country = p.Country
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
func (n *Normalizer) nearCity(text string) (*places.City, error) {
	loc := n.ParseLocation(text)
	switch {
	case len(loc.Places) > 1:
		names := make([]string, len(loc.Places))
		for i, p := range loc.Places {
			names[i] = places.PlaceText(n.Complete(p))
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
		if c, ok := n.geo.FindCity(p.City, p.State, p.Country); ok {
			return c, nil
		}
	}
	msg := "near %q names no city jobsd knows"
	if c := n.geo.ClosestCity(text); c != nil {
		return nil, domain.InvalidParam("near", msg+"; did you mean %q?", domain.Clip(text), places.CityText(c))
	}
	return nil, domain.InvalidParam("near", msg+"; give a city (\"Austin, TX\") or lat and lng", domain.Clip(text))
}
