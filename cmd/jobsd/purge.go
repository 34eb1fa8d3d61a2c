package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/store"
)

// purge is `jobsd purge --closed-before DURATION|TIMESTAMP`: it removes
// the postings closed before that instant for good (their ids are then
// unknown: 404, and absent from the change feed).
func (e env) purge(ctx context.Context, args []string) error {
	fs := e.flagSet("purge")
	dsn := e.dbFlag(fs)
	closedBefore := fs.String("closed-before", "", "remove the postings closed before this: a `DURATION` ago (720h) or an RFC 3339 TIMESTAMP")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageError{"purge: takes no arguments"}
	}
	now := time.Now()
	before, err := parseClosedBefore(*closedBefore, now)
	if err != nil {
		return err
	}
	db, err := openMigrated(ctx, *dsn, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := store.New(db).Purge(ctx, before)
	if err != nil {
		return fmt.Errorf("purge: %w", err)
	}
	fmt.Fprintf(e.stdout, "purge: %d closed postings removed (closed before %s)\n", n, before.UTC().Format(time.RFC3339))
	return nil
}

// parseClosedBefore reads --closed-before: a Go duration (720h: closed
// more than that long before now; not negative) or an RFC 3339 instant.
// Anything else, or nothing, is a usage error.
func parseClosedBefore(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, usageError{"purge: --closed-before DURATION|TIMESTAMP is required (720h: closed more than 30 days ago; or an RFC 3339 instant)"}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, usageError{fmt.Sprintf("purge: --closed-before %s: a duration is how long ago, not negative", s)}
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, usageError{fmt.Sprintf("purge: --closed-before %q is neither a duration (720h) nor an RFC 3339 timestamp (2026-01-31T00:00:00Z)", s)}
}
