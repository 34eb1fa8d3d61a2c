package search_test

import (
	"context"
	"encoding/base64"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

func newService(t *testing.T, st *searchtest.Store) *search.Service {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	return search.New(norm, st)
}

func ptr[T any](v T) *T { return &v }

// TestJobsNormalizesOnce: the store gets the normalized query, and a bad
// argument is refused with its code before the store is asked.
func TestJobsNormalizesOnce(t *testing.T) {
	var got []domain.JobQuery
	st := &searchtest.Store{FindJobCardsFunc: func(_ context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
		got = append(got, q)
		return []domain.JobCard{{ID: "a-1"}}, 3, []domain.Cursor{{ID: "a-1", Offset: 1}}, nil
	}}
	svc := newService(t, st)
	tests := []struct {
		name   string
		filter *domain.JobFilter
		limit  *int
		code   string
	}{
		{"skills by alias", &domain.JobFilter{Skills: []string{"golang", "k8s"}}, nil, ""},
		{"limit below 1", nil, ptr(0), domain.CodeInvalidParameter},
		{"an unknown employment type", &domain.JobFilter{EmploymentType: []string{"sometimes"}}, nil, domain.CodeInvalidParameter},
		{"an unknown work arrangement", &domain.JobFilter{WorkArrangement: []domain.WorkArrangement{"SOMETIMES"}}, nil, domain.CodeInvalidParameter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			page, err := svc.Jobs(context.Background(), search.JobsRequest{Filter: tt.filter, Page: search.Page{Limit: tt.limit}})
			if tt.code != "" {
				assert.Equal(t, tt.code, domain.ErrorCode(err))
				assert.Empty(t, got, "the store was asked")
				return
			}
			require.NoError(t, err)
			require.Len(t, got, 1)
			cursor := domain.Cursor{ID: "a-1", Offset: 1}.Encode()
			assert.Equal(t, domain.PageInfo{Total: 3, Limit: 25, Offset: 0, HasMore: true, EndCursor: &cursor, StartCursor: &cursor}, page.PageInfo,
				"one card: its cursor starts and ends the page")
			assert.Equal(t, []string{"Go", "Kubernetes"}, page.Normalized.Skills)
		})
	}

	got = nil
	_, err := svc.CompanyJobs(context.Background(), 7, search.JobsRequest{})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, int64(7), *got[0].CompanyID, "a company's jobs")
}

// TestRecordsValidate: ids, slugs and sizes are checked before the store is
// asked, and the store's not_found comes back as it is.
func TestRecordsValidate(t *testing.T) {
	var asked atomic.Int64
	st := &searchtest.Store{
		JobByIDFunc: func(_ context.Context, id string) (*domain.Job, error) {
			asked.Add(1)
			return nil, domain.Errorf(domain.CodeNotFound, "no job has id %s", id)
		},
		CompanyBySlugFunc: func(_ context.Context, slug string) (*domain.CompanyProfile, error) {
			asked.Add(1)
			return &domain.CompanyProfile{Slug: slug}, nil
		},
		SimilarJobsFunc: func(_ context.Context, _ string, limit int) ([]domain.JobCard, int, error) {
			asked.Add(1)
			return make([]domain.JobCard, min(limit, 3)), 80, nil
		},
	}
	svc := newService(t, st)
	ctx := context.Background()

	_, err := svc.Job(ctx, "not an id")
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
	assert.Zero(t, asked.Load())
	_, err = svc.Job(ctx, "a-1")
	assert.Equal(t, domain.CodeNotFound, domain.ErrorCode(err))

	_, err = svc.Company(ctx, nil, nil)
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err), "neither slug nor name")
	_, err = svc.Company(ctx, ptr("acme"), ptr("Acme"))
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err), "both")
	c, err := svc.Company(ctx, nil, ptr("Acme Corp"))
	require.NoError(t, err)
	assert.Equal(t, fold.Slug("Acme Corp"), c.Slug, "a name is looked up by its slug")

	_, err = svc.Similar(ctx, "a-1", ptr(0), false)
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
	page, err := svc.Similar(ctx, "a-1", ptr(500), false)
	require.NoError(t, err)
	assert.Equal(t, search.MaxSimilar, page.Limit)
	assert.Equal(t, 80, page.Total)
}

// TestFacetsAreCheckedBeforeTheSearch: a facet request is validated before
// the search runs, and counting passes the normalized fields on, in one
// call of Jobs (REST) or by Facets over a page (GraphQL).
func TestFacetsAreCheckedBeforeTheSearch(t *testing.T) {
	var fields []string
	var limit int
	var searched int
	st := &searchtest.Store{
		FacetsFunc: func(_ context.Context, _ domain.JobQuery, f []string, l int) ([]domain.Facet, error) {
			fields, limit = f, l
			return nil, nil
		},
		FindJobCardsFunc: func(context.Context, domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
			searched++
			return nil, 0, nil, nil
		},
	}
	svc := newService(t, st)
	ctx := context.Background()
	_, err := svc.Jobs(ctx, search.JobsRequest{Facets: []string{"skills", "nope"}})
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
	_, err = svc.Jobs(ctx, search.JobsRequest{Facets: []string{"skills"}, FacetLimit: ptr(0)})
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
	assert.Zero(t, searched, "refused before the search")

	page, err := svc.Jobs(ctx, search.JobsRequest{Facets: []string{" Skills ", "city", "skills"}, FacetLimit: ptr(500)})
	require.NoError(t, err)
	assert.NotNil(t, page.FacetCounts, "asked for")
	assert.Equal(t, []string{"skills", "city"}, fields)
	assert.Equal(t, search.MaxFacetLimit, limit)

	page, err = svc.Jobs(ctx, search.JobsRequest{Facets: []string{" "}})
	require.NoError(t, err)
	assert.Nil(t, page.FacetCounts, "a blank field asks for none")
	page, err = svc.Jobs(ctx, search.JobsRequest{FacetLimit: ptr(3)})
	require.NoError(t, err)
	assert.Equal(t, []domain.Facet{}, page.FacetCounts, "a limit alone asks for none, shown empty")

	fields = nil
	_, err = svc.Facets(ctx, page, []string{"nope"}, nil)
	assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
	_, err = svc.Facets(ctx, page, []string{"country"}, ptr(2))
	require.NoError(t, err)
	assert.Equal(t, []string{"country"}, fields)
	assert.Equal(t, 2, limit)
}

// TestCallLimit: under WithCallLimit, the service's store calls run at most
// that many at once; without it, unbounded.
func TestCallLimit(t *testing.T) {
	var running, most atomic.Int64
	st := &searchtest.Store{JobByIDFunc: func(context.Context, string) (*domain.Job, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		return &domain.Job{}, nil
	}}
	svc := newService(t, st)
	for _, c := range []struct {
		ctx  context.Context
		want int64
	}{
		{search.WithCallLimit(context.Background(), 2), 2},
		{context.Background(), 0}, // unbounded: more than 2
	} {
		most.Store(0)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				_, err := svc.Job(c.ctx, "a-1")
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		if c.want == 0 {
			assert.Greater(t, most.Load(), int64(2))
			continue
		}
		assert.Equal(t, c.want, most.Load())
	}
}

// TestChangesValidate: the feed's limit and cursor are checked before the
// store is asked, and the store's cursors chain the pages, also at the
// end of the feed.
func TestChangesValidate(t *testing.T) {
	at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	feed := []domain.Change{
		{Seq: 3, ID: "a-1", Change: domain.ChangeOpened, At: at},
		{Seq: 5, ID: "a-2", Change: domain.ChangeOpened, At: at},
		{Seq: 9, ID: "a-1", Change: domain.ChangeClosed, At: at.Add(time.Second)},
	}
	// A purge made epoch 1 and removed what came before seq 2.
	const epoch, horizon = 1, 2
	var asked []domain.FeedCursor
	var limits []int
	st := &searchtest.Store{
		ChangesFunc: func(_ context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
			asked, limits = append(asked, after), append(limits, limit)
			if after.Seq > 0 && after.Epoch < epoch && after.Seq < horizon {
				return nil, after, false, domain.Errorf(domain.CodeGone, "the cursor is older than the feed kept")
			}
			var out []domain.Change
			for _, c := range feed {
				if c.Seq > after.Seq {
					out = append(out, c)
				}
			}
			more := len(out) > limit
			if more {
				out = out[:limit]
			}
			next := domain.FeedCursor{Seq: after.Seq, Epoch: epoch}
			if len(out) > 0 {
				next.Seq = out[len(out)-1].Seq
			}
			return out, next, more, nil
		},
	}
	svc := newService(t, st)
	ctx := context.Background()
	encoded := func(s string) *string { return ptr(base64.RawURLEncoding.EncodeToString([]byte(s))) }

	for _, tc := range []struct {
		name  string
		after *string
		limit *int
		param string
	}{
		{"limit 0", nil, ptr(0), "limit"},
		{"negative limit", nil, ptr(-3), "limit"},
		{"not base64", ptr("%%%"), nil, "after"},
		{"a job list's cursor", ptr(domain.Cursor{ID: "a-1", Offset: 3}.Encode()), nil, "after"},
		{"no number", encoded("changes:x:1"), nil, "after"},
		{"no epoch", encoded("changes:7"), nil, "after"},
		{"a negative seq", encoded("changes:-1:1"), nil, "after"},
		{"another spelling", encoded("changes:007:1"), nil, "after"},
		{"padded", ptr(base64.URLEncoding.EncodeToString([]byte("changes:17:10"))), nil, "after"},
		{"empty", ptr(""), nil, "after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked = nil
			_, err := svc.Changes(ctx, tc.after, tc.limit)
			assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
			assert.Equal(t, tc.param, domain.ErrorParam(err))
			assert.Empty(t, asked, "the store was asked")
		})
	}

	asked = nil
	page, err := svc.Changes(ctx, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, []domain.FeedCursor{{}}, asked, "no cursor: the beginning")
	assert.Equal(t, search.DefaultChangeLimit, page.PageInfo.Limit)
	assert.Equal(t, feed, page.Nodes)
	assert.False(t, page.PageInfo.HasMore)
	assert.Equal(t, domain.FeedCursor{Seq: 9, Epoch: epoch}.Encode(), page.PageInfo.NextCursor)

	_, err = svc.Changes(ctx, nil, ptr(5000))
	require.NoError(t, err)
	assert.Equal(t, search.MaxChangeLimit, limits[len(limits)-1], "clamped")

	// Pages of 2 chain without a skip or a repeat; the last, empty page
	// gives back its own cursor, to poll with.
	var seen []domain.Change
	var after *string
	for range 3 {
		page, err := svc.Changes(ctx, after, ptr(2))
		require.NoError(t, err)
		seen = append(seen, page.Nodes...)
		after = &page.PageInfo.NextCursor
		if !page.PageInfo.HasMore {
			break
		}
	}
	assert.Equal(t, feed, seen)
	page, err = svc.Changes(ctx, ptr(" "+*after+" "), ptr(2))
	require.NoError(t, err)
	assert.Equal(t, []domain.Change{}, page.Nodes)
	assert.Equal(t, *after, page.PageInfo.NextCursor)

	_, err = svc.Changes(ctx, ptr(domain.FeedCursor{Seq: 1}.Encode()), nil)
	assert.Equal(t, domain.CodeGone, domain.ErrorCode(err), "older than kept")
}
