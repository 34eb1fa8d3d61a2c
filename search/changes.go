package search

import (
	"context"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
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
	n, err := limitOf(limit, DefaultChangeLimit, MaxChangeLimit)
	if err != nil {
		return nil, err
	}
	from, err := feedCursor(after)
	if err != nil {
		return nil, err
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

// feedCursor reads the after of the change feed and of subscriptions (nil:
// the zero cursor): a cursor made by domain.FeedCursor.Encode, and no
// other spelling.
func feedCursor(after *string) (domain.FeedCursor, error) {
	if after == nil {
		return domain.FeedCursor{}, nil
	}
	c, ok := domain.ParseFeedCursor(strings.TrimSpace(*after))
	if !ok {
		return c, domain.InvalidParam("after", "after %q is not a cursor of the change feed (a page's next_cursor, or an event's cursor)", domain.Clip(*after))
	}
	return c, nil
}
