package normalize_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/normalize"
)

func TestParseValidThrough(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s, ns int) time.Time {
		return time.Date(y, m, d, h, min, s, ns, time.UTC)
	}
	tests := []struct {
		in      string
		want    time.Time
		wantErr string
	}{
		{"2026-12-01T10:00:00Z", utc(2026, 12, 1, 10, 0, 0, 0), ""},
		{"2026-12-01T10:00:00+02:00", utc(2026, 12, 1, 8, 0, 0, 0), ""},
		{"2026-12-01T10:00:00.1234567Z", utc(2026, 12, 1, 10, 0, 0, 123456000), ""},
		{"2026-12-01T10:00Z", utc(2026, 12, 1, 10, 0, 0, 0), ""},
		{"2026-12-01T10:00-05:00", utc(2026, 12, 1, 15, 0, 0, 0), ""},
		{"2026-12-01T10:00:00", utc(2026, 12, 1, 10, 0, 0, 0), ""},
		{"2026-12-01T10:00", utc(2026, 12, 1, 10, 0, 0, 0), ""},
		{"2026-12-01 10:00:00", utc(2026, 12, 1, 10, 0, 0, 0), ""},
		{" 2026-12-01T10:00:00Z ", utc(2026, 12, 1, 10, 0, 0, 0), ""},
		// A date alone: open through that day UTC, closed at the next midnight.
		{"2026-12-01", utc(2026, 12, 2, 0, 0, 0, 0), ""},
		{"2026-12-31", utc(2027, 1, 1, 0, 0, 0, 0), ""},
		{"9999-12-31", utc(9999, 12, 31, 23, 59, 59, 0), ""},
		{"1970-01-01T00:00:00Z", utc(1970, 1, 1, 0, 0, 0, 0), ""},
		{"1969-12-31T23:59:59Z", time.Time{}, "is not between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z"},
		{"0001-01-01", time.Time{}, "is not between"},
		{"31/12/2026", time.Time{}, `valid_through "31/12/2026" is not an RFC 3339 date-time or a date (YYYY-MM-DD)`},
		{"2026-02-30", time.Time{}, "is not an RFC 3339 date-time or a date"},
		{"tomorrow", time.Time{}, "is not an RFC 3339 date-time or a date"},
		{"", time.Time{}, "is not an RFC 3339 date-time or a date"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := normalize.ParseValidThrough(tt.in)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.True(t, tt.want.Equal(got), "want %v, got %v", tt.want, got)
			assert.Equal(t, time.UTC, got.Location())
		})
	}
}

func TestPostingValidThrough(t *testing.T) {
	n := newNormalizer(t)
	tests := []struct {
		name    string
		vt      *string
		want    *time.Time
		wantErr string
	}{
		{"none", nil, nil, ""},
		{"blank is none", ptr("  "), nil, ""},
		{"an instant", ptr("2030-01-02T03:04:05Z"), tp(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)), ""},
		{"past is kept", ptr("2001-01-01"), tp(time.Date(2001, 1, 2, 0, 0, 0, 0, time.UTC)), ""},
		{"bad value", ptr("soon"), nil, `valid_through "soon" is not an RFC 3339 date-time or a date`},
		{"over its bound", ptr(strings.Repeat("9", normalize.MaxFieldLength+1)), nil,
			"valid_through is longer than 500 characters (501)"},
		{"invalid UTF-8", ptr("2030-01-01\xff"), nil, "valid_through contains a NUL character or invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := n.Posting(validJob(), tt.vt)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, rec.ValidThrough)
		})
	}
}

func TestPostingReportsValidThroughWithOtherErrors(t *testing.T) {
	n := newNormalizer(t)
	j := validJob()
	j.Title = ""
	_, err := n.Posting(j, ptr("later"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "title is required")
	assert.Contains(t, err.Error(), `valid_through "later"`)

	j = validJob()
	j.Title = chars(normalize.MaxTitleLength + 1)
	_, err = n.Posting(j, ptr(strings.Repeat("9", normalize.MaxFieldLength+1)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "title is longer than")
	assert.Contains(t, err.Error(), "valid_through is longer than")
}

func TestJobHasNoValidThrough(t *testing.T) {
	rec, err := newNormalizer(t).Job(validJob())
	require.NoError(t, err)
	assert.Nil(t, rec.ValidThrough)
}

func tp(t time.Time) *time.Time { return &t }
