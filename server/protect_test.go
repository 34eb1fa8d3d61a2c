package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/server"
)

// protectService is the handler served over HTTP, as the tests of the
// server's middleware and GraphQL endpoint call it.
type protectService struct {
	base, key string
}

// newProtectService serves the handler over a fake store of twelve
// generated jobs, as many as the fixture of internal/apitest has: two of
// them (test-1 and test-2) with the skill Go (golang, normalized), as in
// the fixture, and three with Python; a skills filter keeps the jobs with
// one of its normalized values. configure, when set,
// changes the server's configuration; introspection is on, as serve's
// default is.
func newProtectService(t *testing.T, configure func(*server.Config)) *protectService {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	jobs, err := seed.Normalized(seed.Options{N: 12, Seed: 1}, norm)
	require.NoError(t, err)
	skills := map[string][]string{}
	for i := range jobs {
		jobs[i].ID = fmt.Sprintf("test-%d", i+1)
		jobs[i].CompanyID = int64(i + 1)
		switch {
		case i < 2:
			skills[jobs[i].ID] = []string{"Go"}
		case i < 5:
			skills[jobs[i].ID] = []string{"Python"}
		}
	}
	matches := func(id string, q domain.JobQuery) bool {
		for _, f := range q.Filters {
			if f.Field != "skills" {
				continue
			}
			wanted := append(slices.Clone(f.Values), f.Keys...)
			if !slices.ContainsFunc(skills[id], func(s string) bool {
				return slices.ContainsFunc(wanted, func(w string) bool { return strings.EqualFold(w, s) })
			}) {
				return false
			}
		}
		return true
	}
	st := &searchtest.Store{
		FindJobCardsFunc: func(_ context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
			cards := []domain.JobCard{}
			for i := range jobs {
				if matches(jobs[i].ID, q) {
					cards = append(cards, jobs[i].Card())
				}
			}
			total := len(cards)
			cards = cards[min(q.Offset, total):]
			if q.Limit > 0 && len(cards) > q.Limit {
				cards = cards[:q.Limit]
			}
			return cards, total, nil, nil
		},
		JobByIDFunc: func(_ context.Context, id string) (*domain.Job, error) {
			for i := range jobs {
				if jobs[i].ID == id {
					return &jobs[i], nil
				}
			}
			return nil, domain.Errorf(domain.CodeNotFound, "no job has id %s", domain.Clip(id))
		},
	}
	h, key := newHandlerWith(t, st, slog.New(slog.NewJSONHandler(io.Discard, nil)), 0, func(cfg *server.Config) {
		cfg.Introspection = true
		if configure != nil {
			configure(cfg)
		}
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &protectService{base: srv.URL, key: key}
}

// get requests path with the service's key; headers are name, value pairs.
func (s *protectService) get(t *testing.T, path string, headers ...string) (int, map[string]any, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	require.NoError(t, err)
	req.Header.Set("x-api-key", s.key)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return apitest.Do(t, req)
}

// graphql posts a query with variables and returns the decoded body.
func (s *protectService) graphql(t *testing.T, query string, vars map[string]any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, s.base+"/graphql", bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", s.key)
	status, body, _ := apitest.Do(t, req)
	return status, body
}

// noDB is a database pool that never connects: its statistics are all
// /metrics reads of it.
type noDB struct{}

func (noDB) Connect(context.Context) (driver.Conn, error) { return nil, errors.New("no database") }
func (noDB) Driver() driver.Driver                        { return noDriver{} }

type noDriver struct{}

func (noDriver) Open(string) (driver.Conn, error) { return nil, errors.New("no database") }

func TestHTTPNiceties(t *testing.T) {
	db := sql.OpenDB(noDB{})
	t.Cleanup(func() { db.Close() })
	s := newProtectService(t, func(cfg *server.Config) {
		cfg.CORSOrigins = []string{"https://app.example.com"}
		cfg.DBs = map[string]*sql.DB{"jobsd": db}
	})

	t.Run("gzip", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/jobs?limit=100", nil)
		req.Header.Set("x-api-key", s.key)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
		zr, err := gzip.NewReader(resp.Body)
		require.NoError(t, err)
		var body map[string]any
		require.NoError(t, json.NewDecoder(zr).Decode(&body))
		assert.Len(t, body["data"], 12)
	})

	t.Run("ETag and 304", func(t *testing.T) {
		status, _, h := s.get(t, "/api/v1/jobs?skills=golang")
		require.Equal(t, http.StatusOK, status)
		tag := h.Get("ETag")
		require.NotEmpty(t, tag)
		status, _, h = s.get(t, "/api/v1/jobs?skills=golang", "If-None-Match", tag)
		assert.Equal(t, http.StatusNotModified, status)
		assert.Equal(t, tag, h.Get("ETag"))
		status, _, _ = s.get(t, "/api/v1/jobs?skills=python", "If-None-Match", tag)
		assert.Equal(t, http.StatusOK, status, "another answer, another tag")
		status, _, _ = s.get(t, "/api/v1/jobs/test-1", "If-None-Match", `"stale", W/`+tag)
		assert.Equal(t, http.StatusOK, status)
	})

	t.Run("HEAD", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodHead, s.base+"/api/v1/jobs", nil)
		req.Header.Set("x-api-key", s.key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.NotEmpty(t, resp.Header.Get("ETag"))
	})

	t.Run("CORS", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, s.base+"/graphql", nil)
		req.Header.Set("Origin", "https://app.example.com")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type, x-api-key")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Less(t, resp.StatusCode, 300, "a preflight needs no key")
		assert.Equal(t, "https://app.example.com", resp.Header.Get("Access-Control-Allow-Origin"))
		assert.Contains(t, strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")), "x-api-key")

		_, _, h := s.get(t, "/api/v1/jobs", "Origin", "https://evil.example.com")
		assert.Empty(t, h.Get("Access-Control-Allow-Origin"), "origins not configured get no CORS grant")
		_, _, h = s.get(t, "/api/v1/jobs", "Origin", "https://app.example.com")
		assert.Equal(t, "https://app.example.com", h.Get("Access-Control-Allow-Origin"))
	})

	t.Run("body size limit", func(t *testing.T) {
		big := `{"query":"{ jobs { nodes { id } } }","variables":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`
		req, _ := http.NewRequest(http.MethodPost, s.base+"/graphql", strings.NewReader(big))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-key", s.key)
		status, body, _ := apitest.Do(t, req)
		assert.Equal(t, http.StatusRequestEntityTooLarge, status)
		ext := body["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)
		assert.Equal(t, "payload_too_large", ext["code"])
	})

	t.Run("metrics", func(t *testing.T) {
		s.get(t, "/api/v1/jobs/test-1")
		resp, err := http.Get(s.base + "/metrics")
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text := string(b)
		assert.True(t, strings.Contains(text, `jobsd_http_requests_total{method="GET",route="/api/v1/jobs/{id}",status="200"}`), "request counts by route")
		assert.True(t, strings.Contains(text, `jobsd_http_request_duration_seconds_bucket{method="GET",route="/api/v1/jobs/{id}",status="200"`), "latency histogram by route")
		assert.True(t, strings.Contains(text, `go_sql_max_open_connections{db_name="jobsd"}`), "database pool statistics")
	})
}

func TestGraphQLLimits(t *testing.T) {
	s := newProtectService(t, nil)
	first := func(body map[string]any) map[string]any {
		errs, ok := body["errors"].([]any)
		require.True(t, ok, "%v", body)
		return errs[0].(map[string]any)
	}

	t.Run("depth", func(t *testing.T) {
		deep := `query { jobs { nodes { ...a } } } fragment a on JobCard { location { ...b } } fragment b on Location { city }`
		_, body := s.graphql(t, deep, nil)
		assert.Nil(t, body["errors"], "an ordinary query is not too deep")
		// Introspection has a rule of its own: its lists may not nest.
		q := "{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }"
		_, body = s.graphql(t, q, nil)
		ext := first(body)["extensions"].(map[string]any)
		assert.Equal(t, "query_too_complex", ext["code"])
		q = "{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }"
		_, body = s.graphql(t, q, nil)
		assert.Nil(t, body["errors"], "introspection deeper than the depth limit is answered")
	})

	t.Run("complexity", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("{")
		for i := range 6 {
			b.WriteString(" a" + string(rune('0'+i)) + ": jobs(limit: 100) { nodes { id title company location { city state country full } salary { min max currency period } category { field role specialization } } }")
		}
		b.WriteString(" }")
		_, body := s.graphql(t, b.String(), nil)
		ext := first(body)["extensions"].(map[string]any)
		assert.Equal(t, "query_too_complex", ext["code"])
		_, body = s.graphql(t, `{ jobs(limit: 100) { nodes { id title company location { full } } } }`, nil)
		assert.Nil(t, body["errors"], "one full page is allowed")
	})

	t.Run("nested fragments", func(t *testing.T) {
		// Thirty fragments each spreading the next twice: refused at once
		// (walked once each), where walking every spread took minutes.
		var doc strings.Builder
		doc.WriteString("query { ...F1 }\n")
		for i := 1; i < 30; i++ {
			fmt.Fprintf(&doc, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
		}
		doc.WriteString("fragment F30 on Query { jobs { nodes { id } } }\n")
		done := make(chan map[string]any, 1)
		go func() { _, body := s.graphql(t, doc.String(), nil); done <- body }()
		select {
		case body := <-done:
			assert.Equal(t, "query_too_complex", first(body)["extensions"].(map[string]any)["code"])
		case <-time.After(10 * time.Second):
			t.Fatal("no answer to 30 nested fragments after 10 s")
		}
	})

	t.Run("root fields and aliases", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("{")
		for i := range 11 {
			fmt.Fprintf(&b, ` s%d: jobs(filter: {q: "engineer"}) { nodes { id } }`, i)
		}
		b.WriteString(" }")
		_, body := s.graphql(t, b.String(), nil)
		assert.Contains(t, first(body)["message"], "11 root fields")
	})

	t.Run("the cost in extensions", func(t *testing.T) {
		_, body := s.graphql(t, `{ jobs(limit: 10) { nodes { id title } } }`, nil)
		require.Nil(t, body["errors"])
		assert.Equal(t, map[string]any{"cost": map[string]any{"requested": float64(22), "limit": float64(10000)}}, body["extensions"])
	})

	t.Run("graphql-js's introspection query", func(t *testing.T) {
		q, err := os.ReadFile("../graph/testdata/introspection/graphql-js-all-options.graphql")
		require.NoError(t, err)
		_, body := s.graphql(t, string(q), nil)
		require.Nil(t, body["errors"])
		assert.NotEmpty(t, body["data"].(map[string]any)["__schema"].(map[string]any)["types"])
	})

	t.Run("requests no transport serves", func(t *testing.T) {
		for _, c := range []struct {
			method, contentType string
			status              int
			code                string
		}{
			{http.MethodPost, "text/plain", http.StatusBadRequest, "invalid_parameter"},
			{http.MethodPut, "application/json", http.StatusMethodNotAllowed, "method_not_allowed"},
		} {
			req, _ := http.NewRequest(c.method, s.base+"/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
			req.Header.Set("Content-Type", c.contentType)
			req.Header.Set("x-api-key", s.key)
			status, body, _ := apitest.Do(t, req)
			assert.Equal(t, c.status, status, "%s %s", c.method, c.contentType)
			assert.Equal(t, c.code, first(body)["extensions"].(map[string]any)["code"], "%s %s", c.method, c.contentType)
		}
		req, _ := http.NewRequest(http.MethodPost, s.base+"/graphql", strings.NewReader(`{"query": "{ __typename }", "secret-looking": `))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-key", s.key)
		status, body, _ := apitest.Do(t, req)
		assert.Equal(t, http.StatusBadRequest, status)
		assert.NotContains(t, first(body)["message"], "secret-looking", "the body is not echoed")
	})

	t.Run("automatic persisted queries", func(t *testing.T) {
		query := `{ jobs(filter: {skills: ["golang"]}) { pageInfo { total } } }`
		sum := sha256.Sum256([]byte(query))
		ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}}
		post := func(payload map[string]any) map[string]any {
			b, _ := json.Marshal(payload)
			req, _ := http.NewRequest(http.MethodPost, s.base+"/graphql", bytes.NewReader(b))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("x-api-key", s.key)
			_, body, _ := apitest.Do(t, req)
			return body
		}
		body := post(map[string]any{"extensions": ext})
		assert.Equal(t, "PersistedQueryNotFound", first(body)["message"], "the hash alone is unknown at first")
		body = post(map[string]any{"query": query, "extensions": ext})
		require.Nil(t, body["errors"])
		body = post(map[string]any{"extensions": ext})
		require.Nil(t, body["errors"], "now the hash alone runs the query")
		assert.Equal(t, float64(2), body["data"].(map[string]any)["jobs"].(map[string]any)["pageInfo"].(map[string]any)["total"])
	})
}
