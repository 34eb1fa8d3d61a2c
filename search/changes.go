package search

import (
	"context"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// Sizes of change feed pages.
const (
	// DefaultChangeLimit is the size of a page of the change feed by
	// default.
	DefaultChangeLimit = 100
	// MaxChangeLimit is the largest page of the change feed; a larger
	// limit is clamped to it.
	MaxChangeLimit = 1000
)

// Changes returns a page of the change feed, oldest first: the changes
// after the cursor after (nil: from the beginning of what is kept), at
// most limit of them (default DefaultChangeLimit, clamped to
// MaxChangeLimit). A cursor older than what is kept is gone. The page's
// NextCursor continues the feed, also from an empty or last page.
func (s *Service) Changes(ctx context.Context, after *string, limit *int) (*domain.ChangePage, error) {
	n, err := normalize.Limit(limit, DefaultChangeLimit, MaxChangeLimit)
	if err != nil {
		return nil, err
	}
	var from domain.FeedCursor
	if after != nil {
		var ok bool
		if from, ok = domain.ParseFeedCursor(strings.TrimSpace(*after)); !ok {
			return nil, domain.InvalidParam("after", "after %q is not a cursor of the change feed (next_cursor of a page)", domain.Clip(*after))
		}
	}
	changes, next, more, err := s.store.Changes(ctx, from, n)
	if err != nil {
		return nil, err
	}
	if changes == nil {
		changes = []domain.Change{}
	}
	return &domain.ChangePage{Nodes: changes, PageInfo: domain.ChangePageInfo{Limit: n, HasMore: more, NextCursor: next.Encode()}}, nil
}
