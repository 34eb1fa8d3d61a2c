package search

import (
	"context"
	"slices"

	"github.com/jobsd-dev/jobsd/domain"
)

// JobsRequest is a job search: a filter, a page and an order, and what
// else its answer carries.
type JobsRequest struct {
	Filter *domain.JobFilter
	Page   Page
	Sort   *domain.JobSort
	// Facets asks for the counts of the matching jobs by these fields
	// (REST names; blanks and repeats ignored), FacetLimit values of each;
	// asked with a field or a limit, the page's FacetCounts holds them
	// (none for no field).
	Facets     []string
	FacetLimit *int
	// CardExtras reads each card's list extras too (PostedAt, CompanyLogo,
	// Summary).
	CardExtras bool
}

// Jobs returns a page of the job cards matching the request's filter, in
// its order, with the page info, the cursor after the page, how the filter
// was read (the page's Normalized) and the facets it asks for. Every part
// of the request is validated before the search runs.
func (s *Service) Jobs(ctx context.Context, req JobsRequest) (*domain.JobCardPage, error) {
	return s.jobs(ctx, req, nil)
}

// CompanyJobs is Jobs among the jobs of one company.
func (s *Service) CompanyJobs(ctx context.Context, companyID int64, req JobsRequest) (*domain.JobCardPage, error) {
	return s.jobs(ctx, req, &companyID)
}

// jobs answers a job search, among one company's jobs when companyID is
// given.
func (s *Service) jobs(ctx context.Context, req JobsRequest, companyID *int64) (*domain.JobCardPage, error) {
	facets, err := readFacets(req.Facets, req.FacetLimit)
	if err != nil {
		return nil, err
	}
	asksFacets := len(facets.fields) > 0 || req.FacetLimit != nil
	q, err := s.jobQuery(req.Filter, req.Page, req.Sort)
	if err != nil {
		return nil, err
	}
	q.CompanyID, q.CardExtras = companyID, req.CardExtras
	page, err := s.jobPage(ctx, q)
	if err != nil || !asksFacets {
		return page, err
	}
	if slices.Contains(facets.fields, domain.FacetSalary) {
		// The salary histogram's currency (REST's meta.normalized).
		echoCurrency(&page.Normalized, q.Currency)
	}
	page.FacetCounts, err = s.store.Facets(ctx, q, facets.fields, facets.limit)
	if err != nil {
		return nil, err
	}
	if page.FacetCounts == nil {
		page.FacetCounts = []domain.Facet{}
	}
	return page, nil
}

// jobQuery reads a job search (ReadJobQuery) and gives it the current
// rates.
func (s *Service) jobQuery(filter *domain.JobFilter, page Page, sort *domain.JobSort) (domain.JobQuery, error) {
	q, err := ReadJobQuery(s.norm, filter, page, sort)
	if err != nil {
		return q, err
	}
	return q, s.withRates(&q)
}

// jobPage runs a job query and makes its page.
func (s *Service) jobPage(ctx context.Context, q domain.JobQuery) (*domain.JobCardPage, error) {
	cards, total, cursors, err := s.store.FindJobCards(ctx, q)
	if err != nil {
		return nil, err
	}
	page := &domain.JobCardPage{Nodes: cards, Cursors: cursors, Normalized: q.Normalized, Query: q, PageInfo: pageInfo(total, q.Limit, q.Offset, len(cards))}
	if n := len(cursors); n > 0 {
		start, end := cursors[0].Encode(), cursors[n-1].Encode()
		page.PageInfo.StartCursor, page.PageInfo.EndCursor = &start, &end
	}
	return page, nil
}

// pageInfo describes a page of n items at offset among total.
func pageInfo(total, limit, offset, n int) domain.PageInfo {
	return domain.PageInfo{Total: total, Limit: limit, Offset: offset, HasMore: offset+n < total}
}

// Facets counts the jobs of a page's query by fields (REST names), limit
// values of each (GraphQL's JobCardConnection.facets). It leaves the page
// as it is: GraphQL may resolve a page's normalized before or after its
// facets.
func (s *Service) Facets(ctx context.Context, page *domain.JobCardPage, fields []string, limit *int) ([]domain.Facet, error) {
	f, err := readFacets(fields, limit)
	if err != nil {
		return nil, err
	}
	return s.store.Facets(ctx, page.Query, f.fields, f.limit)
}

// Interpret reads a filter as a search would, without searching: for each
// given member, the normalized values a search matches. Its errors are
// those a search with the filter gives.
func (s *Service) Interpret(filter domain.JobFilter) (*domain.NormalizedFilter, error) {
	q, err := s.jobQuery(&filter, Page{}, nil)
	if err != nil {
		return nil, err
	}
	return &q.Normalized, nil
}
