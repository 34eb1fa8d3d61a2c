//go:generate go tool gqlgen generate

// Package graph serves jobsd's GraphQL API with gqlgen. Its query resolvers
// are the one query path of the service: they validate and normalize
// arguments with package normalize and read through a JobStore; the REST
// layer calls the same resolvers.
package graph

import (
	"context"
	"log/slog"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// JobStore is what the resolvers read from (store.Store implements it).
type JobStore interface {
	// FindJobCards returns a page of matching cards, the exact total and
	// the cursor after the page.
	FindJobCards(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, *domain.Cursor, error)
	// JobByID returns a job, or an error with code not_found.
	JobByID(ctx context.Context, id string) (*domain.Job, error)
	// Companies returns a page of companies and their exact total.
	Companies(ctx context.Context, q domain.CompanyQuery) ([]domain.Company, int, error)
	// CompanyBySlug returns a company's page, or an error with code
	// not_found.
	CompanyBySlug(ctx context.Context, slug string) (*domain.CompanyProfile, error)
	// Facets counts the jobs matching q by each field's values.
	Facets(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error)
	// CompaniesByID returns the companies with the ids, by id.
	CompaniesByID(ctx context.Context, ids []int64) (map[int64]*domain.Company, error)
	// SimilarJobs returns up to limit cards similar to the job with the id
	// and how many similar jobs there are, or an error with code not_found.
	SimilarJobs(ctx context.Context, id string, limit int) ([]domain.JobCard, int, error)
}

// Resolver is the root of the GraphQL resolvers.
type Resolver struct {
	norm  *normalize.Normalizer
	store JobStore
	log   *slog.Logger
}

// NewResolver returns the resolvers over a normalizer and a store.
func NewResolver(norm *normalize.Normalizer, store JobStore, log *slog.Logger) *Resolver {
	return &Resolver{norm: norm, store: boundedStore{store}, log: log}
}

var _ ResolverRoot = (*Resolver)(nil)

// Queries are the query resolvers and the queries REST serves beyond them
// (GET /jobs/{id}/similar, which GraphQL serves as Job.similar).
type Queries interface {
	QueryResolver
	SimilarJobs(ctx context.Context, id string, limit *int) ([]domain.JobCard, int, int, error)
	PageFacets(ctx context.Context, page *domain.JobCardPage, fields []string, limit *int) ([]domain.Facet, error)
	CheckFacets(fields []string, limit *int) error
}

// Queries returns what the REST layer calls.
func (r *Resolver) Queries() Queries { return &queryResolver{r} }

// titleKnown reports whether a title intent names a category of the
// taxonomy (the in-memory index answers those searches).
func (r *Resolver) titleKnown(title string) bool {
	_, ok := r.norm.Title(title)
	return ok
}
