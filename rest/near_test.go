package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// nearCard is a card of a near list, with the distance it adds.
type nearCard struct {
	domain.JobCard
	DistanceKm *float64 `json:"distance_km"`
}

// rawCards returns the cards of GET /jobs?query as JSON objects, to see
// which members they have.
func rawCards(t *testing.T, h http.Handler, query string) ([]map[string]json.RawMessage, listMeta) {
	t.Helper()
	rec := apitest.Get(t, h, "/api/v1/jobs?"+query)
	require.Equal(t, http.StatusOK, rec.Code, "%s: %s", query, rec.Body)
	var body struct {
		Data []map[string]json.RawMessage `json:"data"`
		Meta listMeta                     `json:"meta"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	return body.Data, body.Meta
}

func TestNear(t *testing.T) {
	env := apitest.New(t)
	h := env.REST()
	_, router := openAPI(t)

	// Cambridge, MA is about 5 km from Boston; nothing else of the
	// fixture is within 25 miles.
	cards, meta := rawCards(t, h, "near="+url.QueryEscape("Boston, MA")+"&radius=25mi&sort=distance")
	require.Len(t, cards, 1)
	assert.JSONEq(t, `"test-12"`, string(cards[0]["id"]))
	assert.Len(t, cards[0], 9, "the specification's eight fields and distance_km")
	var d float64
	require.NoError(t, json.Unmarshal(cards[0]["distance_km"], &d))
	assert.InDelta(t, 4.5, d, 3)
	assert.Equal(t, d, float64(int(d*10+0.5))/10, "one decimal")
	assert.Equal(t, map[string]any{"near": map[string]any{"place": "Boston, Massachusetts, United States",
		"lat": meta.Normalized["near"].(map[string]any)["lat"], "lng": meta.Normalized["near"].(map[string]any)["lng"],
		"radius_km": 40.2}}, meta.Normalized)

	// Without a point, cards keep their eight fields.
	cards, _ = rawCards(t, h, "city=Cambridge")
	require.NotEmpty(t, cards)
	for _, c := range cards {
		assert.NotContains(t, c, "distance_km")
		assert.Len(t, c, 8)
	}

	// Remote postings without a city in the point's country come last,
	// with a null distance.
	page := getJSON[list[nearCard]](t, h, "/api/v1/jobs?near=Boston&radius=10&include_remote=true&sort=distance", http.StatusOK)
	require.Len(t, page.Data, 2)
	assert.Equal(t, "test-12", page.Data[0].ID)
	assert.NotNil(t, page.Data[0].DistanceKm)
	assert.Equal(t, "test-5", page.Data[1].ID, "Remote - US")
	assert.Nil(t, page.Data[1].DistanceKm)
	cards, _ = rawCards(t, h, "near=Boston&radius=10&include_remote=true&sort=distance")
	assert.JSONEq(t, "null", string(cards[1]["distance_km"]))

	// A point given as lat and lng; the companies of a near filter.
	page = getJSON[list[nearCard]](t, h, "/api/v1/jobs?lat=42.36&lng=-71.06&radius=10km", http.StatusOK)
	assert.Equal(t, []string{"test-12"}, []string{page.Data[0].ID})
	companies := getJSON[list[domain.Company]](t, h, "/api/v1/companies?near=Boston&radius=10", http.StatusOK)
	require.Len(t, companies.Data, 1)
	assert.Equal(t, 1, companies.Data[0].JobCount)

	for _, path := range []string{
		"/jobs?near=Boston&radius=25mi&sort=distance", "/jobs?near=Boston&radius=10&include_remote=true&sort=distance&limit=1",
		"/jobs?lat=42.36&lng=-71.06&radius=12.5KM", "/companies?near=London,%20UK&radius=100", "/normalize?near=Austin,%20TX&radius=25mi",
	} {
		conforms(t, h, router, "/api/v1"+path, 200, true)
	}
	next := getJSON[list[nearCard]](t, h, "/api/v1/jobs?near=Boston&radius=10&include_remote=true&sort=distance&limit=1", http.StatusOK).Meta.NextCursor
	require.NotNil(t, next)
	page = getJSON[list[nearCard]](t, h, "/api/v1/jobs?near=Boston&radius=10&include_remote=true&sort=distance&limit=1&cursor="+*next, http.StatusOK)
	assert.Equal(t, "test-5", page.Data[0].ID, "the cursor goes on to the remote postings")

	for _, tc := range []struct{ query, param, message string }{
		{"near=Texas", "near", "names a state (Texas), not a city"},
		{"near=Canada", "near", "names a country (Canada), not a city"},
		{"near=Bostn", "near", `did you mean "Boston, Massachusetts, United States"?`},
		{"near=Boston&lat=1&lng=2", "near", "not both"},
		{"lat=42", "lng", "lat and lng go together"},
		{"lat=north&lng=2", "lat", "lat must be a number"},
		{"lat=95&lng=2", "lat", "greater than -90 and less than 90"},
		{"lat=1&lng=200", "lng", "from -180 to 180"},
		{"near=Boston&radius=0", "radius", "greater than 0"},
		{"near=Boston&radius=501km", "radius", "at most 500 km"},
		{"near=Boston&radius=311mi", "radius", "at most 500 km (310.7 mi)"},
		{"near=Boston&radius=5ft", "radius", "optional unit km or mi"},
		{"include_remote=true", "include_remote", "needs a point"},
		{"radius=5", "radius", "needs a point"},
		{"sort=distance", "sort", "sort=distance needs a point"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			e := fail(t, h, "/api/v1/jobs?"+tc.query, http.StatusBadRequest)
			assert.Equal(t, "invalid_parameter", e.Error.Code)
			assert.Equal(t, tc.param, e.Error.Param)
			assert.Contains(t, e.Error.Message, tc.message)
			conforms(t, h, router, "/api/v1/jobs?"+tc.query, 400, false)
		})
	}
}
