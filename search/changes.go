package search

import (
	"context"
	"encoding/base64"
	"strconv"
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

// changeCursorPrefix marks the text of a change feed cursor, so that a
// job list's cursor is not read as one.
const changeCursorPrefix = "changes:"

// ChangeCursor returns the opaque text of a place in the change feed:
// base64url of "changes:SEQ:EPOCH".
func ChangeCursor(c domain.FeedCursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(changeCursorPrefix +
		strconv.FormatInt(c.Seq, 10) + ":" + strconv.FormatInt(c.Epoch, 10)))
}

// parseChangeCursor reads a cursor made by ChangeCursor, and no other
// spelling of it.
func parseChangeCursor(s string) (domain.FeedCursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return domain.FeedCursor{}, false
	}
	rest, ok := strings.CutPrefix(string(b), changeCursorPrefix)
	if !ok {
		return domain.FeedCursor{}, false
	}
	seq, epoch, ok := strings.Cut(rest, ":")
	if !ok {
		return domain.FeedCursor{}, false
	}
	var c domain.FeedCursor
	var errSeq, errEpoch error
	c.Seq, errSeq = strconv.ParseInt(seq, 10, 64)
	c.Epoch, errEpoch = strconv.ParseInt(epoch, 10, 64)
	if errSeq != nil || errEpoch != nil || c.Seq < 0 || c.Epoch < 0 || ChangeCursor(c) != s {
		return domain.FeedCursor{}, false
	}
	return c, true
}

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
		if from, ok = parseChangeCursor(strings.TrimSpace(*after)); !ok {
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
	return &domain.ChangePage{Nodes: changes, PageInfo: domain.ChangePageInfo{Limit: n, HasMore: more, NextCursor: ChangeCursor(next)}}, nil
}
