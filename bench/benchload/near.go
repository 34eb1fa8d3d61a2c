package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The near scenario (contract section 13): searches within a radius of a
// city, against the same searches with city= instead.
const (
	placeKindName = "places by city="
	nearKindName  = "near place + radius"
	// nearWithin: a near search keeps at least this share of its city=
	// twin's throughput; nearP99 bounds its p99 (REST).
	nearWithin = 0.8
)

// nearDoc is the jobs page with a sort and the cards' distance.
const nearDoc = `query Jobs($filter: JobFilter, $limit: Int, $offset: Int, $sort: JobSort) { ` +
	`jobs(filter: $filter, limit: $limit, offset: $offset, sort: $sort) { nodes { ` + cardFields + ` distanceKm } ` +
	`pageInfo { total limit offset hasMore endCursor } } }`

// benchPoints is the temporary table of the data's points (the near keys
// of filter_keys, with their coordinates), which the checks of near
// searches measure distances to: made once, on the connection the checks
// use, so that a check finds the jobs within a radius through the
// filter_keys index instead of a scan.
const benchPoints = `CREATE TEMPORARY TABLE IF NOT EXISTS bench_points AS
	SELECT DISTINCT k, split_part(substr(k, 6), ',', 1)::float8 AS lat, split_part(substr(k, 6), ',', 2)::float8 AS lng
	FROM jobs, unnest(filter_keys) AS k WHERE k LIKE 'near:%'`

// haversineSQL is the great-circle distance in km from (lat, lng) to the
// point p of bench_points, the bench's own formula (mean Earth radius).
func haversineSQL(lat, lng float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return fmt.Sprintf(`(2 * 6371.0088 * asin(least(1, sqrt(power(sin(radians(p.lat - (%s)) / 2), 2) + `+
		`cos(radians(%s)) * cos(radians(p.lat)) * power(sin(radians(p.lng - (%s)) / 2), 2)))))`, f(lat), f(lat), f(lng))
}

// nearPlace is a city of the data with its point.
type nearPlace struct {
	city, state, country string
	lat, lng             float64
}

// buildNear returns the near scenario's two query types: city= searches
// (rotating the data's cities, alone or with a skill or an employment
// type) and the same searches as near=the city with radii 10–100 km, half
// of them sorted by distance. The places are the cities of postings with
// one city and one country, and their points those postings' near keys.
func buildNear(ctx context.Context, db *pgx.Conn, rnd *rand.Rand, skills []string) ([]query, error) {
	if _, err := db.Exec(ctx, benchPoints); err != nil {
		return nil, fmt.Errorf("bench_points: %w", err)
	}
	rows, err := db.Query(ctx, `SELECT DISTINCT ON (k) j.location_city[1], coalesce(j.location_state[1], ''), j.location_country[1], k
		FROM jobs AS j, unnest(j.filter_keys) AS k
		WHERE k LIKE 'near:%' AND cardinality(j.location_city) = 1 AND cardinality(j.location_country) = 1
		ORDER BY k, j.id`)
	if err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	var places []nearPlace
	for rows.Next() {
		var p nearPlace
		var k string
		if err := rows.Scan(&p.city, &p.state, &p.country, &k); err != nil {
			return nil, err
		}
		lat, lng, _ := strings.Cut(strings.TrimPrefix(k, "near:"), ",")
		if p.lat, err = strconv.ParseFloat(lat, 64); err != nil {
			return nil, fmt.Errorf("near key %q: %w", k, err)
		}
		if p.lng, err = strconv.ParseFloat(lng, 64); err != nil {
			return nil, fmt.Errorf("near key %q: %w", k, err)
		}
		places = append(places, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(places) == 0 {
		return nil, fmt.Errorf("places: no posting has a near key (run jobsd renormalize)")
	}
	city := query{Name: placeKindName, Kind: placeKind,
		Rotation: fmt.Sprintf("%d cities, alone, with a skill or full-time", len(places))}
	near := query{Name: nearKindName, Kind: nearKind, Base: city.Name,
		Rotation: fmt.Sprintf("the same as near=the city, radius 10–100 km, half sorted by distance")}
	for i := range values {
		p := places[rnd.IntN(len(places))]
		radius := 10 + rnd.IntN(91)
		byDistance := i%2 == 0
		cityParams := url.Values{"city": {p.city}, "country": {p.country}}
		cityFilter := map[string]any{"city": p.city, "country": p.country}
		cityWhere := `j.location_city @> ARRAY[$1]::text[] AND j.location_country @> ARRAY[$2]::text[]`
		cityArgs := []any{p.city, p.country}
		if p.state != "" {
			cityParams.Set("state", p.state)
			cityFilter["state"] = p.state
			cityWhere += ` AND j.location_state @> ARRAY[$3]::text[]`
			cityArgs = append(cityArgs, p.state)
		}
		place := strings.Join(nonEmpty(p.city, p.state, p.country), ", ")
		nearParams := url.Values{"near": {place}, "radius": {strconv.Itoa(radius)}}
		nearFilter := map[string]any{"near": map[string]any{"place": place, "radius": radius}}
		hav := haversineSQL(p.lat, p.lng)
		nearWhere := fmt.Sprintf(`j.filter_keys && ARRAY(SELECT p.k FROM bench_points AS p WHERE %s <= %d)`, hav, radius)
		var nearArgs []any
		switch i % 3 {
		case 1:
			s := skills[rnd.IntN(len(skills))]
			for _, v := range []url.Values{cityParams, nearParams} {
				v.Set("skills", s)
			}
			cityFilter["skills"], nearFilter["skills"] = []string{s}, []string{s}
			cityArgs, nearArgs = append(cityArgs, s), append(nearArgs, s)
			cityWhere += fmt.Sprintf(` AND j.skills @> ARRAY[$%d]::text[]`, len(cityArgs))
			nearWhere += fmt.Sprintf(` AND j.skills @> ARRAY[$%d]::text[]`, len(nearArgs))
		case 2:
			for _, v := range []url.Values{cityParams, nearParams} {
				v.Set("employment_type", "full-time")
			}
			cityFilter["employmentType"], nearFilter["employmentType"] = []string{"FULL_TIME"}, []string{"FULL_TIME"}
			cityWhere += ` AND j.employment_type = 'full-time'`
			nearWhere += ` AND j.employment_type = 'full-time'`
		}
		city.Cases = append(city.Cases, jobsCase(cityParams, cityFilter, 25, 0, cityWhere, cityArgs...))
		vars := map[string]any{"filter": nearFilter, "limit": 25, "offset": 0}
		order := ""
		if byDistance {
			nearParams.Set("sort", "distance")
			vars["sort"] = "DISTANCE"
			order = fmt.Sprintf(`(SELECT min(%s) FROM bench_points AS p WHERE p.k = ANY(j.filter_keys)), `+
				`coalesce(j.posted_at, '-infinity') DESC, j.id`, hav)
		}
		nearParams.Set("limit", "25")
		nearParams.Set("offset", "0")
		near.Cases = append(near.Cases, testCase{REST: "/api/v1/jobs?" + nearParams.Encode(), GraphQL: graphQLBody(nearDoc, vars),
			Where: nearWhere, Args: nearArgs, OrderBy: order, Limit: 25})
	}
	return []query{city, near}, nil
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
