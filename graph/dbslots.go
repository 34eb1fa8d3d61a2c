package graph

import (
	"context"

	"github.com/jobsd-dev/jobsd/domain"
)

// boundedStore is a JobStore whose calls made for one GraphQL request run
// at most that request's database slots at once (gqlgen resolves the root
// fields of a query side by side: without the bound, one request with ten
// root fields would hold ten connections). Calls outside a GraphQL request
// (REST, tests) are not bounded here.
type boundedStore struct{ inner JobStore }

var _ JobStore = boundedStore{}

// dbSlots returns the slots of the request ctx belongs to, or nil.
func dbSlots(ctx context.Context) chan struct{} {
	if l, ok := ctx.Value(loadersKey{}).(*loaders); ok {
		return l.dbSlots
	}
	return nil
}

// enter waits for one of the request's slots and returns its release.
func enter(ctx context.Context) (func(), error) {
	slots := dbSlots(ctx)
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

// FindJobCards implements JobStore.
func (s boundedStore) FindJobCards(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, *domain.Cursor, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, 0, nil, err
	}
	defer leave()
	return s.inner.FindJobCards(ctx, q)
}

// JobByID implements JobStore.
func (s boundedStore) JobByID(ctx context.Context, id string) (*domain.Job, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.JobByID(ctx, id)
}

// Companies implements JobStore.
func (s boundedStore) Companies(ctx context.Context, q domain.CompanyQuery) ([]domain.Company, int, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer leave()
	return s.inner.Companies(ctx, q)
}

// CompanyBySlug implements JobStore.
func (s boundedStore) CompanyBySlug(ctx context.Context, slug string) (*domain.CompanyProfile, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.CompanyBySlug(ctx, slug)
}

// Facets implements JobStore.
func (s boundedStore) Facets(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.Facets(ctx, q, fields, limit)
}

// CompaniesByID implements JobStore.
func (s boundedStore) CompaniesByID(ctx context.Context, ids []int64) (map[int64]*domain.Company, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.inner.CompaniesByID(ctx, ids)
}

// SimilarJobs implements JobStore.
func (s boundedStore) SimilarJobs(ctx context.Context, id string, limit int) ([]domain.JobCard, int, error) {
	leave, err := enter(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer leave()
	return s.inner.SimilarJobs(ctx, id, limit)
}
