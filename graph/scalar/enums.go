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

// EmploymentTypeValue returns the GraphQL enum value of an employment type
// (full-time → FULL_TIME), and false when it is none of the contract's.
func EmploymentTypeValue(s string) (string, bool) {
	if !slices.Contains(normalize.EmploymentTypeNames(), s) {
		return "", false
	}
	return enumName(s), true
}

// MarshalEmploymentType writes an employment type as the EmploymentType
// enum.
func MarshalEmploymentType(s string) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		writeEnum(w, s, slices.Contains(normalize.EmploymentTypeNames(), s))
	})
}

// UnmarshalEmploymentType reads an EmploymentType enum value (FULL_TIME)
// as its REST spelling (full-time).
func UnmarshalEmploymentType(v any) (string, error) {
	s, ok := v.(string)
	if !ok || enumName(restName(s)) != s || !slices.Contains(normalize.EmploymentTypeNames(), restName(s)) {
		return "", fmt.Errorf("%v is not a valid EmploymentType", v)
	}
	return restName(s), nil
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
	s, ok := v.(string)
	if !ok || enumName(restName(s)) != s || !salaryPeriod(restName(s)) {
		return "", fmt.Errorf("%v is not a valid SalaryPeriod", v)
	}
	return restName(s), nil
}
