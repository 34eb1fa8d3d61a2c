package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/rest"
)

// openAPI loads the document rest serves and checks it is valid.
func openAPI(t *testing.T) (*openapi3.T, routers.Router) {
	t.Helper()
	rec := httptest.NewRecorder()
	rest.OpenAPIHandler(rec, httptest.NewRequest(http.MethodGet, "/api/v1/openapi.json", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(rec.Body.Bytes())
	require.NoError(t, err)
	require.True(t, doc.IsOpenAPI31OrLater(), "an OpenAPI 3.1 document")
	require.NoError(t, doc.Validate(loader.Context))
	router, err := gorillamux.NewRouter(doc)
	require.NoError(t, err)
	return doc, router
}

// conforms serves GET path on h and checks the response (status, headers,
// body) against the document; with validRequest, the request too.
func conforms(t *testing.T, h http.Handler, router routers.Router, path string, wantStatus int, validRequest bool) {
	t.Helper()
	rec := apitest.Get(t, h, path)
	require.Equal(t, wantStatus, rec.Code, "GET %s: %s", path, rec.Body)
	req := httptest.NewRequest(http.MethodGet, path, nil)
	route, params, err := router.FindRoute(req)
	require.NoError(t, err, "GET %s is a documented operation", req.URL.Path)
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	ctx := context.Background()
	if validRequest {
		assert.NoError(t, openapi3filter.ValidateRequest(ctx, in), "request %s", req.URL)
	}
	err = openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())), Options: opts,
	})
	assert.NoError(t, err, "GET %s → %d: %s", req.URL, rec.Code, rec.Body)
}

// TestResponsesMatchOpenAPI: the answers of every endpoint over a real
// database, and its errors, are what the OpenAPI document says. What the
// server adds (keys, ETags, body and rate limits, outages) is checked
// against the document in cmd/jobsd.
func TestResponsesMatchOpenAPI(t *testing.T) {
	doc, router := openAPI(t)
	env := apitest.New(t)
	h := env.REST()
	for _, path := range []string{
		"/jobs", "/jobs?skills=golang,k8s&city=SF&limit=2", "/jobs?limit=500&offset=3&sort=salary_desc",
		"/jobs?offset=100", "/jobs/test-1", "/jobs/test-5", "/jobs/test-10",
		"/companies", "/companies?min_jobs=0&limit=2",
		"/normalize?field=skills&value=k8s", "/companies?work_arrangement=remote&min_jobs=0", "/companies/acme-cloud", "/jobs/test-1/similar?limit=2", "/jobs?work_arrangement=remote&facets=skills,salary,company", "/normalize?location=Austin,%20TX&title=nurse",
		"/suggest?field=title&prefix=eng", "/suggest?field=skills&prefix=go&work_arrangement=remote&limit=3",
		"/suggest?field=company", "/suggest?field=location&prefix=sf", "/suggest?field=title&prefix=zzzz",
	} {
		conforms(t, h, router, "/api/v1"+path, 200, true)
	}
	// A cursor page.
	next := jobs(t, h, "limit=3").Meta.NextCursor
	require.NotNil(t, next)
	conforms(t, h, router, "/api/v1/jobs?limit=3&cursor="+*next, 200, true)

	// The change feed: a page, the next, the empty last one.
	conforms(t, h, router, "/api/v1/changes", 200, true)
	feed := getJSON[feedPage](t, h, "/api/v1/changes?limit=5", http.StatusOK)
	conforms(t, h, router, "/api/v1/changes?limit=5&after="+feed.Meta.NextCursor, 200, true)
	_, end := readFeed(t, h, "", 1000)
	conforms(t, h, router, "/api/v1/changes?after="+end, 200, true)

	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/jobs?limit=0", 400}, {"/jobs?salary_min=x", 400}, {"/jobs?skil=go", 400}, {"/jobs/Bad%20Id", 400},
		{"/companies?min_jobs=-2", 400}, {"/jobs/test-999", 404}, {"/normalize?field=limit&value=1", 400}, {"/companies/nobody", 404},
	} {
		conforms(t, h, router, "/api/v1"+tc.path, tc.status, false)
	}

	// 410: a closed posting, a cursor from before a purge.
	closed := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	env.Close(t, closed, "test-2")
	conforms(t, h, router, "/api/v1/jobs/test-2", 410, true)
	for _, path := range []string{"/changes?limit=0", "/changes?after=x", "/changes?next=1"} {
		conforms(t, h, router, "/api/v1"+path, 400, false)
	}
	_, err := env.Store.Purge(context.Background(), closed.Add(time.Second))
	require.NoError(t, err)
	conforms(t, h, router, "/api/v1/changes?after="+feed.Meta.NextCursor, 410, true)

	// POST is no operation of the document, so only the status and the
	// error body's shape are checked for it.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v1/jobs", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	assert.NotEmpty(t, rec.Header().Get("Allow"))
	var v any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &v))
	assert.NoError(t, doc.Components.Schemas["Error"].Value.VisitJSON(v, openapi3.EnableJSONSchema2020()), "%s", rec.Body)
}
