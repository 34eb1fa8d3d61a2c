package domain

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ChangeKind is what happened to a posting in the change feed.
type ChangeKind string

// The kinds of change (contract section 12).
const (
	ChangeOpened  ChangeKind = "opened"
	ChangeUpdated ChangeKind = "updated"
	ChangeClosed  ChangeKind = "closed"
)

// ChangeKinds lists every kind of change.
var ChangeKinds = []ChangeKind{ChangeOpened, ChangeUpdated, ChangeClosed}

// IsValid reports whether k is one of the kinds.
func (k ChangeKind) IsValid() bool {
	return k == ChangeOpened || k == ChangeUpdated || k == ChangeClosed
}

// Change is one entry of the change feed: a posting opened, updated or
// closed at an instant. Seq orders the feed (its cursor).
type Change struct {
	Seq    int64      `json:"-"`
	ID     string     `json:"id"`
	Change ChangeKind `json:"change"`
	At     time.Time  `json:"at"`
}

// FeedCursor is a place in the change feed: after the change numbered Seq,
// read while the feed was at purge epoch Epoch. The zero cursor is the
// beginning.
type FeedCursor struct {
	Seq   int64
	Epoch int64
}

// feedCursorPrefix marks the text of a change feed cursor, so that a job
// list's cursor is not read as one.
const feedCursorPrefix = "changes:"

// Encode returns the opaque text of a place in the change feed: base64url
// of "changes:SEQ:EPOCH" (REST next_cursor, GraphQL nextCursor, and a
// subscription event's cursor).
func (c FeedCursor) Encode() string {
	return base64.RawURLEncoding.EncodeToString([]byte(feedCursorPrefix +
		strconv.FormatInt(c.Seq, 10) + ":" + strconv.FormatInt(c.Epoch, 10)))
}

// ParseFeedCursor reads a cursor made by Encode, and no other spelling of
// it.
func ParseFeedCursor(s string) (FeedCursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return FeedCursor{}, false
	}
	rest, ok := strings.CutPrefix(string(b), feedCursorPrefix)
	if !ok {
		return FeedCursor{}, false
	}
	seq, epoch, ok := strings.Cut(rest, ":")
	if !ok {
		return FeedCursor{}, false
	}
	var c FeedCursor
	var errSeq, errEpoch error
	c.Seq, errSeq = strconv.ParseInt(seq, 10, 64)
	c.Epoch, errEpoch = strconv.ParseInt(epoch, 10, 64)
	if errSeq != nil || errEpoch != nil || c.Seq < 0 || c.Epoch < 0 || c.Encode() != s {
		return FeedCursor{}, false
	}
	return c, true
}

// JobClose closes one posting: an import's tombstone line.
type JobClose struct {
	ID string
	// ClosedAt is when it closed; nil means at the import.
	ClosedAt *time.Time
}

// Scope names the postings a snapshot import lists completely: those of
// one source, and of one company of it when Company is set.
type Scope struct {
	Source  string
	Company string
}

// String names the scope: source "greenhouse", company "Acme".
func (s Scope) String() string {
	name := fmt.Sprintf("source %q", s.Source)
	if s.Company != "" {
		name += fmt.Sprintf(", company %q", s.Company)
	}
	return name
}

// ImportCounts are what an import did, posting by posting.
type ImportCounts struct {
	Opened    int // new postings, and closed ones opened again
	Updated   int // open postings whose content changed
	Unchanged int // open postings written again as they were
	Closed    int // open postings closed: tombstones, a snapshot's missing ones, expiries
	// CloseIgnored counts tombstones of postings unknown or already closed.
	CloseIgnored int
}

// JobChangeKind is what a change did to a subscription's results
// (section 15): judged by the subscription's filter just before and just
// after the change.
type JobChangeKind string

// The kinds of subscription event.
const (
	// JobAdded: the posting matches and did not.
	JobAdded JobChangeKind = "added"
	// JobUpdated: it matched before the change and matches after it.
	JobUpdated JobChangeKind = "updated"
	// JobRemoved: it matched and no longer does.
	JobRemoved JobChangeKind = "removed"
)

// JobChangeKinds lists every kind of subscription event.
var JobChangeKinds = []JobChangeKind{JobAdded, JobUpdated, JobRemoved}

// JobChangeEvent is one event of a subscription: a change of the feed as
// it changed the subscription's results.
type JobChangeEvent struct {
	Kind JobChangeKind `json:"kind"`
	ID   string        `json:"id"`
	// At is the change's instant (an expiry's valid_through).
	At time.Time `json:"at"`
	// Cursor is the change's feed cursor: a subscription resumed after it
	// delivers what follows it.
	Cursor string `json:"-"`
	// Card is the posting's card after the change; nil for removed.
	Card *JobCard `json:"card"`
}

// Subscription is an open standing search (section 15): its events in
// feed order.
type Subscription interface {
	// Next waits for the next event. It ends with an *Error whose code is
	// resync_required, gone or unavailable (its Cursor the last one
	// delivered), or with the context's error.
	Next(ctx context.Context) (*JobChangeEvent, error)
	// Close ends the subscription.
	Close()
}

// ReadySubscription is a Subscription that can be read without a
// goroutine waiting in Next: TryNext takes what is ready, and the
// function given to OnReady is called (quickly, from any goroutine) when
// more may be.
type ReadySubscription interface {
	Subscription
	// TryNext returns the next event if one is ready (true), nothing
	// (false) if none is, or Next's error.
	TryNext(ctx context.Context) (*JobChangeEvent, bool, error)
	// OnReady sets the function told whenever an event or the end may be
	// taken.
	OnReady(ready func())
}
