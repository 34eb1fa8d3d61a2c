package scalar

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

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
// REST spelling (full-time); known says which REST spellings it has.
func unmarshalEnum(name string, known func(string) bool, v any) (string, error) {
	s, ok := v.(string)
	if !ok || enumName(restName(s)) != s || !known(restName(s)) {
		return "", fmt.Errorf("%v is not a valid %s", v, name)
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
