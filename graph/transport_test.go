package graph

import (
	"encoding/json"
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
	"github.com/jobsd-dev/jobsd/search"
)

// TestPostTransportIsGqlgens: postTransport answers what gqlgen's own POST
// transport answers — status, content type and body — for well-formed,
// malformed and invalid requests under every Accept header, except that a
// body that is not JSON is not echoed back and its error has a code.
func TestPostTransportIsGqlgens(t *testing.T) {
	norm, err := normalize.New()
	require.NoError(t, err)
	r := NewResolver(search.New(norm, nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
	build := func(tr interface {
		Supports(*http.Request) bool
		Do(http.ResponseWriter, *http.Request, graphql.GraphExecutor)
	}) http.Handler {
		srv := handler.New(NewExecutableSchema(Config{Resolvers: r}))
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
			if strings.Contains(b.Body.String(), "json request body could not be decoded") {
				assert.Contains(t, a.Body.String(), `"code":"invalid_parameter"`, "body of %s", body)
				assert.Contains(t, a.Body.String(), "the request body is not a GraphQL request in JSON")
				if body != "" {
					assert.NotContains(t, a.Body.String(), body, "the body is echoed")
				}
				continue
			}
			assert.Equal(t, b.Body.String(), a.Body.String(), "body of %s with Accept %q", body, accept)
		}
	}
}

// TestUnsupportedRequestsHaveACode: a request no transport serves is
// answered in GraphQL's shape, with the contract's code.
func TestUnsupportedRequestsHaveACode(t *testing.T) {
	norm, err := normalize.New()
	require.NoError(t, err)
	h := NewHandler(NewResolver(search.New(norm, nil), slog.New(slog.NewTextHandler(io.Discard, nil))), HandlerOptions{})
	for _, c := range []struct {
		method, contentType, upgrade string
		status                       int
		code                         string
	}{
		{http.MethodPost, "text/plain", "", http.StatusBadRequest, "invalid_parameter"},
		{http.MethodPost, "application/x-www-form-urlencoded", "", http.StatusBadRequest, "invalid_parameter"},
		{http.MethodPut, "application/json", "", http.StatusMethodNotAllowed, "method_not_allowed"},
		{http.MethodDelete, "", "", http.StatusMethodNotAllowed, "method_not_allowed"},
		{http.MethodGet, "", "websocket", http.StatusBadRequest, "invalid_parameter"},
	} {
		req := httptest.NewRequest(c.method, "/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		if c.upgrade != "" {
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", c.upgrade)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		assert.Equal(t, c.status, w.Code, "%s %s", c.method, c.contentType)
		var body struct {
			Errors []struct {
				Message    string
				Extensions map[string]any
			}
		}
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body), w.Body.String())
		require.Len(t, body.Errors, 1, w.Body.String())
		assert.NotEmpty(t, body.Errors[0].Message)
		assert.Equal(t, c.code, body.Errors[0].Extensions["code"], w.Body.String())
	}
}
