package search_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

// TestReadJobQuery: a search's page, order and cursor, read around the
// filter normalize reads.
func TestReadJobQuery(t *testing.T) {
	n, err := normalize.New()
	require.NoError(t, err)
	read := func(f *domain.JobFilter, p search.Page, sort *domain.JobSort) (domain.JobQuery, error) {
		return search.ReadJobQuery(n, f, p, sort)
	}
	q, err := read(nil, search.Page{}, nil)
	require.NoError(t, err)
	assert.Equal(t, search.DefaultJobLimit, q.Limit)
	assert.Equal(t, domain.JobSortNewest, q.Sort, "newest without q (contract section 3)")
	q, err = read(nil, search.Page{Limit: ptr(500)}, nil)
	require.NoError(t, err)
	assert.Equal(t, 100, q.Limit, "clamped")
	q, err = read(nil, search.Page{First: ptr(7), Offset: ptr(3)}, nil)
	require.NoError(t, err)
	assert.Equal(t, 7, q.Limit, "first is limit's other name")
	assert.Equal(t, 3, q.Offset)

	keyword := "go"
	q, err = read(&domain.JobFilter{Q: &keyword}, search.Page{}, nil)
	require.NoError(t, err)
	assert.Equal(t, domain.JobSortRelevance, q.Sort, "relevance is the default with q (issue 6)")
	q, err = read(&domain.JobFilter{Q: &keyword}, search.Page{}, ptr(domain.JobSortNewest))
	require.NoError(t, err)
	assert.Equal(t, domain.JobSortNewest, q.Sort, "sort overrides it")

	// A relevance cursor carries the next page's offset.
	cur := domain.Cursor{Sort: domain.JobSortRelevance, ID: "job-1", Offset: 25}.Encode()
	q, err = read(&domain.JobFilter{Q: &keyword}, search.Page{After: &cur}, nil)
	require.NoError(t, err)
	assert.Equal(t, 25, q.Offset)
	assert.Nil(t, q.After, "relevance has no key to seek")

	for _, tc := range []struct {
		name   string
		filter *domain.JobFilter
		page   search.Page
		sort   *domain.JobSort
		param  string
	}{
		{"limit 0", nil, search.Page{Limit: ptr(0)}, nil, "limit"},
		{"negative offset", nil, search.Page{Offset: ptr(-1)}, nil, "offset"},
		{"first 0", nil, search.Page{First: ptr(0)}, nil, "first"},
		{"first and limit", nil, search.Page{First: ptr(5), Limit: ptr(5)}, nil, "first"},
		{"cursor and offset", nil, search.Page{After: &cur, Offset: ptr(5)}, nil, "cursor"},
		{"a relevance cursor is not a newest one", &domain.JobFilter{Q: &keyword}, search.Page{After: &cur}, ptr(domain.JobSortNewest), "cursor"},
		{"not a cursor", nil, search.Page{After: ptr("nope")}, nil, "cursor"},
		{"an unknown sort", nil, search.Page{}, ptr(domain.JobSort("best")), "sort"},
		{"relevance without q", nil, search.Page{}, ptr(domain.JobSortRelevance), "sort"},
		{"distance without a point", nil, search.Page{}, ptr(domain.JobSortDistance), "sort"},
		// The page is read before the filter: of the two, the limit is named.
		{"a bad limit and a bad filter", &domain.JobFilter{EmploymentType: []string{"gig"}}, search.Page{Limit: ptr(0)}, nil, "limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(tc.filter, tc.page, tc.sort)
			require.Error(t, err)
			assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
			assert.Equal(t, tc.param, domain.ErrorParam(err))
		})
	}
	_, err = read(nil, search.Page{}, ptr(domain.JobSortDistance))
	assert.ErrorContains(t, err, "sort=distance needs a point")
}

// TestCompaniesPage: a company list's page, with Relay's rule and the
// cursor read before the values' bounds.
func TestCompaniesPage(t *testing.T) {
	var got domain.CompanyQuery
	svc := newService(t, &searchtest.Store{CompaniesFunc: func(_ context.Context, q domain.CompanyQuery) ([]domain.Company, int, error) {
		got = q
		return nil, 0, nil
	}})
	ctx := context.Background()
	_, err := svc.Companies(ctx, search.CompaniesRequest{})
	require.NoError(t, err)
	assert.Equal(t, domain.CompanyQuery{MinJobs: 1, Limit: search.DefaultCompanyLimit}, got)
	cur := domain.OffsetCursor(10).Encode()
	_, err = svc.Companies(ctx, search.CompaniesRequest{Page: search.Page{First: ptr(5), After: &cur}})
	require.NoError(t, err)
	assert.Equal(t, 5, got.Limit)
	assert.Equal(t, 10, got.Offset, "the item after the cursor's")
	for _, tc := range []struct {
		name  string
		page  search.Page
		param string
	}{
		{"a bad cursor before a bad limit", search.Page{Limit: ptr(0), After: ptr("abc")}, "cursor"},
		{"cursor and offset", search.Page{Offset: ptr(3), After: &cur}, "cursor"},
		{"first and limit", search.Page{First: ptr(1), Limit: ptr(1), After: ptr("abc")}, "first"},
		{"a negative offset", search.Page{Offset: ptr(-1)}, "offset"},
	} {
		_, err := svc.Companies(ctx, search.CompaniesRequest{Page: tc.page})
		assert.Equal(t, tc.param, domain.ErrorParam(err), tc.name)
	}
}
