package search

import (
	"context"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// Job returns one job in full; an id not shaped <source>-<number> is
// invalid_parameter, an unknown one not_found.
func (s *Service) Job(ctx context.Context, id string) (*domain.Job, error) {
	if !normalize.ValidJobID(id) {
		return nil, badJobID(id)
	}
	return s.store.JobByID(ctx, id)
}

// CompaniesRequest is a company list request: the companies with at
// least MinJobs jobs (those matching Filter, when given), a page of them.
type CompaniesRequest struct {
	Filter  *domain.JobFilter
	MinJobs *int
	// Page pages by offset; its After is an edge cursor of the list.
	Page Page
}

// Companies returns a page of the companies the request selects, by job
// count, then name.
func (s *Service) Companies(ctx context.Context, req CompaniesRequest) (*domain.CompanyPage, error) {
	q, err := readCompanyQuery(s.norm, req)
	if err != nil {
		return nil, err
	}
	if q.Jobs != nil {
		if err := s.withRates(q.Jobs); err != nil {
			return nil, err
		}
	}
	companies, total, err := s.store.Companies(ctx, q)
	if err != nil {
		return nil, err
	}
	page := &domain.CompanyPage{Nodes: companies, PageInfo: pageInfo(total, q.Limit, q.Offset, len(companies))}
	if n := len(companies); n > 0 {
		start, end := domain.OffsetCursor(q.Offset+1).Encode(), domain.OffsetCursor(q.Offset+n).Encode()
		page.PageInfo.StartCursor, page.PageInfo.EndCursor = &start, &end
	}
	if q.Jobs != nil {
		page.Normalized = q.Jobs.Normalized
	}
	return page, nil
}

// Company returns a company's page by its slug or its name (exactly one of
// them given), or not_found.
func (s *Service) Company(ctx context.Context, slug, name *string) (*domain.CompanyProfile, error) {
	if (slug == nil) == (name == nil) {
		return nil, domain.InvalidParam("slug", "give the company's slug or its name, one of them")
	}
	key := slug
	if name != nil {
		key = name
	}
	return s.store.CompanyBySlug(ctx, fold.Slug(*key))
}

// CompaniesByID returns the companies with the ids, by id (a page's
// employers, in one read).
func (s *Service) CompaniesByID(ctx context.Context, ids []int64) (map[int64]*domain.Company, error) {
	return s.store.CompaniesByID(ctx, ids)
}

// Sizes of similar-job lists.
const (
	// DefaultSimilar is the size of a list of similar jobs by default.
	DefaultSimilar = 10
	// MaxSimilar is the longest list of similar jobs.
	MaxSimilar = 50
)

// SimilarPage is a list of similar jobs: the cards, how many similar jobs
// there are, and the size of list applied.
type SimilarPage struct {
	Cards []domain.JobCard
	Total int
	Limit int
}

// Similar returns the postings similar to the job with the id: of the
// same role (and specialization, when it has one), most shared skills
// first, then in the same city, then newest; never the job itself. limit
// defaults to 10 and is clamped to MaxSimilar; cardExtras reads the
// cards' list extras too.
func (s *Service) Similar(ctx context.Context, id string, limit *int, cardExtras bool) (*SimilarPage, error) {
	if !normalize.ValidJobID(id) {
		return nil, badJobID(id)
	}
	n, err := limitOf(limit, DefaultSimilar, MaxSimilar)
	if err != nil {
		return nil, err
	}
	cards, total, err := s.store.SimilarJobs(ctx, id, n, cardExtras)
	if err != nil {
		return nil, err
	}
	return &SimilarPage{Cards: cards, Total: total, Limit: n}, nil
}

// Node returns the object with a global id: a job by its id (gone for a
// closed posting), a company by "company:<slug>"; nil, without error,
// when no object has the id.
func (s *Service) Node(ctx context.Context, id string) (domain.Node, error) {
	var node domain.Node
	var err error
	if slug, ok := strings.CutPrefix(id, domain.CompanyIDPrefix); ok {
		var c *domain.CompanyProfile
		if c, err = s.store.CompanyBySlug(ctx, slug); err == nil {
			node = &domain.Company{Name: c.Name, LogoURL: c.LogoURL, JobCount: c.JobCount, Slug: c.Slug}
		}
	} else {
		if !normalize.ValidJobID(id) {
			return nil, nil
		}
		var j *domain.Job
		if j, err = s.store.JobByID(ctx, id); err == nil {
			node = j
		}
	}
	if domain.ErrorCode(err) == domain.CodeNotFound {
		return nil, nil
	}
	return node, err
}

// badJobID is the error of a job id not shaped <source>-<number>
// (normalize.ValidJobID).
func badJobID(id string) error {
	return domain.InvalidParam("id", "id %q is not shaped <source>-<number>", domain.Clip(id))
}
