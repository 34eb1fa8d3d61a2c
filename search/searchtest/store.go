// Package searchtest has a configurable fake of search.Store for tests of
// the layers above the store (the service, resolvers, REST, the HTTP
// server): each method calls its function field when set, and otherwise
// answers with nothing, or not_found for lookups of one record.
package searchtest

import (
	"context"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
	"github.com/jobsd-dev/jobsd/search"
)

// Store is a fake search.Store.
type Store struct {
	FindJobCardsFunc  func(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error)
	JobByIDFunc       func(ctx context.Context, id string) (*domain.Job, error)
	CompaniesFunc     func(ctx context.Context, q domain.CompanyQuery) ([]domain.Company, int, error)
	CompanyBySlugFunc func(ctx context.Context, slug string) (*domain.CompanyProfile, error)
	SimilarJobsFunc   func(ctx context.Context, id string, limit int) ([]domain.JobCard, int, error)
	FacetsFunc        func(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error)
	CompaniesByIDFunc func(ctx context.Context, ids []int64) (map[int64]*domain.Company, error)
	ChangesFunc       func(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error)
	SuggestCountsFunc func(ctx context.Context, base domain.JobQuery, values []*domain.ValueFilter, k int) ([]int, error)
}

var _ search.Store = (*Store)(nil)

// FindJobCards implements search.Store.
func (s *Store) FindJobCards(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
	if s.FindJobCardsFunc != nil {
		return s.FindJobCardsFunc(ctx, q)
	}
	return []domain.JobCard{}, 0, nil, nil
}

// JobByID implements search.Store.
func (s *Store) JobByID(ctx context.Context, id string) (*domain.Job, error) {
	if s.JobByIDFunc != nil {
		return s.JobByIDFunc(ctx, id)
	}
	return nil, domain.Errorf(domain.CodeNotFound, "no job has id %s", domain.Clip(id))
}

// Companies implements search.Store.
func (s *Store) Companies(ctx context.Context, q domain.CompanyQuery) ([]domain.Company, int, error) {
	if s.CompaniesFunc != nil {
		return s.CompaniesFunc(ctx, q)
	}
	return []domain.Company{}, 0, nil
}

// CompanyBySlug implements search.Store.
func (s *Store) CompanyBySlug(ctx context.Context, slug string) (*domain.CompanyProfile, error) {
	if s.CompanyBySlugFunc != nil {
		return s.CompanyBySlugFunc(ctx, slug)
	}
	return nil, domain.Errorf(domain.CodeNotFound, "no company has the slug %s", domain.Clip(slug))
}

// SimilarJobs implements search.Store.
func (s *Store) SimilarJobs(ctx context.Context, id string, limit int, _ bool) ([]domain.JobCard, int, error) {
	if s.SimilarJobsFunc != nil {
		return s.SimilarJobsFunc(ctx, id, limit)
	}
	return nil, 0, domain.Errorf(domain.CodeNotFound, "no job has id %s", domain.Clip(id))
}

// Facets implements search.Store.
func (s *Store) Facets(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error) {
	if s.FacetsFunc != nil {
		return s.FacetsFunc(ctx, q, fields, limit)
	}
	return []domain.Facet{}, nil
}

// CompaniesByID implements search.Store.
func (s *Store) CompaniesByID(ctx context.Context, ids []int64) (map[int64]*domain.Company, error) {
	if s.CompaniesByIDFunc != nil {
		return s.CompaniesByIDFunc(ctx, ids)
	}
	return map[int64]*domain.Company{}, nil
}

// Changes implements search.Store.
func (s *Store) Changes(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	if s.ChangesFunc != nil {
		return s.ChangesFunc(ctx, after, limit)
	}
	return []domain.Change{}, after, false, nil
}

// SuggestCounts implements search.Store: every value counts 0 unless
// SuggestCountsFunc says otherwise.
func (s *Store) SuggestCounts(ctx context.Context, _ int64, base domain.JobQuery, values []*domain.ValueFilter, k int) ([]int, error) {
	if s.SuggestCountsFunc != nil {
		return s.SuggestCountsFunc(ctx, base, values, k)
	}
	return make([]int, len(values)), nil
}

// SuggestCompanies implements search.Store: no company.
func (s *Store) SuggestCompanies(context.Context, int64, index.CompaniesKey) ([]string, index.CompaniesKey, bool, error) {
	return nil, index.CompaniesKey{}, true, nil
}

// SuggestPresent implements search.Store: no index.
func (s *Store) SuggestPresent(_ context.Context, _ int64, known index.KeysKey, _ []*domain.ValueFilter) ([]bool, index.KeysKey, bool, bool) {
	return nil, known, false, false
}

// SuggestAt implements search.Store: no index.
func (s *Store) SuggestAt(context.Context) int64 { return -1 }
