package scalar

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// The enums below are bound to Go strings holding the REST spelling
// ("full-time", "hourly"), so that the records, the REST API and the
// filter the two transports share keep their types; GraphQL shows the
// enum value (FULL_TIME, HOURLY). A stored value outside the contract's
// set (a source's own word, kept as given) has no enum value: it is null.

// enumName is the GraphQL enum value of a REST spelling: upper case, '-'
// as '_'.
func enumName(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }

// restName is the REST spelling of a GraphQL enum value.
func restName(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "-")) }

// writeEnum writes the enum value of s, or null when s is not in the set.
func writeEnum(w io.Writer, s string, known bool) {
	if !known {
		_, _ = io.WriteString(w, "null")
		return
	}
	_, _ = io.WriteString(w, strconv.Quote(enumName(s)))
}

// unmarshalEnum reads the value of the enum named name (FULL_TIME) as its
// REST spelling (full-time); known says which REST spellings it has. Case
// does not matter, as gqlparser's validation of variables has it.
func unmarshalEnum(name string, known func(string) bool, v any) (string, error) {
	s, ok := v.(string)
	if !ok || enumName(restName(s)) != strings.ToUpper(s) || !known(restName(s)) {
		return "", notEnumValue(name, v)
	}
	return restName(s), nil
}

// employmentType reports whether s is one of the contract's employment
// types (full-time, part-time, contract, internship, temporary,
// volunteer).
func employmentType(s string) bool { return slices.Contains(normalize.EmploymentTypeNames(), s) }

// EmploymentTypeValue returns the GraphQL enum value of an employment type
// (full-time → FULL_TIME), and false when it is none of the contract's.
func EmploymentTypeValue(s string) (string, bool) {
	if !employmentType(s) {
		return "", false
	}
	return enumName(s), true
}

// MarshalEmploymentType writes an employment type as the EmploymentType
// enum.
func MarshalEmploymentType(s string) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) { writeEnum(w, s, employmentType(s)) })
}

// UnmarshalEmploymentType reads an EmploymentType enum value (FULL_TIME)
// as its REST spelling (full-time).
func UnmarshalEmploymentType(v any) (string, error) {
	return unmarshalEnum("EmploymentType", employmentType, v)
}

// salaryPeriod reports whether s is a canonical salary period (annual,
// monthly, weekly, daily, hourly).
func salaryPeriod(s string) bool {
	p, _, ok := normalize.Period(s)
	return ok && p == s
}

// MarshalSalaryPeriod writes a salary period as the SalaryPeriod enum.
func MarshalSalaryPeriod(s string) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) { writeEnum(w, s, salaryPeriod(s)) })
}

// UnmarshalSalaryPeriod reads a SalaryPeriod enum value (HOURLY) as its
// REST spelling (hourly).
func UnmarshalSalaryPeriod(v any) (string, error) {
	return unmarshalEnum("SalaryPeriod", salaryPeriod, v)
}

// The enums below are domain's types, whose Go values are their GraphQL
// values in lower case (REMOTE is "remote", SALARY_DESC "salary_desc").

// marshalLower writes v as its enum value, upper-cased.
func marshalLower[T ~string](v T) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(strings.ToUpper(string(v)))) })
}

// unmarshalLower reads a value of the enum named name: one of valid, in
// any case (gqlparser's validation of variables ignores case).
func unmarshalLower[T ~string](name string, valid []T, v any) (T, error) {
	s, ok := v.(string)
	value := T(strings.ToLower(s))
	if !ok || !slices.Contains(valid, value) {
		return "", notEnumValue(name, v)
	}
	return value, nil
}

// notEnumValue is the invalid_parameter error of a value that is none of
// an enum's.
func notEnumValue(name string, v any) error {
	return domain.Errorf(domain.CodeInvalidParameter, "%s is not a valid %s", domain.Clip(fmt.Sprintf("%q", v)), name)
}

// MarshalWorkArrangement writes a WorkArrangement enum value (REMOTE).
func MarshalWorkArrangement(v domain.WorkArrangement) graphql.Marshaler { return marshalLower(v) }

// UnmarshalWorkArrangement reads a WorkArrangement enum value.
func UnmarshalWorkArrangement(v any) (domain.WorkArrangement, error) {
	return unmarshalLower("WorkArrangement", domain.WorkArrangements, v)
}

// MarshalJobSort writes a JobSort enum value (SALARY_DESC).
func MarshalJobSort(v domain.JobSort) graphql.Marshaler { return marshalLower(v) }

// UnmarshalJobSort reads a JobSort enum value.
func UnmarshalJobSort(v any) (domain.JobSort, error) {
	return unmarshalLower("JobSort", domain.JobSorts, v)
}

// MarshalMatchMode writes a MatchMode enum value (ANY).
func MarshalMatchMode(v domain.MatchMode) graphql.Marshaler { return marshalLower(v) }

// UnmarshalMatchMode reads a MatchMode enum value.
func UnmarshalMatchMode(v any) (domain.MatchMode, error) {
	return unmarshalLower("MatchMode", domain.MatchModes, v)
}

// facetFields are the facet fields as FacetField values.
var facetFields = func() []domain.FacetField {
	out := make([]domain.FacetField, len(domain.FacetFields))
	for i, f := range domain.FacetFields {
		out[i] = domain.FacetField(f)
	}
	return out
}()

// MarshalFacetField writes a FacetField enum value (WORK_ARRANGEMENT).
func MarshalFacetField(v domain.FacetField) graphql.Marshaler { return marshalLower(v) }

// UnmarshalFacetField reads a FacetField enum value.
func UnmarshalFacetField(v any) (domain.FacetField, error) {
	return unmarshalLower("FacetField", facetFields, v)
}

// MarshalChangeKind writes a ChangeKind enum value (OPENED).
func MarshalChangeKind(v domain.ChangeKind) graphql.Marshaler { return marshalLower(v) }

// UnmarshalChangeKind reads a ChangeKind enum value.
func UnmarshalChangeKind(v any) (domain.ChangeKind, error) {
	return unmarshalLower("ChangeKind", domain.ChangeKinds, v)
}

// MarshalJobChangeKind writes a JobChangeKind enum value (ADDED).
func MarshalJobChangeKind(v domain.JobChangeKind) graphql.Marshaler { return marshalLower(v) }

// UnmarshalJobChangeKind reads a JobChangeKind enum value.
func UnmarshalJobChangeKind(v any) (domain.JobChangeKind, error) {
	return unmarshalLower("JobChangeKind", domain.JobChangeKinds, v)
}

// MarshalDistanceUnit writes a DistanceUnit enum value (KM).
func MarshalDistanceUnit(v domain.DistanceUnit) graphql.Marshaler { return marshalLower(v) }

// UnmarshalDistanceUnit reads a DistanceUnit enum value.
func UnmarshalDistanceUnit(v any) (domain.DistanceUnit, error) {
	return unmarshalLower("DistanceUnit", domain.DistanceUnits, v)
}

// MarshalSuggestField writes a SuggestField enum value (TITLE).
func MarshalSuggestField(v domain.SuggestField) graphql.Marshaler { return marshalLower(v) }

// UnmarshalSuggestField reads a SuggestField enum value.
func UnmarshalSuggestField(v any) (domain.SuggestField, error) {
	return unmarshalLower("SuggestField", domain.SuggestFields, v)
}
