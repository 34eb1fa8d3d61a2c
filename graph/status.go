package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/jobsd-dev/jobsd/domain"
)

// The contract answers an operation that failed because the database is
// unavailable with HTTP 503 (and the GraphQL body), as it does other
// HTTP-level errors on /graphql. gqlgen writes 200 for every executed
// operation, so statusOverride tells the response writer the status the
// errors call for, before the transport writes the response.

type statusKey struct{}

// statusHolder carries the status an operation's errors call for.
type statusHolder struct{ status int }

// statusOverride is a gqlgen extension that looks at the presented errors,
// and reports each to onError when set.
type statusOverride struct{ onError func(code string) }

var (
	_ graphql.HandlerExtension    = statusOverride{}
	_ graphql.ResponseInterceptor = statusOverride{}
)

// ExtensionName implements graphql.HandlerExtension.
func (statusOverride) ExtensionName() string { return "HTTPStatusOverride" }

// Validate implements graphql.HandlerExtension.
func (statusOverride) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse notes 503 when an error says the database is
// unavailable, and reports every error's code.
func (s statusOverride) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil {
		return resp
	}
	holder, _ := ctx.Value(statusKey{}).(*statusHolder)
	for _, e := range resp.Errors {
		code, _ := e.Extensions["code"].(string)
		if s.onError != nil {
			s.onError(code)
		}
		if code == domain.CodeUnavailable && holder != nil {
			holder.status = http.StatusServiceUnavailable
		}
	}
	return resp
}

// withStatusOverride serves next with a writer that replaces the 200 of an
// operation whose errors call for another status.
func withStatusOverride(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		holder := &statusHolder{}
		ctx := context.WithValue(r.Context(), statusKey{}, holder)
		next.ServeHTTP(&statusWriter{ResponseWriter: w, holder: holder}, r.WithContext(ctx))
	})
}

type statusWriter struct {
	http.ResponseWriter
	holder *statusHolder
	wrote  bool
}

func (s *statusWriter) WriteHeader(status int) {
	if !s.wrote && status == http.StatusOK && s.holder.status != 0 {
		status = s.holder.status
	}
	s.wrote = true
	s.ResponseWriter.WriteHeader(status)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
