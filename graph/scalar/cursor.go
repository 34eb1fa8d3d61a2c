package scalar

import (
	"errors"
	"io"

	"github.com/99designs/gqlgen/graphql"

	"github.com/jobsd-dev/jobsd/domain"
)

// AppendEdgeCursor appends an edge's cursor as a GraphQL String (quoted;
// base64url needs no escaping). The fast path calls it for every edge.
func AppendEdgeCursor(b []byte, c domain.EdgeCursor) []byte {
	b, _ = c.AppendText(append(b, '"'))
	return append(b, '"')
}

// MarshalEdgeCursor writes an edge's cursor as a String.
func MarshalEdgeCursor(c domain.EdgeCursor) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		var buf [320]byte // room for any usual cursor
		_, _ = w.Write(AppendEdgeCursor(buf[:0], c))
	})
}

// UnmarshalEdgeCursor refuses input: an edge's cursor is only written
// (after takes it as a String).
func UnmarshalEdgeCursor(any) (domain.EdgeCursor, error) {
	return domain.EdgeCursor{}, errors.New("an edge cursor is not an input")
}
