package main_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// openAPI loads the document the service serves and checks it is valid.
func openAPI(t *testing.T, s *service) routers.Router {
	t.Helper()
	resp, err := http.Get(s.base + "/api/v1/openapi.json")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "the document needs no key")
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	require.NoError(t, err)
	require.True(t, doc.IsOpenAPI31OrLater(), "an OpenAPI 3.1 document")
	require.NoError(t, doc.Validate(loader.Context))
	router, err := gorillamux.NewRouter(doc)
	require.NoError(t, err)
	return router
}

// conforms sends req and checks the response (status, headers, body)
// against the document; with validRequest, the request too.
func conforms(t *testing.T, router routers.Router, req *http.Request, wantStatus int, validRequest bool) {
	t.Helper()
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, wantStatus, resp.StatusCode, "%s %s: %s", req.Method, req.URL, body)

	route, params, err := router.FindRoute(req)
	require.NoError(t, err, "%s %s is a documented operation", req.Method, req.URL.Path)
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	ctx := context.Background()
	if validRequest {
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
		assert.NoError(t, openapi3filter.ValidateRequest(ctx, in), "request %s", req.URL)
	}
	err = openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: opts,
	})
	assert.NoError(t, err, "%s %s → %d: %s", req.Method, req.URL, resp.StatusCode, body)
}

// TestResponsesMatchOpenAPI: what the server and the process add to the
// REST answers (the document served without a key, ETags, keys, the body
// limit, rate limits, a database outage) is what the OpenAPI document
// says. rest.TestResponsesMatchOpenAPI checks the endpoints' answers.
func TestResponsesMatchOpenAPI(t *testing.T) {
	c := pgtest.NewCluster(t)
	s := loadedService(t, c.URL("postgres"))
	router := openAPI(t, s)
	slow := strings.TrimSpace(jobsd(t, s.dsn, "apikey", "create", "--name", "slow", "--rate", "0.01", "--burst", "1"))

	request := func(method, path string, headers ...string) *http.Request {
		return s.request(t, method, "/api/v1"+path, headers...)
	}
	_, _, h := s.get(t, "/api/v1/jobs/test-1")
	conforms(t, router, request(http.MethodGet, "/jobs/test-1", "If-None-Match", h.Get("ETag")), 304, true)

	conforms(t, router, request(http.MethodGet, "/jobs", "x-api-key", ""), 401, false)
	conforms(t, router, request(http.MethodGet, "/companies", "x-api-key", "jobsd_wrong"), 401, false)

	big := request(http.MethodGet, "/jobs")
	big.Body = io.NopCloser(strings.NewReader(strings.Repeat("x", 2<<20)))
	big.ContentLength = 2 << 20
	conforms(t, router, big, 413, false)

	conforms(t, router, request(http.MethodGet, "/jobs/test-1", "x-api-key", slow), 200, true)
	conforms(t, router, request(http.MethodGet, "/jobs/test-1", "x-api-key", slow), 429, false)

	c.Stop()
	conforms(t, router, request(http.MethodGet, "/jobs?skills=rust"), 503, false)
	conforms(t, router, request(http.MethodGet, "/companies?limit=7"), 503, false)
}
