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
		assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err), "%v", bad)
	}
	got, err := scalar.UnmarshalEmploymentType("full_time")
	require.NoError(t, err, "any case, as gqlparser validates variables")
	assert.Equal(t, "full-time", got)
	_, err = scalar.UnmarshalSalaryPeriod("YEARLY")
	assert.Error(t, err, "an alias is not an enum value")
}

// TestDomainEnums: domain's enums read their GraphQL names, in any case as
// gqlparser validates variables, into their REST spellings, refuse
// anything else as invalid_parameter, and write them back.
func TestDomainEnums(t *testing.T) {
	unmarshal := map[string]func(any) (string, error){
		"ChangeKind":      wrap(scalar.UnmarshalChangeKind),
		"JobChangeKind":   wrap(scalar.UnmarshalJobChangeKind),
		"JobSort":         wrap(scalar.UnmarshalJobSort),
		"FacetField":      wrap(scalar.UnmarshalFacetField),
		"WorkArrangement": wrap(scalar.UnmarshalWorkArrangement),
		"MatchMode":       wrap(scalar.UnmarshalMatchMode),
		"DistanceUnit":    wrap(scalar.UnmarshalDistanceUnit),
		"SuggestField":    wrap(scalar.UnmarshalSuggestField),
	}
	for _, tc := range []struct {
		enum string
		in   any
		want string // "" when refused
	}{
		{"ChangeKind", "OPENED", "opened"}, {"ChangeKind", "CLOSED", "closed"}, {"ChangeKind", "opened", "opened"},
		{"ChangeKind", "ADDED", ""}, {"ChangeKind", 1, ""},
		{"JobChangeKind", "ADDED", "added"}, {"JobChangeKind", "REMOVED", "removed"}, {"JobChangeKind", "added", "added"},
		{"JobChangeKind", "OPENED", ""}, {"JobChangeKind", nil, ""},
		{"JobSort", "SALARY_DESC", "salary_desc"}, {"JobSort", "DISTANCE", "distance"}, {"JobSort", "Newest", "newest"}, {"JobSort", "BEST", ""},
		{"FacetField", "WORK_ARRANGEMENT", "work_arrangement"}, {"FacetField", "SALARY", "salary"}, {"FacetField", "TITLE", ""},
		{"WorkArrangement", "REMOTE", "remote"}, {"WorkArrangement", "ANYWHERE", ""},
		{"MatchMode", "ALL", "all"}, {"MatchMode", "SOME", ""},
		{"DistanceUnit", "MI", "mi"}, {"DistanceUnit", "KM", "km"}, {"DistanceUnit", "FT", ""},
		{"SuggestField", "LOCATION", "location"}, {"SuggestField", "CITY", ""},
	} {
		got, err := unmarshal[tc.enum](tc.in)
		if tc.want == "" {
			assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err), "%s %v", tc.enum, tc.in)
			continue
		}
		require.NoError(t, err, "%s %v", tc.enum, tc.in)
		assert.Equal(t, tc.want, got, "%s %v", tc.enum, tc.in)
	}
	var b bytes.Buffer
	scalar.MarshalJobChangeKind(domain.JobRemoved).MarshalGQL(&b)
	scalar.MarshalChangeKind(domain.ChangeUpdated).MarshalGQL(&b)
	scalar.MarshalJobSort(domain.JobSortSalaryDesc).MarshalGQL(&b)
	scalar.MarshalFacetField(domain.FacetField(domain.FieldWorkArrangement)).MarshalGQL(&b)
	scalar.MarshalDistanceUnit(domain.DistanceUnitMi).MarshalGQL(&b)
	assert.Equal(t, `"REMOVED""UPDATED""SALARY_DESC""WORK_ARRANGEMENT""MI"`, b.String())
}

// wrap gives an enum's unmarshal function a string result.
func wrap[T ~string](f func(any) (T, error)) func(any) (string, error) {
	return func(v any) (string, error) {
		got, err := f(v)
		return string(got), err
	}
}

// TestEdgeCursor: an edge's cursor is written as a quoted String, the same
// by the marshaler as appended, and is never an input.
func TestEdgeCursor(t *testing.T) {
	page := domain.JobCardPage{Nodes: make([]domain.JobCard, 2), Cursors: []domain.Cursor{{Sort: domain.JobSortNewest, ID: "greenhouse-1", Offset: 1}}}
	edges := page.Edges()
	text := edges[0].Cursor.String()
	require.NotEmpty(t, text)
	var b bytes.Buffer
	scalar.MarshalEdgeCursor(edges[0].Cursor).MarshalGQL(&b)
	assert.Equal(t, `"`+text+`"`, b.String())
	assert.Equal(t, b.String(), string(scalar.AppendEdgeCursor(nil, edges[0].Cursor)))
	assert.Equal(t, `""`, string(scalar.AppendEdgeCursor(nil, edges[1].Cursor)), "a page without the edge's cursor")
	_, err := scalar.UnmarshalEdgeCursor(text)
	assert.Error(t, err)
}
