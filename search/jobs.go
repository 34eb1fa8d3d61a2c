package search

import (
	"context"
	"slices"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// Jobs returns a page of the job cards matching filter, in sort's order,
// with the page info, the cursor after the page and how the filter was
// read (the page's Normalized).
func (s *Service) Jobs(ctx context.Context, filter *domain.JobFilter, limit, offset *int, sort *domain.JobSort, after *string) (*domain.JobCardPage, error) {
	q, err := s.jobQuery(filter, limit, offset, sort, after)
	if err != nil {
		return nil, err
	}
	return s.jobPage(ctx, q)
}

// CompanyJobs is Jobs among the jobs of one company.
func (s *Service) CompanyJobs(ctx context.Context, companyID int64, filter *domain.JobFilter, limit, offset *int, sort *domain.JobSort, after *string) (*domain.JobCardPage, error) {
	q, err := s.jobQuery(filter, limit, offset, sort, after)
	if err != nil {
		return nil, err
	}
	q.CompanyID = &companyID
	return s.jobPage(ctx, q)
}

// jobQuery normalizes a job search and gives it the current rates.
func (s *Service) jobQuery(filter *domain.JobFilter, limit, offset *int, sort *domain.JobSort, after *string) (domain.JobQuery, error) {
	q, err := s.norm.JobQuery(filter, limit, offset, sort, after)
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

// FacetRequest is a validated request for facets: the fields (REST names)
// and how many values of each.
type FacetRequest struct {
	fields []string
	limit  int
}

// Empty reports whether the request asks for no field.
func (f FacetRequest) Empty() bool { return len(f.fields) == 0 }

// Facets validates a request for facets, before the search it counts runs.
func (s *Service) Facets(fields []string, limit *int) (FacetRequest, error) {
	names, n, err := normalize.Facets(fields, limit)
	if err != nil {
		return FacetRequest{}, err
	}
	return FacetRequest{fields: names, limit: n}, nil
}

// CountFacets counts the jobs of a page's query by the request's fields.
// It leaves the page as it is: GraphQL may resolve a page's normalized
// before or after its facets.
func (s *Service) CountFacets(ctx context.Context, page *domain.JobCardPage, f FacetRequest) ([]domain.Facet, error) {
	return s.store.Facets(ctx, page.Query, f.fields, f.limit)
}

// NoteFacets adds to a page's normalized what a facet request reads: the
// salary histogram's currency (REST's meta.normalized; GraphQL's
// normalized tells how the filter and the sort were read).
func (s *Service) NoteFacets(page *domain.JobCardPage, f FacetRequest) {
	if slices.Contains(f.fields, domain.FacetSalary) {
		echoCurrency(&page.Normalized, page.Query.Currency)
	}
}

// Interpret reads a filter as a search would, without searching: for each
// given member, the normalized values a search matches. Its errors are
// those a search with the filter gives.
func (s *Service) Interpret(filter domain.JobFilter) (*domain.NormalizedFilter, error) {
	q, err := s.jobQuery(&filter, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	return &q.Normalized, nil
}
