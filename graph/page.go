package graph

import (
	"context"

	"github.com/jobsd-dev/jobsd/graph/model"
)

// pageInfo describes a page of n items at offset among total.
func pageInfo(total, limit, offset, n int) model.PageInfo {
	return model.PageInfo{Total: total, Limit: limit, Offset: offset, HasMore: offset+n < total}
}

// jobPage runs a job query and makes its page: cards, page info, the
// cursor after the page and how the filters were read.
func (r *Resolver) jobPage(ctx context.Context, q model.JobQuery) (*model.JobCardPage, error) {
	cards, total, next, err := r.store.FindJobCards(ctx, q)
	if err != nil {
		return nil, err
	}
	page := &model.JobCardPage{Nodes: cards, Normalized: q.Normalized, PageInfo: pageInfo(total, q.Limit, q.Offset, len(cards))}
	if next != nil {
		cursor := next.Encode()
		page.PageInfo.EndCursor = &cursor
	}
	return page, nil
}
