// Near: a query's point and radius, and the filter keys of the places within it.

package domain

import (
	"math"
	"slices"
	"strconv"
)

// The filter fields of places as points (contract section 13). A posting
// has the key of each of its cities' points, NearKey; a remote posting
// that names no city has NearRemoteKey of each of its countries, or of ""
// when it names none.
const (
	FieldNear       = "near"
	FieldNearRemote = "near_remote"
)

// NearKey returns the filter key of the point at lat, lng (degrees,
// written to four decimals: about 11 m).
func NearKey(lat, lng float64) string {
	b := make([]byte, 0, 24)
	b = strconv.AppendFloat(b, RoundCoordinate(lat), 'f', 4, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, RoundCoordinate(lng), 'f', 4, 64)
	return Key(FieldNear, string(b))
}

// RoundCoordinate rounds degrees to the four decimals of a NearKey (and
// never to -0).
func RoundCoordinate(x float64) float64 {
	if x = math.Round(x*1e4) / 1e4; x == 0 {
		return 0
	}
	return x
}

// NearRemoteKey returns the key of the remote postings without a city in
// the country whose folded name is country ("" for those naming none).
func NearRemoteKey(country string) string { return Key(FieldNearRemote, country) }

// RemoteDistanceKm is the sort key of a posting a near filter adds for
// being remote: after every located one (no two points of the Earth are
// 20,100 km apart).
const RemoteDistanceKm = 1e9

// NearQuery is a near filter read: the point, the radius, and the points
// within it. Its KeyFilter (of field FieldNear) holds Keys and, with
// include_remote, the NearRemoteKeys of the point's country and of none:
// the jobs it matches at none of Keys are those.
type NearQuery struct {
	Lat, Lng, RadiusKm float64
	// Keys are the NearKeys of the points within the radius, nearest
	// first (ties by key), and Km their distances in the same order.
	Keys []string
	Km   []float64
	km   map[string]float64
}

// NewNearQuery returns the near filter of the point with the points
// within the radius (keys and their distances, nearest first).
func NewNearQuery(lat, lng, radiusKm float64, keys []string, km []float64) *NearQuery {
	q := &NearQuery{Lat: lat, Lng: lng, RadiusKm: radiusKm, Keys: keys, Km: km,
		km: make(map[string]float64, len(keys))}
	for i, k := range keys {
		q.km[k] = km[i]
	}
	return q
}

// Distance returns the distance of the nearest of a posting's NearKeys
// (any other keys are ignored) within the radius, and false when none is.
func (q *NearQuery) Distance(keys []string) (float64, bool) {
	best, ok := 0.0, false
	for _, k := range keys {
		if d, in := q.km[k]; in && (!ok || d < best) {
			best, ok = d, true
		}
	}
	return best, ok
}

// Rank returns the place of a distance among the query's: the index of
// the first of its keys at that distance or farther, and whether one is
// at it. RemoteDistanceKm is at len(Keys), exactly.
func (q *NearQuery) Rank(km float64) (int, bool) {
	if km == RemoteDistanceKm {
		return len(q.Keys), true
	}
	return slices.BinarySearch(q.Km, km)
}

// Ranks returns the sort key SQL orders by for each of Keys: the Rank of
// its distance (keys at one distance share it).
func (q *NearQuery) Ranks() []int32 {
	out := make([]int32, len(q.Keys))
	for i := range out {
		if i > 0 && q.Km[i] == q.Km[i-1] {
			out[i] = out[i-1]
		} else {
			out[i] = int32(i)
		}
	}
	return out
}

// ShownKm is a distance as cards show it: to one decimal.
func ShownKm(d float64) *float64 {
	r := math.Round(d*10) / 10
	return &r
}
