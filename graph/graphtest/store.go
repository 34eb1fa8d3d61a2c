// Package graphtest has a configurable fake of graph.JobStore for tests of
// the layers above the store (resolvers, REST, the HTTP server): each
// method calls its function field when set, and otherwise answers with
// nothing, or not_found for lookups of one record.
package graphtest

import (
	"context"

	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/graph/model"
)

// Store is a fake graph.JobStore.
type Store struct {
	FindJobCardsFunc  func(ctx context.Context, q model.JobQuery) ([]model.JobCard, int, *model.Cursor, error)
	JobByIDFunc       func(ctx context.Context, id string) (*model.Job, error)
	CompaniesFunc     func(ctx context.Context, q model.CompanyQuery) ([]model.Company, int, error)
	CompanyBySlugFunc func(ctx context.Context, slug string) (*model.CompanyProfile, error)
	SimilarJobsFunc   func(ctx context.Context, id string, limit int) ([]model.JobCard, int, error)
	FacetsFunc        func(ctx context.Context, q model.JobQuery, fields []string, limit int) ([]model.Facet, error)
	CompaniesByIDFunc func(ctx context.Context, ids []int64) (map[int64]*model.Company, error)
}

var _ graph.JobStore = (*Store)(nil)

// FindJobCards implements graph.JobStore.
func (s *Store) FindJobCards(ctx context.Context, q model.JobQuery) ([]model.JobCard, int, *model.Cursor, error) {
	if s.FindJobCardsFunc != nil {
		return s.FindJobCardsFunc(ctx, q)
	}
	return []model.JobCard{}, 0, nil, nil
}

// JobByID implements graph.JobStore.
func (s *Store) JobByID(ctx context.Context, id string) (*model.Job, error) {
	if s.JobByIDFunc != nil {
		return s.JobByIDFunc(ctx, id)
	}
	return nil, model.Errorf(model.CodeNotFound, "no job has id %s", id)
}

// Companies implements graph.JobStore.
func (s *Store) Companies(ctx context.Context, q model.CompanyQuery) ([]model.Company, int, error) {
	if s.CompaniesFunc != nil {
		return s.CompaniesFunc(ctx, q)
	}
	return []model.Company{}, 0, nil
}

// CompanyBySlug implements graph.JobStore.
func (s *Store) CompanyBySlug(ctx context.Context, slug string) (*model.CompanyProfile, error) {
	if s.CompanyBySlugFunc != nil {
		return s.CompanyBySlugFunc(ctx, slug)
	}
	return nil, model.Errorf(model.CodeNotFound, "no company has the slug %s", slug)
}

// SimilarJobs implements graph.JobStore.
func (s *Store) SimilarJobs(ctx context.Context, id string, limit int) ([]model.JobCard, int, error) {
	if s.SimilarJobsFunc != nil {
		return s.SimilarJobsFunc(ctx, id, limit)
	}
	return nil, 0, model.Errorf(model.CodeNotFound, "no job has id %s", id)
}

// Facets implements graph.JobStore.
func (s *Store) Facets(ctx context.Context, q model.JobQuery, fields []string, limit int) ([]model.Facet, error) {
	if s.FacetsFunc != nil {
		return s.FacetsFunc(ctx, q, fields, limit)
	}
	return []model.Facet{}, nil
}

// CompaniesByID implements graph.JobStore.
func (s *Store) CompaniesByID(ctx context.Context, ids []int64) (map[int64]*model.Company, error) {
	if s.CompaniesByIDFunc != nil {
		return s.CompaniesByIDFunc(ctx, ids)
	}
	return map[int64]*model.Company{}, nil
}
