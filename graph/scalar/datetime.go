// Package scalar holds the marshalers of jobsd's custom GraphQL scalars,
// bound in gqlgen.yml.
package scalar

import (
	"context"
	"fmt"
	"io"

	"github.com/99designs/gqlgen/graphql"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// MarshalDateTime writes an instant held as text (the store writes every
// instant with domain.FormatTime) as the DateTime scalar: RFC 3339 in UTC
// to the second (domain.TimeLayout). Text in another RFC 3339 form is
// rewritten in that layout; text that is no instant is an error, not a
// guess.
func MarshalDateTime(s string) graphql.ContextMarshaler {
	return graphql.ContextWriterFunc(func(_ context.Context, w io.Writer) error {
		if !inLayout(s) {
			t, err := normalize.ParseTime(s)
			if err != nil {
				return fmt.Errorf("DateTime: the instant %q is not RFC 3339", domain.Clip(s))
			}
			s = domain.FormatTime(t)
		}
		// Neither digits nor the layout's punctuation need escaping.
		_, _ = io.WriteString(w, `"`)
		_, _ = io.WriteString(w, s)
		_, err := io.WriteString(w, `"`)
		return err
	})
}

// UnmarshalDateTime reads a DateTime input: an RFC 3339 date-time (any
// offset, fractional seconds dropped), and, as the postedAfter filter
// accepted before it was typed, a date (midnight UTC) or a date-time
// without an offset (UTC). It returns the instant in domain.TimeLayout;
// anything else is an invalid_parameter error.
func UnmarshalDateTime(_ context.Context, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", domain.Errorf(domain.CodeInvalidParameter, "DateTime must be a string: an RFC 3339 date-time (2026-11-01T09:00:00Z) or a date (2026-11-01)")
	}
	t, err := normalize.ParseTime(s)
	if err != nil {
		return "", domain.Errorf(domain.CodeInvalidParameter, "DateTime must be an RFC 3339 date-time (2026-11-01T09:00:00Z) or a date (2026-11-01); got %q", domain.Clip(s))
	}
	return domain.FormatTime(t), nil
}

// inLayout reports whether s has the shape of domain.TimeLayout
// (2006-01-02T15:04:05Z): digits where it has digits, its punctuation
// elsewhere. Every stored instant is written by domain.FormatTime, so the
// shape is the check; a byte scan costs a tenth of time.Parse, once a
// card.
func inLayout(s string) bool {
	if len(s) != len(domain.TimeLayout) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c, l := s[i], domain.TimeLayout[i]
		if l >= '0' && l <= '9' {
			if c < '0' || c > '9' {
				return false
			}
		} else if c != l {
			return false
		}
	}
	return true
}
