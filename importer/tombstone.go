package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// tombstoneMembers are the members a tombstone line may have: the id it
// closes, closed (true) and, optionally, when it closed. Any other member
// makes the line invalid: a full record marked closed says two things at
// once, and neither is guessed.
var tombstoneMembers = []string{"id", "closed", "closed_at"}

// closedAtSkew is how far after the import's clock a closed_at may be, for
// the clocks of the machines that write the files; such a closed_at is
// read as now. A closed_at later than that is invalid: a posting that is
// to close later gives its record valid_through instead.
const closedAtSkew = 5 * time.Minute

// readTombstone reads a tombstone line (closed: true) whose id and
// closed_at were decoded already: its id must be a job id, it may have no
// member but id, closed and closed_at, and closed_at (RFC 3339, or a date
// alone meaning its midnight UTC) must lie between 1970 and now.
func readTombstone(line []byte, id string, closedAt *string, now time.Time) (entry, error) {
	id = strings.TrimSpace(id)
	e := entry{job: domain.Job{ID: id}}
	var errs []error
	if extra, err := extraMembers(line); err != nil {
		errs = append(errs, err)
	} else if len(extra) > 0 {
		errs = append(errs, fmt.Errorf("a tombstone (\"closed\": true) has no member but id, closed and closed_at; this one also has %s", strings.Join(extra, ", ")))
	}
	switch {
	case id == "":
		errs = append(errs, errors.New("id is required: a tombstone names the posting it closes"))
	case !normalize.ValidJobID(id):
		errs = append(errs, fmt.Errorf("id %q is not shaped <source>-<number> (source: a-z, 0-9, _; number: digits)", domain.Clip(id)))
	}
	at, err := readClosedAt(closedAt, now)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return e, errors.Join(errs...)
	}
	e.close = &domain.JobClose{ID: id, ClosedAt: at}
	return e, nil
}

// extraMembers returns the members of a tombstone line beside id, closed
// and closed_at, in the line's order.
func extraMembers(line []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // {
		return nil, errors.New(jsonReason(err))
	}
	var extra []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New(jsonReason(err))
		}
		if name, _ := tok.(string); !slices.Contains(tombstoneMembers, name) {
			extra = append(extra, domain.Clip(name))
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, errors.New(jsonReason(err))
		}
	}
	return extra, nil
}

// readClosedAt reads a tombstone's closed_at; nil (the import's instant)
// when it has none. A closed_at within closedAtSkew after now is now.
func readClosedAt(s *string, now time.Time) (*time.Time, error) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil, nil
	}
	v := strings.TrimSpace(*s)
	if len(v) > normalize.MaxFieldLength {
		return nil, fmt.Errorf("closed_at is longer than %d characters", normalize.MaxFieldLength)
	}
	t, ok := parseInstant(v)
	switch {
	case !ok:
		return nil, fmt.Errorf("closed_at %q is not an RFC 3339 date-time or a date (YYYY-MM-DD)", domain.Clip(v))
	case t.Before(time.Unix(0, 0)):
		return nil, fmt.Errorf("closed_at %q is before 1970", domain.Clip(v))
	case t.After(now.Add(closedAtSkew)):
		return nil, fmt.Errorf("closed_at %q is in the future; a posting that closes later gives valid_through on its record", domain.Clip(v))
	case t.After(now):
		t = now
	}
	t = t.UTC().Truncate(time.Microsecond)
	return &t, nil
}

// parseInstant reads an RFC 3339 date-time (UTC when it names no zone) or
// a date alone (its midnight UTC).
func parseInstant(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
