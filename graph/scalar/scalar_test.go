package scalar_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph/scalar"
)

func TestDateTimeInput(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string // "" when refused
	}{
		{"2026-11-01T09:00:00Z", "2026-11-01T09:00:00Z"},
		{"2026-11-01T11:30:00+02:30", "2026-11-01T09:00:00Z"},
		{"2026-11-01T09:00:00.987654Z", "2026-11-01T09:00:00Z"},
		{"2026-11-01", "2026-11-01T00:00:00Z"},
		{"2026-11-01T09:00:00", "2026-11-01T09:00:00Z"},
		{"2026-11-01 09:00:00", "2026-11-01T09:00:00Z"},
		{"2026-13-01", ""},
		{"yesterday", ""},
		{"", ""},
		{20261101, ""},
		{nil, ""},
	} {
		got, err := scalar.UnmarshalDateTime(context.Background(), tc.in)
		if tc.want == "" {
			require.Error(t, err, "%v", tc.in)
			assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err), "%v", tc.in)
			continue
		}
		require.NoError(t, err, "%v", tc.in)
		assert.Equal(t, tc.want, got, "%v", tc.in)
	}
}

func TestDateTimeOutput(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" : an error
	}{
		{"2026-11-01T09:00:00Z", `"2026-11-01T09:00:00Z"`},
		{"2026-11-01T11:00:00+02:00", `"2026-11-01T09:00:00Z"`},
		{"2026-11-01", `"2026-11-01T00:00:00Z"`},
		{"not a time", ""},
		{`2026-11-01T09:00:00"`, ""},
	} {
		var b bytes.Buffer
		err := scalar.MarshalDateTime(tc.in).MarshalGQLContext(context.Background(), &b)
		if tc.want == "" {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, b.String(), tc.in)
	}
}

func TestEnums(t *testing.T) {
	for _, enum := range []struct {
		name      string
		marshal   func(string) graphql.Marshaler
		unmarshal func(any) (string, error)
		values    []struct{ rest, gql string } // gql "null": outside the set
	}{
		{"EmploymentType", scalar.MarshalEmploymentType, scalar.UnmarshalEmploymentType, []struct{ rest, gql string }{
			{"full-time", `"FULL_TIME"`}, {"part-time", `"PART_TIME"`}, {"contract", `"CONTRACT"`},
			{"internship", `"INTERNSHIP"`}, {"temporary", `"TEMPORARY"`}, {"volunteer", `"VOLUNTEER"`},
			{"gig", "null"}, {"FULL_TIME", "null"}, {"", "null"},
		}},
		{"SalaryPeriod", scalar.MarshalSalaryPeriod, scalar.UnmarshalSalaryPeriod, []struct{ rest, gql string }{
			{"annual", `"ANNUAL"`}, {"monthly", `"MONTHLY"`}, {"weekly", `"WEEKLY"`}, {"daily", `"DAILY"`}, {"hourly", `"HOURLY"`},
			{"per shift", "null"}, {"yearly", "null"}, {"month\u2028ly", "null"},
		}},
	} {
		for _, tc := range enum.values {
			var b bytes.Buffer
			enum.marshal(tc.rest).MarshalGQL(&b)
			assert.Equal(t, tc.gql, b.String(), "%s %s", enum.name, tc.rest)
			if tc.gql != "null" {
				back, err := enum.unmarshal(tc.gql[1 : len(tc.gql)-1])
				require.NoError(t, err)
				assert.Equal(t, tc.rest, back)
			}
		}
	}
	for _, bad := range []any{"FT", "full-time", "YEARLY", 3, nil} {
		_, err := scalar.UnmarshalEmploymentType(bad)
		assert.Error(t, err, "%v", bad)
	}
	_, err := scalar.UnmarshalSalaryPeriod("YEARLY")
	assert.Error(t, err, "an alias is not an enum value")
}
