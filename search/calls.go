package search

import (
	"context"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// callLimitKey marks a context with the slots of the store calls of one
// request.
type callLimitKey struct{}

// WithCallLimit returns a context under which the service's store calls
// run at most n at once: a GraphQL request resolves its root fields side
// by side, and without the bound one request with ten root fields would
// hold ten database connections.
func WithCallLimit(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, callLimitKey{}, make(chan struct{}, max(n, 1)))
}

// boundedStore is a Store whose calls under a context of WithCallLimit
// take one of its slots while they run.
type boundedStore struct{ inner Store }

var _ Store = boundedStore{}

// enter waits for one of the context's slots and returns its release.
func enter(ctx context.Context) (func(), error) {
	slots, _ := ctx.Value(callLimitKey{}).(chan struct{})
	if slots == nil {
		return func() {}, nil
	}
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// FindJobCards implements Store.
func (s boundedStore) FindJobCards(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, 0, nil, err
	}
	defer leave()
	return s.inner.FindJobCards(ctx, q)
}

// JobByID implements Store.
func (s boundedStore) JobByID(ctx context.Context, id string) (*domain.Job, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.JobByID(ctx, id)
}

// Companies implements Store.
func (s boundedStore) Companies(ctx context.Context, q domain.CompanyQuery) ([]domain.Company, int, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer leave()
	return s.inner.Companies(ctx, q)
}

// CompanyBySlug implements Store.
func (s boundedStore) CompanyBySlug(ctx context.Context, slug string) (*domain.CompanyProfile, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.CompanyBySlug(ctx, slug)
}

// Facets implements Store.
func (s boundedStore) Facets(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.Facets(ctx, q, fields, limit)
}

// CompaniesByID implements Store.
func (s boundedStore) CompaniesByID(ctx context.Context, ids []int64) (map[int64]*domain.Company, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.CompaniesByID(ctx, ids)
}

// SimilarJobs implements Store.
func (s boundedStore) SimilarJobs(ctx context.Context, id string, limit int, cardExtras bool) ([]domain.JobCard, int, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer leave()
	return s.inner.SimilarJobs(ctx, id, limit, cardExtras)
}

// Changes implements Store.
func (s boundedStore) Changes(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, after, false, err
	}
	defer leave()
	return s.inner.Changes(ctx, after, limit)
}

// SuggestCounts implements Store.
func (s boundedStore) SuggestCounts(ctx context.Context, at int64, base domain.JobQuery, values []*domain.ValueFilter, k int) ([]int, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.SuggestCounts(ctx, at, base, values, k)
}

// SuggestCompanies implements Store.
func (s boundedStore) SuggestCompanies(ctx context.Context, at int64, known index.CompaniesKey) ([]string, index.CompaniesKey, bool, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, known, false, err
	}
	defer leave()
	return s.inner.SuggestCompanies(ctx, at, known)
}

// SuggestPresent implements Store. It reads no database, and takes no
// slot.
func (s boundedStore) SuggestPresent(ctx context.Context, at int64, known index.KeysKey, values []*domain.ValueFilter) ([]bool, index.KeysKey, bool, bool) {
	return s.inner.SuggestPresent(ctx, at, known, values)
}

// SuggestAt implements Store.
func (s boundedStore) SuggestAt(ctx context.Context) int64 {
	leave, err := enter(ctx)
	if err != nil {
		return -1
	}
	defer leave()
	return s.inner.SuggestAt(ctx)
}
