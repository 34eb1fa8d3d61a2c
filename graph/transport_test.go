package graph

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/normalize"
)

// TestPostTransportIsGqlgens: postTransport answers what gqlgen's own POST
// transport answers — status, content type and body — for well-formed,
// malformed and invalid requests under every Accept header.
func TestPostTransportIsGqlgens(t *testing.T) {
	norm, err := normalize.New()
	require.NoError(t, err)
	r := NewResolver(norm, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	build := func(tr interface {
		Supports(*http.Request) bool
		Do(http.ResponseWriter, *http.Request, graphql.GraphExecutor)
	}) http.Handler {
		srv := handler.New(NewExecutableSchema(Config{Resolvers: r, Complexity: complexity()}))
		srv.AddTransport(tr)
		return srv
	}
	ours, theirs := build(postTransport{}), build(transport.POST{})
	bodies := []string{
		`{"query":"{ __typename }"}`,
		`{"query":"{ __typename "}`,
		`{"query":"{ nope }"}`,
		`{"query":"query A { __typename } query B { __typename }"}`,
		`{"query":"query A { __typename }","operationName":"B"}`,
		`{"query":"{ __typename }","variables":{"x":1}}`,
		`{"query":`,
		`[]`,
		``,
		`{"query":"{ __typename }"} trailing`,
	}
	accepts := []string{"", "*/*", "application/json", "application/graphql-response+json",
		"application/graphql-response+json, application/json;q=0.9", "text/html", "application/*", "bogus;;"}
	for _, body := range bodies {
		for _, accept := range accepts {
			send := func(h http.Handler) *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if accept != "" {
					req.Header.Set("Accept", accept)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				return w
			}
			a, b := send(ours), send(theirs)
			assert.Equal(t, b.Code, a.Code, "status of %s with Accept %q", body, accept)
			assert.Equal(t, b.Header().Get("Content-Type"), a.Header().Get("Content-Type"), "content type of %s with Accept %q", body, accept)
			assert.Equal(t, b.Body.String(), a.Body.String(), "body of %s with Accept %q", body, accept)
		}
	}
}
