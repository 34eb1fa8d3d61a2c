package store_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/search"
)

// storedPosting is what a plain scan of the stored postings needs to
// answer a near query: their points, remote keys and order.
type storedPosting struct {
	id     string
	posted time.Time
	points [][2]float64
	remote []string // near_remote keys
}

// scanPostings reads every open posting's points from filter_keys.
func scanPostings(t *testing.T, e *env) []storedPosting {
	var rows []struct {
		ID         string    `bun:"id"`
		PostedSort time.Time `bun:"posted_sort"`
		Keys       []string  `bun:"filter_keys,array"`
	}
	require.NoError(t, e.db.NewSelect().Table("jobs").Column("id", "posted_sort", "filter_keys").Scan(e.ctx, &rows))
	out := make([]storedPosting, len(rows))
	for i, r := range rows {
		p := storedPosting{id: r.ID, posted: r.PostedSort}
		for _, k := range r.Keys {
			if v, ok := strings.CutPrefix(k, "near:"); ok {
				lat, lng, _ := strings.Cut(v, ",")
				la, err1 := strconv.ParseFloat(lat, 64)
				ln, err2 := strconv.ParseFloat(lng, 64)
				require.NoError(t, err1)
				require.NoError(t, err2)
				p.points = append(p.points, [2]float64{la, ln})
			}
			if strings.HasPrefix(k, "near_remote:") {
				p.remote = append(p.remote, k)
			}
		}
		out[i] = p
	}
	return out
}

// haversineKm is the test's own great-circle distance (mean Earth radius).
func haversineKm(lat1, lng1, lat2, lng2 float64) float64 {
	r := math.Pi / 180
	h := math.Pow(math.Sin((lat2-lat1)*r/2), 2) + math.Cos(lat1*r)*math.Cos(lat2*r)*math.Pow(math.Sin((lng2-lng1)*r/2), 2)
	return 2 * 6371.0088 * math.Asin(math.Min(1, math.Sqrt(h)))
}

// scanNear answers a near query (its point, radius and remote keys) by a
// plain scan: the matching ids in the distance order, and their
// distances (NaN for the remote ones).
func scanNear(posts []storedPosting, q domain.JobQuery, remoteKeys []string) ([]string, map[string]float64) {
	type hit struct {
		id     string
		d      float64
		posted time.Time
	}
	var hits []hit
	for _, p := range posts {
		d := math.Inf(1)
		for _, pt := range p.points {
			if k := haversineKm(q.Near.Lat, q.Near.Lng, pt[0], pt[1]); k <= q.Near.RadiusKm+1e-9 {
				d = min(d, k)
			}
		}
		if math.IsInf(d, 1) {
			if !slices.ContainsFunc(p.remote, func(k string) bool { return slices.Contains(remoteKeys, k) }) {
				continue
			}
			d = math.NaN()
		}
		hits = append(hits, hit{p.id, d, p.posted})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		da, db := a.d, b.d
		if math.IsNaN(da) {
			da = math.Inf(1)
		}
		if math.IsNaN(db) {
			db = math.Inf(1)
		}
		if math.Abs(da-db) > 1e-9 {
			return cmp.Compare(da, db)
		}
		return cmp.Or(b.posted.Compare(a.posted), strings.Compare(a.id, b.id))
	})
	ids := make([]string, len(hits)) // never nil
	dist := make(map[string]float64, len(hits))
	for i, h := range hits {
		ids[i], dist[h.id] = h.id, h.d
	}
	return ids, dist
}

// TestNearAnswersAsAScan compares near queries (random points near the
// data's cities and anywhere, random radii in km and mi, with and without
// remote postings, sorted by distance and newest) with a plain haversine
// scan over the stored postings: ids, totals, order and distances, in SQL
// and through the index (before and after changes land in its delta);
// with other filters, the index against SQL.
func TestNearAnswersAsAScan(t *testing.T) {
	e, indexed, x := indexedEnv(t, 1500)
	r := rand.New(rand.NewPCG(13, 14))
	check := func(round string) {
		posts := scanPostings(t, e)
		var points [][2]float64
		for _, p := range posts {
			points = append(points, p.points...)
		}
		require.NotEmpty(t, points)
		for i := range 60 {
			var lat, lng float64
			if i%5 == 4 {
				lat, lng = r.Float64()*170-85, r.Float64()*360-180
			} else {
				pt := points[r.IntN(len(points))]
				lat = max(-89, min(89, pt[0]+(r.Float64()-0.5)))
				lng = pt[1] + (r.Float64() - 0.5)
			}
			radius := []float64{1, 10, 25, 40, 100, 300, 500}[r.IntN(7)] * (0.5 + r.Float64()/2)
			unit := domain.DistanceUnitKm
			if r.IntN(3) == 0 {
				unit = domain.DistanceUnitMi
				radius /= 1.609344
			}
			remote := r.IntN(3) == 0
			sort := []domain.JobSort{domain.JobSortDistance, domain.JobSortDistance, domain.JobSortNewest}[r.IntN(3)]
			f := domain.JobFilter{Near: &domain.NearInput{Lat: &lat, Lng: &lng, Radius: &radius, Unit: &unit, IncludeRemote: &remote}}
			limit := 40
			q, err := search.ReadJobQuery(e.norm, &f, search.Page{Limit: &limit}, &sort)
			require.NoError(t, err)
			name := fmt.Sprintf("%s %d: %.4f,%.4f within %.3f km remote=%v sort=%s", round, i, lat, lng, q.Near.RadiusKm, remote, sort)
			var remoteKeys []string
			for _, fl := range q.Filters {
				if fl.Field == domain.FieldNear {
					for _, k := range fl.Keys {
						if strings.HasPrefix(k, "near_remote:") {
							remoteKeys = append(remoteKeys, k)
						}
					}
				}
			}
			want, dist := scanNear(posts, q, remoteKeys)
			for label, s := range map[string]func(domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error){
				"sql": func(q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
					return e.st.FindJobCards(e.ctx, q)
				},
				"index": func(q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
					return indexed.FindJobCards(e.ctx, q)
				},
			} {
				got := []string{}
				q := q
				for page := 0; page < 100; page++ {
					cards, total, cursors, err := s(q)
					require.NoError(t, err)
					require.Equal(t, len(want), total, "%s %s: total", name, label)
					for _, c := range cards {
						got = append(got, c.ID)
						d := dist[c.ID]
						if math.IsNaN(d) {
							assert.Nil(t, c.DistanceKm, "%s %s: %s is remote", name, label, c.ID)
						} else if assert.NotNil(t, c.DistanceKm, "%s %s: %s", name, label, c.ID) {
							assert.InDelta(t, math.Round(d*10)/10, *c.DistanceKm, 1e-9, "%s %s: distance of %s", name, label, c.ID)
						}
					}
					if len(cards) < limit {
						break
					}
					q.After = &cursors[len(cursors)-1]
				}
				if sort == domain.JobSortDistance {
					require.Equal(t, want, got, "%s %s: ids in order", name, label)
				} else {
					require.ElementsMatch(t, want, got, "%s %s: ids", name, label)
				}
			}
			if i%3 == 0 {
				g := randomFilter(r)
				g.Near = f.Near
				offset := r.IntN(3) * 5
				q, err := search.ReadJobQuery(e.norm, &g, search.Page{Limit: &limit, Offset: &offset}, &sort)
				if domain.ErrorCode(err) == domain.CodeInvalidParameter {
					continue
				}
				require.NoError(t, err)
				requireSamePages(t, e, indexed, q, name+" with other filters")
				requireSameCompanies(t, e, indexed, domain.CompanyQuery{MinJobs: 1, Limit: 20, Jobs: &q}, name)
				want, err := e.st.Facets(e.ctx, q, domain.FacetFields, 10)
				require.NoError(t, err)
				got, err := indexed.Facets(e.ctx, q, domain.FacetFields, 10)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s: facets", name)
			}
		}
	}
	check("built")
	assert.Zero(t, x.Stats().Stale)

	// Changes land in the index's delta: postings moved, closed and added.
	_, err := e.importText(`{"id":"near-1","title":"Nurse","company":"Round Rock Health","location":{"city":["Round Rock"],"state":["Texas"],"country":["United States"]},"posted_at":"2026-11-20T00:00:00Z"}
{"id":"near-2","title":"Engineer","company":"Remote Co","location":{"country":["United States"]},"work_arrangement":"remote","posted_at":"2026-11-21T00:00:00Z"}
{"id":"near-3","title":"Engineer","company":"Anywhere Co","location":{},"work_arrangement":"remote","posted_at":"2026-11-22T00:00:00Z"}
`, importer.Options{})
	require.NoError(t, err)
	ids, _, _ := e.ids(domain.JobFilter{}, ptr(5), nil, nil, nil)
	var lines []string
	for i, id := range ids[:3] {
		city := []string{"Plano", "Frisco", "Irving"}[i]
		lines = append(lines, fmt.Sprintf(`{"id":%q,"title":"Analyst","company":"Moved Co","location":{"city":[%q],"state":["Texas"],"country":["United States"]}}`, id, city))
	}
	_, err = e.importText(strings.Join(lines, "\n"), importer.Options{})
	require.NoError(t, err)
	check("delta") // the indexed store catches up with the feed before it answers
	stats := x.Stats()
	assert.Positive(t, stats.Applied, "the changes were applied to the index, not built into a new one")
	assert.Positive(t, stats.Answered)
	assert.Zero(t, stats.SQLAnswers, "every near list was the index's")
}
