package graph

import (
	"context"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// pageInfo describes a page of n items at offset among total.
func pageInfo(total, limit, offset, n int) domain.PageInfo {
	return domain.PageInfo{Total: total, Limit: limit, Offset: offset, HasMore: offset+n < total}
}

// jobPage runs a job query and makes its page: cards, page info, the
// cursor after the page and how the filters were read.
func (r *Resolver) jobPage(ctx context.Context, q domain.JobQuery) (*domain.JobCardPage, error) {
	cards, total, next, err := r.store.FindJobCards(ctx, q)
	if err != nil {
		return nil, err
	}
	notePage(ctx, cards)
	page := &domain.JobCardPage{Nodes: cards, Normalized: q.Normalized, Query: q, PageInfo: pageInfo(total, q.Limit, q.Offset, len(cards))}
	if next != nil {
		cursor := next.Encode()
		page.PageInfo.EndCursor = &cursor
	}
	return page, nil
}

// Limits of similar-job lists.
const (
	defaultSimilar = 10
	maxSimilar     = 50
)

// similarLimit validates the size of a similar-job list.
func similarLimit(limit *int) (int, error) {
	if limit == nil {
		return defaultSimilar, nil
	}
	if *limit < 1 {
		return 0, domain.InvalidParam("limit", "limit must be an integer ≥ 1")
	}
	return min(*limit, maxSimilar), nil
}

// SimilarJobs returns the postings similar to the job with the id (see
// Job.similar) and how many there are, or not_found; REST's
// /jobs/{id}/similar calls it.
func (r *Resolver) SimilarJobs(ctx context.Context, id string, limit *int) ([]domain.JobCard, int, int, error) {
	if !normalize.ValidJobID(id) {
		return nil, 0, 0, domain.InvalidParam("id", "id %q is not shaped <source>-<number>", domain.Clip(id))
	}
	n, err := similarLimit(limit)
	if err != nil {
		return nil, 0, 0, err
	}
	cards, total, err := r.store.SimilarJobs(ctx, id, n)
	return cards, total, n, err
}

// PageFacets counts the jobs of a page's query by the fields (REST names);
// JobCardPage.facets and REST's facets parameter both call it.
func (r *Resolver) PageFacets(ctx context.Context, page *domain.JobCardPage, fields []string, limit *int) ([]domain.Facet, error) {
	names, n, err := normalize.Facets(fields, limit)
	if err != nil {
		return nil, err
	}
	return r.store.Facets(ctx, page.Query, names, n)
}

// CheckFacets validates a facet request before a search runs for it.
func (r *Resolver) CheckFacets(fields []string, limit *int) error {
	_, _, err := normalize.Facets(fields, limit)
	return err
}
