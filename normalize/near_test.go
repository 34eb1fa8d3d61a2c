package normalize

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/refdatatest"
	"github.com/jobsd-dev/jobsd/normalize/places"
)

func TestParseRadius(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		unit domain.DistanceUnit
		bad  bool
	}{
		{in: "25mi", want: 25, unit: domain.DistanceUnitMi},
		{in: "40km", want: 40, unit: domain.DistanceUnitKm},
		{in: "12.5KM", want: 12.5, unit: domain.DistanceUnitKm},
		{in: "10", want: 10, unit: domain.DistanceUnitKm},
		{in: " 3Mi ", want: 3, unit: domain.DistanceUnitMi},
		{in: "-5", want: -5, unit: domain.DistanceUnitKm}, // bounds are the filter's to check
		{in: "25 mi", bad: true},
		{in: "25ft", bad: true},
		{in: "mi", bad: true},
		{in: "", bad: true},
		{in: "1e3", bad: true},
		{in: "inf", bad: true},
		{in: "NaN", bad: true},
		{in: "0x10", bad: true},
		{in: "+5", bad: true},
	} {
		t.Run(c.in, func(t *testing.T) {
			r, unit, err := ParseRadius(c.in)
			if c.bad {
				require.Error(t, err)
				assert.Equal(t, "radius", err.(*domain.Error).Param)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, r)
			assert.Equal(t, c.unit, unit)
		})
	}
}

func nearFilter(q domain.JobQuery) *domain.KeyFilter {
	for i := range q.Filters {
		if q.Filters[i].Field == domain.FieldNear {
			return &q.Filters[i]
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

func TestNearQuery(t *testing.T) {
	n := newLocNormalizer(t)
	austin := findCity(t, n, "Austin")
	roundRock := findCity(t, n, "Round Rock")
	houston := findCity(t, n, "Houston")

	q, err := n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Place: ptr("Austin, TX")}})
	require.NoError(t, err)
	require.NotNil(t, q.Near)
	assert.Equal(t, &domain.NormalizedNear{Place: ptr("Austin, Texas, United States"), Lat: austin.Lat, Lng: austin.Lng, RadiusKm: 40},
		q.Normalized.Near)
	f := nearFilter(q)
	require.NotNil(t, f)
	assert.Equal(t, domain.NearKey(austin.Lat, austin.Lng), f.Keys[0], "the point itself first, at 0 km")
	assert.Contains(t, f.Keys, domain.NearKey(roundRock.Lat, roundRock.Lng), "Round Rock is about 25 km from Austin")
	assert.NotContains(t, f.Keys, domain.NearKey(houston.Lat, houston.Lng))
	assert.Equal(t, f.Keys, q.Near.Keys)
	assert.True(t, slices.IsSorted(q.Near.Km), "nearest first")
	for i, k := range q.Near.Keys {
		assert.LessOrEqual(t, q.Near.Km[i], 40.0, k)
	}
	d, ok := q.Near.Distance([]string{"city:austin", domain.NearKey(roundRock.Lat, roundRock.Lng)})
	require.True(t, ok)
	assert.InDelta(t, places.DistanceKm(austin.Lat, austin.Lng, roundRock.Lat, roundRock.Lng), d, 1e-9)

	// 25 miles, include_remote: the point's country and no country.
	q, err = n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Place: ptr("round rock"), Radius: ptr(25.0),
		Unit: ptr(domain.DistanceUnitMi), IncludeRemote: ptr(true)}})
	require.NoError(t, err)
	assert.InDelta(t, 25*KmPerMile, q.Near.RadiusKm, 1e-9)
	assert.Equal(t, 40.2, q.Normalized.Near.RadiusKm)
	assert.Equal(t, ptr(true), q.Normalized.Near.IncludeRemote)
	f = nearFilter(q)
	assert.Equal(t, []string{domain.NearRemoteKey(""), domain.NearRemoteKey("united states")}, f.Keys[len(f.Keys)-2:])

	// A point: no place; include_remote takes the nearest city's country.
	q, err = n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Lat: ptr(48.86), Lng: ptr(2.35), Radius: ptr(5.0),
		IncludeRemote: ptr(true)}})
	require.NoError(t, err)
	assert.Nil(t, q.Normalized.Near.Place)
	assert.Equal(t, 48.86, q.Normalized.Near.Lat)
	assert.Contains(t, nearFilter(q).Keys, domain.NearRemoteKey("france"))

	// The middle of the Pacific: nothing within the radius, no error.
	q, err = n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Lat: ptr(-30.0), Lng: ptr(-140.0), Radius: ptr(10.0)}})
	require.NoError(t, err)
	assert.Empty(t, nearFilter(q).Keys)
}

func TestNearQueryErrors(t *testing.T) {
	n := newLocNormalizer(t)
	for _, c := range []struct {
		name  string
		in    domain.NearInput
		param string
		msg   string
	}{
		{"a state", domain.NearInput{Place: ptr("Texas")}, "near", "names a state (Texas), not a city: filter by state=Texas"},
		{"a country", domain.NearInput{Place: ptr("Germany")}, "near", "names a country (Germany), not a city: filter by country=Germany"},
		{"unknown, close to a city", domain.NearInput{Place: ptr("Austn")}, "near", `did you mean "Austin, Texas, United States"?`},
		{"unknown", domain.NearInput{Place: ptr("Qwxyzzz")}, "near", "names no city jobsd knows"},
		{"two places", domain.NearInput{Place: ptr("Austin; Boston")}, "near", "names 2 places"},
		{"remote only", domain.NearInput{Place: ptr("Remote")}, "near", "names no city"},
		{"place and point", domain.NearInput{Place: ptr("Austin"), Lat: ptr(1.0), Lng: ptr(2.0)}, "near", "not both"},
		{"lat alone", domain.NearInput{Lat: ptr(1.0)}, "lng", "lat and lng go together"},
		{"lng alone", domain.NearInput{Lng: ptr(1.0)}, "lat", "lat and lng go together"},
		{"lat out of range", domain.NearInput{Lat: ptr(91.0), Lng: ptr(0.0)}, "lat", "greater than -90 and less than 90"},
		{"a pole", domain.NearInput{Lat: ptr(-90.0), Lng: ptr(0.0)}, "lat", "a pole"},
		{"lng out of range", domain.NearInput{Lat: ptr(0.0), Lng: ptr(180.5)}, "lng", "from -180 to 180"},
		{"radius 0", domain.NearInput{Place: ptr("Austin"), Radius: ptr(0.0)}, "radius", "greater than 0 and at most 500 km"},
		{"radius negative", domain.NearInput{Place: ptr("Austin"), Radius: ptr(-1.0)}, "radius", "greater than 0"},
		{"radius over 500 km", domain.NearInput{Place: ptr("Austin"), Radius: ptr(500.5)}, "radius", "at most 500 km (310.7 mi); got 500.5 km"},
		{"radius over 500 km in miles", domain.NearInput{Place: ptr("Austin"), Radius: ptr(311.0), Unit: ptr(domain.DistanceUnitMi)}, "radius", "got 311 mi"},
		{"another unit", domain.NearInput{Place: ptr("Austin"), Radius: ptr(3.0), Unit: ptr(domain.DistanceUnit("ft"))}, "radius", "km, mi"},
		{"radius without a point", domain.NearInput{Radius: ptr(3.0)}, "radius", "needs a point"},
		{"include_remote without a point", domain.NearInput{IncludeRemote: ptr(true)}, "include_remote", "needs a point"},
		{"control characters", domain.NearInput{Place: ptr("Aus\x01tin")}, "near", "control characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := n.JobFilter(&domain.JobFilter{Near: &c.in})
			require.Error(t, err)
			var de *domain.Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, domain.CodeInvalidParameter, de.Code)
			assert.Equal(t, c.param, de.Param)
			assert.Contains(t, de.Message, c.msg)
		})
	}
	for _, in := range []domain.NearInput{{}, {Place: ptr(" ")}} {
		q, err := n.JobFilter(&domain.JobFilter{Near: &in})
		require.NoError(t, err, "an empty near is no filter, as an empty city is none")
		assert.Nil(t, q.Near)
		assert.Empty(t, q.Filters)
	}
}

// TestNearRadiusBoundary: a point exactly at the radius is within it.
func TestNearRadiusBoundary(t *testing.T) {
	n := newLocNormalizer(t)
	austin := findCity(t, n, "Austin")
	roundRock := findCity(t, n, "Round Rock")
	d := places.DistanceKm(austin.Lat, austin.Lng, roundRock.Lat, roundRock.Lng)
	q, err := n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Place: ptr("Austin"), Radius: &d}})
	require.NoError(t, err)
	assert.Contains(t, q.Near.Keys, domain.NearKey(roundRock.Lat, roundRock.Lng))
	shorter := math.Nextafter(d, 0)
	q, err = n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Place: ptr("Austin"), Radius: &shorter}})
	require.NoError(t, err)
	assert.NotContains(t, q.Near.Keys, domain.NearKey(roundRock.Lat, roundRock.Lng))
}

func TestNearKeysOfPostings(t *testing.T) {
	n := newLocNormalizer(t)
	job := func(city, state, country []string, w domain.WorkArrangement) domain.JobRecord {
		rec, err := n.Job(domain.Job{ID: "t-1", Title: "Engineer", Company: "Acme",
			Location: domain.Location{City: city, State: state, Country: country}, WorkArrangement: &w})
		require.NoError(t, err)
		return rec
	}
	nearKeys := func(rec domain.JobRecord) []string {
		var out []string
		for _, k := range rec.FilterKeys {
			if strings.HasPrefix(k, domain.FieldNear+":") || strings.HasPrefix(k, domain.FieldNearRemote+":") {
				out = append(out, k)
			}
		}
		return out
	}
	austin := findCity(t, n, "Austin")
	portland := findCity(t, n, "Portland")
	assert.Equal(t, []string{domain.NearKey(austin.Lat, austin.Lng), domain.NearKey(portland.Lat, portland.Lng)},
		nearKeys(job([]string{"Austin", "Portland"}, []string{"Texas", "Oregon"}, []string{"United States"}, domain.WorkArrangementOnsite)),
		"each city read with one of the posting's states")
	assert.Equal(t, []string{domain.NearKey(austin.Lat, austin.Lng)},
		nearKeys(job([]string{"Austin"}, nil, nil, domain.WorkArrangementRemote)), "a remote posting with a city is at its city")
	assert.Equal(t, []string{domain.NearRemoteKey("germany"), domain.NearRemoteKey("france")},
		nearKeys(job(nil, nil, []string{"Germany", "France"}, domain.WorkArrangementRemote)))
	assert.Equal(t, []string{domain.NearRemoteKey("")}, nearKeys(job(nil, nil, nil, domain.WorkArrangementRemote)))
	assert.Empty(t, nearKeys(job(nil, []string{"Texas"}, nil, domain.WorkArrangementOnsite)), "a state is near no point")
	assert.Empty(t, nearKeys(job([]string{"Austin"}, nil, []string{"Canada"}, domain.WorkArrangementOnsite)), "no Austin in Canada")
}

// TestNearWithReferenceData: with GeoNames, a posting's city is read with
// its own state ("Georgetown" with Texas is Georgetown, Texas, 40 km north
// of Austin, not Guyana's capital), and places resolve as location does.
func TestNearWithReferenceData(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	n, err := New(WithRefData(dir))
	require.NoError(t, err)
	rec, err := n.Job(domain.Job{ID: "t-1", Title: "Nurse", Company: "Acme",
		Location: domain.Location{City: []string{"Georgetown"}, State: []string{"Texas"}, Country: []string{"United States"}}})
	require.NoError(t, err)
	var keys []string
	for _, k := range rec.FilterKeys {
		if strings.HasPrefix(k, domain.FieldNear+":") {
			keys = append(keys, k)
		}
	}
	require.Len(t, keys, 1)
	q, err := n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Place: ptr("Austin, TX"), Radius: ptr(50.0)}})
	require.NoError(t, err)
	assert.Contains(t, q.Near.Keys, keys[0], "Georgetown, Texas is within 50 km of Austin")
	d, ok := q.Near.Distance(keys)
	require.True(t, ok)
	assert.InDelta(t, 42, d, 5)

	for place, want := range map[string]string{
		"London, UK":    "London, England, United Kingdom",
		"London, ON":    "London, Ontario, Canada",
		"Round Rock":    "Round Rock, Texas, United States",
		"Cambridge, MA": "Cambridge, Massachusetts, United States",
		"München":       "Munich, Bavaria, Germany",
	} {
		q, err := n.JobFilter(&domain.JobFilter{Near: &domain.NearInput{Place: &place}})
		require.NoError(t, err, place)
		assert.Equal(t, want, *q.Normalized.Near.Place, place)
	}
}

// findCity returns the gazetteer's most likely city of the name.
func findCity(t *testing.T, n *Normalizer, name string) *places.City {
	t.Helper()
	c, ok := n.geo.FindCity(name, "", "")
	require.True(t, ok, name)
	return c
}
