// Package search is jobsd's query service: every read of the API, whatever
// its transport, is validated and normalized here, once, and read through a
// Store. The GraphQL resolvers (package graph) and the REST handlers
// (package rest) are adapters over a Service; they map its errors, which
// carry the contract's codes (domain.Error), to their transport.
package search

import (
	"context"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
	"github.com/jobsd-dev/jobsd/normalize"
)

// Store is what the service reads from (store.Store implements it).
type Store interface {
	// FindJobCards returns a page of matching cards, the exact total and
	// the cursor after the page.
	FindJobCards(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error)
	// JobByID returns a job, or an error with code not_found (gone, with
	// its closing instant, for a closed posting).
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
	SimilarJobs(ctx context.Context, id string, limit int, cardExtras bool) ([]domain.JobCard, int, error)
	// Changes returns at most limit changes of the feed after the cursor
	// (the zero cursor: from the beginning of what is kept), oldest first,
	// the cursor that follows them (where after was, on an empty page) and
	// whether more follow; a cursor older than what is kept is an error
	// with code gone.
	Changes(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error)
	// SuggestAt returns the feed position a suggestion request reads at
	// least, which the other Suggest methods take.
	SuggestAt(ctx context.Context) int64
	// SuggestCounts counts suggested values under base: for each value,
	// the total of a list of both, for at least the k largest; -1 for a
	// value not counted (index.Index.TopCounts).
	SuggestCounts(ctx context.Context, at int64, base domain.JobQuery, values []*domain.ValueFilter, k int) ([]int, error)
	// SuggestCompanies returns the names of the companies to suggest and
	// the key of their list, unless it is known (changed false).
	SuggestCompanies(ctx context.Context, at int64, known index.CompaniesKey) ([]string, index.CompaniesKey, bool, error)
	// SuggestPresent reports which values may select a job, with the key
	// of the index's set of keys, unless it is known (changed false); ok
	// false: no index, every value may.
	SuggestPresent(ctx context.Context, at int64, known index.KeysKey, values []*domain.ValueFilter) (present []bool, key index.KeysKey, changed, ok bool)
}

// Service answers the API's reads.
type Service struct {
	norm  *normalize.Normalizer
	store Store
	rates *currency.Source // nil: no rates
	// live opens subscriptions (nil: none); liveLimit counts them by key.
	live      Live
	liveLimit *keyCounts
	// suggestions are the dictionaries of suggested values.
	suggestions *suggestSources
}

// New returns the service over a normalizer and a store. The store's calls
// made under a context of WithCallLimit run at most that limit at once.
func New(norm *normalize.Normalizer, store Store, opts ...Option) *Service {
	s := &Service{norm: norm, store: boundedStore{store}, suggestions: &suggestSources{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// NeedsDatabase reports whether a job search of filter in order sort
// (nil: the default) needs the database: the in-memory index cannot answer
// a keyword search, title words outside the taxonomy or relevance order
// (index.Eligible). A filter the service refuses needs nothing.
func (s *Service) NeedsDatabase(filter *domain.JobFilter, sort *domain.JobSort) bool {
	q, err := ReadJobQuery(s.norm, filter, Page{}, sort)
	return err == nil && !index.Eligible(q)
}
