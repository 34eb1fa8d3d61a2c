package domain

import (
	"fmt"
	"io"
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

// IsValid reports whether k is one of the kinds.
func (k ChangeKind) IsValid() bool {
	return k == ChangeOpened || k == ChangeUpdated || k == ChangeClosed
}

// UnmarshalGQL reads the GraphQL enum value (OPENED).
func (k *ChangeKind) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("ChangeKind must be a string")
	}
	kind := ChangeKind(strings.ToLower(s))
	if !kind.IsValid() || s != strings.ToUpper(s) {
		return fmt.Errorf("%q is not a valid ChangeKind", Clip(s))
	}
	*k = kind
	return nil
}

// MarshalGQL writes the GraphQL enum value (OPENED).
func (k ChangeKind) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(strings.ToUpper(string(k))))
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
