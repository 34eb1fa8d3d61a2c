package graph_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/client"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestTypedClient runs the typed client's operations (package client)
// against the GraphQL endpoint over a real database.
func TestTypedClient(t *testing.T) {
	srv := httptest.NewServer(apitest.New(t).GraphQL(graph.HandlerOptions{}))
	t.Cleanup(srv.Close)
	c := client.New(srv.URL, "")
	ctx := context.Background()

	page, err := client.SearchJobs(ctx, c, &client.JobFilter{Skills: []string{"golang"}, City: ptr("SF")}, nil, nil, nil,
		[]client.FacetField{client.FacetFieldWorkArrangement})
	require.NoError(t, err)
	assert.Equal(t, 2, page.Jobs.TotalCount)
	require.Len(t, page.Jobs.Edges, 2)
	assert.False(t, page.Jobs.PageInfo.HasNextPage)
	assert.False(t, page.Jobs.PageInfo.HasPreviousPage)
	assert.Equal(t, page.Jobs.Edges[0].Cursor, *page.Jobs.PageInfo.StartCursor)
	assert.Equal(t, page.Jobs.Edges[1].Cursor, *page.Jobs.PageInfo.EndCursor)
	first := page.Jobs.Edges[0].Node
	assert.Equal(t, "test-1", first.Id)
	assert.Equal(t, client.WorkArrangementOnsite, *first.WorkArrangement)
	assert.Equal(t, "San Francisco, California, United States", first.Location.Full)
	assert.Equal(t, 200000.0, *first.Salary.Max)
	require.Len(t, page.Jobs.Facets, 1)
	assert.Equal(t, client.FacetFieldWorkArrangement, page.Jobs.Facets[0].Field)
	assert.Len(t, page.Jobs.Facets[0].Values, 2, "onsite and remote among SF Go jobs")

	assert.Nil(t, first.DistanceKm, "no distance without near")

	// Suggestions: Go among the skills "gol" completes to, in SF, with
	// the count of the SF Go jobs above.
	sugg, err := client.Suggest(ctx, c, client.SuggestFieldSkills, "gol", &client.JobFilter{City: ptr("SF")}, nil)
	require.NoError(t, err)
	require.NotEmpty(t, sugg.Suggest)
	assert.Equal(t, "Go", sugg.Suggest[0].Value)
	assert.Equal(t, 2, sugg.Suggest[0].Count)
	assert.Equal(t, []string{"Go"}, sugg.Suggest[0].Filter.Skills)

	// Near a place, nearest first, with the distance.
	sort := client.JobSortDistance
	near, err := client.SearchJobs(ctx, c, &client.JobFilter{Near: &client.NearInput{Place: ptr("Boston"), Radius: ptr(25.0),
		Unit: ptr(client.DistanceUnitMi)}}, nil, nil, &sort, nil)
	require.NoError(t, err)
	require.Len(t, near.Jobs.Edges, 1)
	assert.Equal(t, "test-12", near.Jobs.Edges[0].Node.Id, "Cambridge, MA")
	require.NotNil(t, near.Jobs.Edges[0].Node.DistanceKm)
	assert.Less(t, *near.Jobs.Edges[0].Node.DistanceKm, 10.0)

	// The search page walks every job with cursors.
	var ids []string
	var after *string
	for {
		page, err := client.SearchJobs(ctx, c, nil, ptr(5), after, nil, nil)
		require.NoError(t, err)
		assert.Equal(t, after != nil, page.Jobs.PageInfo.HasPreviousPage)
		for _, e := range page.Jobs.Edges {
			ids = append(ids, e.Node.Id)
		}
		if !page.Jobs.PageInfo.HasNextPage {
			break
		}
		after = page.Jobs.PageInfo.EndCursor
	}
	assert.Equal(t, apitest.AllIDs, ids)

	job, err := client.JobDetail(ctx, c, "test-6")
	require.NoError(t, err)
	require.NotNil(t, job.Job)
	assert.Equal(t, []string{"Top Secret/SCI"}, job.Job.SecurityClearances)
	assert.Equal(t, []string{"EKS", "Terraform", "AWS"}, job.Job.Skills)
	missing, err := client.JobDetail(ctx, c, "test-404")
	require.NoError(t, err)
	assert.Nil(t, missing.Job)

	companies, err := client.Companies(ctx, c, ptr(2), ptr(1), nil)
	require.NoError(t, err)
	assert.Equal(t, 4, companies.Companies.TotalCount)
	require.Len(t, companies.Companies.Edges, 1)
	assert.Equal(t, "Acme Cloud", companies.Companies.Edges[0].Node.Name)
	assert.Equal(t, "company:acme-cloud", companies.Companies.Edges[0].Node.Id)
	assert.Equal(t, 3, companies.Companies.Edges[0].Node.JobCount)
	next, err := client.Companies(ctx, c, ptr(2), ptr(1), companies.Companies.PageInfo.EndCursor)
	require.NoError(t, err)
	require.Len(t, next.Companies.Edges, 1)
	assert.NotEqual(t, "Acme Cloud", next.Companies.Edges[0].Node.Name, "after the first company, the second")

	acme, err := client.CompanyPage(ctx, c, "acme-cloud", ptr(2), nil)
	require.NoError(t, err)
	require.NotNil(t, acme.Company)
	assert.Equal(t, 3, acme.Company.Jobs.TotalCount)
	assert.Len(t, acme.Company.Jobs.Edges, 2)
	assert.True(t, acme.Company.Jobs.PageInfo.HasNextPage)
	assert.Len(t, acme.Company.ByWorkArrangement, 3)
	none, err := client.CompanyPage(ctx, c, "nobody", nil, nil)
	require.NoError(t, err)
	assert.Nil(t, none.Company)

	_, err = client.SearchJobs(ctx, c, nil, ptr(0), nil, nil, nil)
	require.Error(t, err, "errors reach the caller")
	assert.Contains(t, err.Error(), "first")
}
