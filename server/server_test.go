package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/rest"
	"github.com/jobsd-dev/jobsd/search/searchtest"
)

func TestPanicsBecomeInternalErrors(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	srv, key := newTestServer(t, &searchtest.Store{
		FindJobCardsFunc: func(context.Context, domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
			panic("index out of range in a store bug")
		},
	}, log)
	get := func(path string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var body map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		return resp.StatusCode, body
	}

	status, body := get("/api/v1/jobs")
	assert.Equal(t, http.StatusInternalServerError, status)
	doc, err := openapi3.NewLoader().LoadFromData(rest.OpenAPI)
	require.NoError(t, err)
	assert.NoError(t, doc.Components.Schemas["Error"].Value.VisitJSON(any(body), openapi3.EnableJSONSchema2020()), "the 500 body is the documented error")
	e := body["error"].(map[string]any)
	assert.Equal(t, "internal", e["code"])
	assert.Equal(t, "internal error", e["message"], "no details for the client")
	assert.NotEmpty(t, e["request_id"])
	assert.Contains(t, logs.String(), "index out of range in a store bug", "the panic is in the log")
	assert.Contains(t, logs.String(), "goroutine", "with its stack")
	assert.Contains(t, logs.String(), e["request_id"], "keyed by request id")
	panicLines := func() int { return strings.Count(logs.String(), "index out of range in a store bug") }
	assert.Equal(t, 1, panicLines(), "the panic is logged once")

	status, body = get("/graphql?query=" + "%7B%20jobs%20%7B%20pageInfo%20%7B%20total%20%7D%20%7D%20%7D")
	assert.Equal(t, http.StatusOK, status)
	ext := body["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)
	assert.Equal(t, "internal", ext["code"])
	assert.False(t, strings.Contains(body["errors"].([]any)[0].(map[string]any)["message"].(string), "index out of range"))
	assert.Equal(t, 2, panicLines(), "the GraphQL panic is logged once too")
	assert.Equal(t, 1, strings.Count(logs.String(), `"msg":"panic in GraphQL resolver"`))
	assert.NotContains(t, logs.String(), "internal error in GraphQL request", "not again by the presenter")

	status, _ = get("/api/v1/companies")
	assert.Equal(t, http.StatusOK, status, "the process serves on")
}
