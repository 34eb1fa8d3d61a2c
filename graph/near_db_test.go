package graph_test

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// nearPage is a page of a near search: cards with their distance.
type nearPage struct {
	Jobs struct {
		TotalCount int `json:"totalCount"`
		Edges      []struct {
			Cursor string `json:"cursor"`
			Node   struct {
				ID         string   `json:"id"`
				DistanceKm *float64 `json:"distanceKm"`
			} `json:"node"`
		} `json:"edges"`
		Normalized struct {
			Near *struct {
				Place         *string `json:"place"`
				Lat           float64 `json:"lat"`
				Lng           float64 `json:"lng"`
				RadiusKm      float64 `json:"radiusKm"`
				IncludeRemote *bool   `json:"includeRemote"`
			} `json:"near"`
		} `json:"normalized"`
	} `json:"jobs"`
}

const nearQuery = `query($near: NearInput, $after: String) {
  jobs(filter: {near: $near}, sort: DISTANCE, first: 1, after: $after) {
    totalCount
    edges { cursor node { id distanceKm } }
    normalized { near { place lat lng radiusKm includeRemote } }
  }
}`

// TestNear: JobFilter.near, DISTANCE and distanceKm on the fast path and
// through gqlgen's executor (a fragment) alike, as REST answers them;
// the filter's errors name REST's parameters.
func TestNear(t *testing.T) {
	env := apitest.New(t)
	var served atomic.Int64
	opts := graph.HandlerOptions{}
	graph.CountFastPath(&opts, &served)
	c := gqlclient.New(env.GraphQL(opts))
	near := map[string]any{"place": "Boston, MA", "radius": 10, "unit": "KM", "includeRemote": true}

	var first, second nearPage
	before := served.Load()
	require.NoError(t, c.Post(nearQuery, &first, gqlclient.Var("near", near)))
	assert.Equal(t, before+1, served.Load(), "the fast path answers a near search")
	require.Len(t, first.Jobs.Edges, 1)
	assert.Equal(t, 2, first.Jobs.TotalCount)
	assert.Equal(t, "test-12", first.Jobs.Edges[0].Node.ID)
	require.NotNil(t, first.Jobs.Edges[0].Node.DistanceKm)
	assert.InDelta(t, 4.3, *first.Jobs.Edges[0].Node.DistanceKm, 0.5)
	n := first.Jobs.Normalized.Near
	require.NotNil(t, n)
	assert.Equal(t, "Boston, Massachusetts, United States", *n.Place)
	assert.Equal(t, 10.0, n.RadiusKm)
	assert.True(t, *n.IncludeRemote)

	require.NoError(t, c.Post(nearQuery, &second, gqlclient.Var("near", near), gqlclient.Var("after", first.Jobs.Edges[0].Cursor)))
	require.Len(t, second.Jobs.Edges, 1)
	assert.Equal(t, "test-5", second.Jobs.Edges[0].Node.ID, "the remote posting last")
	assert.Nil(t, second.Jobs.Edges[0].Node.DistanceKm)

	// The same through gqlgen's executor, and REST's answer.
	var viaFragment struct {
		Jobs struct {
			Nodes []struct {
				ID         string   `json:"id"`
				DistanceKm *float64 `json:"distanceKm"`
			} `json:"nodes"`
		} `json:"jobs"`
	}
	require.NoError(t, c.Post(`query($near: NearInput) { jobs(filter: {near: $near}, sort: DISTANCE) { nodes { ...D } } }
		fragment D on JobCard { id distanceKm }`, &viaFragment, gqlclient.Var("near", near)))
	rec := apitest.Get(t, env.REST(), "/api/v1/jobs?near=Boston,%20MA&radius=10km&include_remote=true&sort=distance")
	require.Equal(t, http.StatusOK, rec.Code)
	var rest struct {
		Data []struct {
			ID         string   `json:"id"`
			DistanceKm *float64 `json:"distance_km"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &rest))
	require.Len(t, viaFragment.Jobs.Nodes, len(rest.Data))
	for i := range rest.Data {
		assert.Equal(t, rest.Data[i].ID, viaFragment.Jobs.Nodes[i].ID)
		assert.Equal(t, rest.Data[i].DistanceKm, viaFragment.Jobs.Nodes[i].DistanceKm)
	}

	// Without near, distanceKm is null.
	var plain struct {
		Jobs struct {
			Nodes []struct {
				DistanceKm *float64 `json:"distanceKm"`
			} `json:"nodes"`
		} `json:"jobs"`
	}
	require.NoError(t, c.Post(`{ jobs(first: 5) { nodes { distanceKm } } }`, &plain))
	require.NotEmpty(t, plain.Jobs.Nodes)
	for _, node := range plain.Jobs.Nodes {
		assert.Nil(t, node.DistanceKm)
	}

	for _, tc := range []struct {
		near  map[string]any
		sort  string
		param string
	}{
		{map[string]any{"place": "Texas"}, "NEWEST", "near"},
		{map[string]any{"lat": 1.5}, "NEWEST", "lng"},
		{map[string]any{"place": "Boston", "radius": 320, "unit": "MI"}, "NEWEST", "radius"},
		{nil, "DISTANCE", "sort"},
	} {
		var out nearPage
		err := c.Post(`query($near: NearInput, $sort: JobSort) { jobs(filter: {near: $near}, sort: $sort) { totalCount } }`, &out,
			gqlclient.Var("near", tc.near), gqlclient.Var("sort", tc.sort))
		errs := errorsOf(t, err)
		assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, "%v", tc.near)
		assert.Equal(t, tc.param, errs[0].Extensions.Param, "%v", tc.near)
	}
}
