package main_test

import (
	"bytes"
	"context"
	"encoding/json"
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
func openAPI(t *testing.T, s *service) (*openapi3.T, routers.Router) {
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
	return doc, router
}

// conformsToSchema checks a body against a schema of the document.
func conformsToSchema(t *testing.T, doc *openapi3.T, name string, body []byte) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(body, &v))
	assert.NoError(t, doc.Components.Schemas[name].Value.VisitJSON(v, openapi3.EnableJSONSchema2020()), "%s", body)
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

func TestResponsesMatchOpenAPI(t *testing.T) {
	c := pgtest.NewCluster(t)
	s := loadedService(t, c.URL("postgres"))
	doc, router := openAPI(t, s)
	slow := strings.TrimSpace(jobsd(t, s.dsn, "apikey", "create", "--name", "slow", "--rate", "0.01", "--burst", "1"))

	request := func(method, path string, headers ...string) *http.Request {
		return s.request(t, method, "/api/v1"+path, headers...)
	}
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/jobs", 200}, {"/jobs?skills=golang,k8s&city=SF&limit=2", 200}, {"/jobs?limit=500&offset=3&sort=salary_desc", 200},
		{"/jobs?offset=100", 200}, {"/jobs/test-1", 200}, {"/jobs/test-5", 200}, {"/jobs/test-10", 200},
		{"/companies", 200}, {"/companies?min_jobs=0&limit=2", 200},
		{"/normalize?field=skills&value=k8s", 200}, {"/companies?work_arrangement=remote&min_jobs=0", 200}, {"/companies/acme-cloud", 200}, {"/jobs/test-1/similar?limit=2", 200}, {"/jobs?work_arrangement=remote&facets=skills,salary,company", 200}, {"/normalize?location=Austin,%20TX&title=nurse", 200},
	} {
		conforms(t, router, request(http.MethodGet, tc.path), tc.status, true)
	}
	// A cursor page.
	_, body, _ := s.get(t, "/api/v1/jobs?limit=3")
	next := body["meta"].(map[string]any)["next_cursor"].(string)
	conforms(t, router, request(http.MethodGet, "/jobs?limit=3&cursor="+next), 200, true)

	_, _, h := s.get(t, "/api/v1/jobs/test-1")
	conforms(t, router, request(http.MethodGet, "/jobs/test-1", "If-None-Match", h.Get("ETag")), 304, true)

	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/jobs?limit=0", 400}, {"/jobs?salary_min=x", 400}, {"/jobs?skil=go", 400}, {"/jobs/Bad%20Id", 400},
		{"/companies?min_jobs=-2", 400}, {"/jobs/test-999", 404}, {"/normalize?field=limit&value=1", 400}, {"/companies/nobody", 404},
	} {
		conforms(t, router, request(http.MethodGet, tc.path), tc.status, false)
	}
	conforms(t, router, request(http.MethodGet, "/jobs", "x-api-key", ""), 401, false)
	conforms(t, router, request(http.MethodGet, "/companies", "x-api-key", "jobsd_wrong"), 401, false)

	// POST is no operation of the document, so only the status and the
	// error body's shape are checked for it.
	resp, err := http.DefaultClient.Do(request(http.MethodPost, "/jobs"))
	require.NoError(t, err)
	body405, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.NotEmpty(t, resp.Header.Get("Allow"))
	conformsToSchema(t, doc, "Error", body405)

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
