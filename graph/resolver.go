//go:generate go tool gqlgen generate

// Package graph serves jobsd's GraphQL API with gqlgen. Its query resolvers
// are the one query path of the service: they validate and normalize
// arguments with package normalize and read through a JobStore; the REST
// layer calls the same resolvers.
package graph

import (
	"context"
	"log/slog"

	"github.com/jobsd-dev/jobsd/graph/model"
	"github.com/jobsd-dev/jobsd/normalize"
)

// JobStore is what the resolvers read from (store.Store implements it).
type JobStore interface {
	// FindJobCards returns a page of matching cards, the exact total and
	// the cursor after the page.
	FindJobCards(ctx context.Context, q model.JobQuery) ([]model.JobCard, int, *model.Cursor, error)
	// JobByID returns a job, or an error with code not_found.
	JobByID(ctx context.Context, id string) (*model.Job, error)
	// Companies returns a page of companies and their exact total.
	Companies(ctx context.Context, q model.CompanyQuery) ([]model.Company, int, error)
	// CompanyBySlug returns a company's page, or an error with code
	// not_found.
	CompanyBySlug(ctx context.Context, slug string) (*model.CompanyProfile, error)
	// Facets counts the jobs matching q by each field's values.
	Facets(ctx context.Context, q model.JobQuery, fields []string, limit int) ([]model.Facet, error)
	// CompaniesByID returns the companies with the ids, by id.
	CompaniesByID(ctx context.Context, ids []int64) (map[int64]*model.Company, error)
	// SimilarJobs returns up to limit cards similar to the job with the id
	// and how many similar jobs there are, or an error with code not_found.
	SimilarJobs(ctx context.Context, id string, limit int) ([]model.JobCard, int, error)
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
	SimilarJobs(ctx context.Context, id string, limit *int) ([]model.JobCard, int, int, error)
	PageFacets(ctx context.Context, page *model.JobCardPage, fields []string, limit *int) ([]model.Facet, error)
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
