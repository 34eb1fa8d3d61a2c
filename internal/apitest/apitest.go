// Package apitest gives the tests of the layers above the store (rest,
// graph) a real database, in process, as `jobsd serve` has it after
// `jobsd import`:
//
//   - a fresh, migrated PostgreSQL database (pgtest), dropped when the test
//     ends;
//   - the fixture testdata/jobs.ndjson imported through the importer, as
//     `jobsd import` imports it, normalized with the reference data of
//     $JOBSD_REFDATA (none when unset), and its descriptions indexed for
//     keyword search, which serve's text indexer does in the background;
//   - the in-process index (store.StartIndex) built and kept current, as
//     serve keeps it;
//   - the query service over the store, and the REST and GraphQL handlers
//     over the service.
//
// What needs the process itself (the environment, API keys, the server's
// middleware, outages, replicas, signals) is tested end to end in cmd/jobsd.
//
//	env := apitest.New(t)
//	rec := httptest.NewRecorder()
//	env.REST().ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/jobs?skills=golang", nil))
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/live"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/rest"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/store"
)

// Env is a loaded database and the service over it.
type Env struct {
	DB      *bun.DB
	Store   *store.Store
	Norm    *normalize.Normalizer
	Service *search.Service
	// Hub delivers subscriptions' events (Options.Live; nil otherwise).
	Hub *live.Hub
	// Log is the handlers' log: discarded unless LogTo says otherwise (an
	// internal error also reaches the client as the internal code).
	Log *slog.Logger
	ctx context.Context
}

// New returns an Env whose database holds the fixture's 12 jobs.
func New(t testing.TB) *Env {
	t.Helper()
	fixture, err := os.ReadFile(pgtest.Fixture(t, "jobs.ndjson"))
	require.NoError(t, err)
	return NewWith(t, string(fixture))
}

// NewWith returns an Env whose database holds the jobs of ndjson (one job
// a line, the contract's record shape) and nothing else.
func NewWith(t testing.TB, ndjson string) *Env {
	t.Helper()
	return NewWithOptions(t, ndjson, Options{})
}

// Options vary an Env.
type Options struct {
	// Rates are the currency rates the service and the index compare
	// salaries at (nil: none, as without the rates file).
	Rates *currency.Source
	// NoIndex answers every list in SQL alone, as serve --index=false.
	NoIndex bool
	// Live serves subscriptions, as serve does: a hub following the
	// index (Env.Hub), at most LivePerKey open per key (0: the default).
	Live       bool
	LivePerKey int
	// LiveOptions tune the hub.
	LiveOptions live.Options
}

// NewWithOptions is NewWith with options.
func NewWithOptions(t testing.TB, ndjson string, opts Options) *Env {
	t.Helper()
	db := pgtest.NewDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	// Registered after pgtest's cleanups, so run before them: the index
	// stops before its database is closed.
	t.Cleanup(cancel)
	e := &Env{DB: db, Store: store.New(db), Norm: normalizer(t), Log: slog.New(slog.DiscardHandler), ctx: ctx}
	e.Import(t, ndjson)
	var searchOpts []search.Option
	if opts.Live && !opts.NoIndex {
		e.Hub = live.NewHub(e.Store, opts.LiveOptions)
		searchOpts = append(searchOpts, search.WithLive(e.Hub, opts.LivePerKey))
	}
	if !opts.NoIndex {
		indexOpts := store.IndexOptions{Poll: 100 * time.Millisecond, Rates: opts.Rates.Rates}
		if e.Hub != nil {
			indexOpts.OnAdvance = e.Hub.Advance
			go e.Hub.Run(ctx)
		}
		ix, err := e.Store.StartIndex(ctx, indexOpts)
		require.NoError(t, err)
		waitCtx, stop := context.WithTimeout(ctx, 30*time.Second)
		defer stop()
		require.NoError(t, ix.WaitReady(waitCtx), "the first index")
	}
	e.Service = search.New(e.Norm, e.Store, append(searchOpts, search.WithRates(opts.Rates))...)
	return e
}

// Import imports the jobs of ndjson as `jobsd import -` does (a job of an
// id already stored is replaced) and indexes their descriptions for keyword
// search. It fails the test unless every line is written. The index
// applies the import's changes by itself within a poll.
func (e *Env) Import(t testing.TB, ndjson string) {
	t.Helper()
	res, err := importer.NDJSON(e.ctx, strings.NewReader(ndjson), e.Norm, e.Store, importer.Options{})
	require.NoError(t, err, "import: %v", res.Invalid)
	require.Equal(t, strings.Count(strings.TrimSpace(ndjson), "\n")+1, res.Imported, "jobs written")
	_, err = e.Store.IndexTexts(e.ctx, 1, nil)
	require.NoError(t, err, "index the descriptions")
}

// ImportLines imports NDJSON lines (postings and tombstones) as `jobsd
// import -` does, in one transaction, failing the test on an error.
func (e *Env) ImportLines(t testing.TB, lines []string) {
	t.Helper()
	_, err := importer.NDJSON(e.ctx, strings.NewReader(strings.Join(lines, "\n")+"\n"), e.Norm, e.Store, importer.Options{})
	require.NoError(t, err)
}

// Do sends req and returns its status, its JSON body decoded (nil when it
// is not JSON) and its headers.
func Do(t testing.TB, req *http.Request) (int, map[string]any, http.Header) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var v map[string]any
	if len(body) > 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/") {
		require.NoError(t, json.Unmarshal(body, &v), "body: %s", body)
	}
	return resp.StatusCode, v, resp.Header
}

// Close closes the postings with the ids at the instant, as an import's
// tombstones do.
func (e *Env) Close(t testing.TB, at time.Time, ids ...string) {
	t.Helper()
	im, err := e.Store.BeginImport(e.ctx)
	require.NoError(t, err)
	closes := make([]domain.JobClose, len(ids))
	for i, id := range ids {
		closes[i] = domain.JobClose{ID: id, ClosedAt: &at}
	}
	require.NoError(t, im.Close(e.ctx, closes))
	require.NoError(t, im.Commit(e.ctx))
}

// REST returns the REST endpoints mounted at /api/v1, as the server mounts
// them, behind chi's request id middleware: a request's X-Request-ID (or a
// generated id) is the request_id of its error body. opts are the router's.
func (e *Env) REST(opts ...rest.Option) http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID)
	r.Mount("/api/v1", rest.NewRouter(e.Service, e.Log, opts...))
	return r
}

// GraphQL returns the GraphQL endpoint with opts (zero: the defaults), at
// any path.
func (e *Env) GraphQL(opts graph.HandlerOptions) http.Handler {
	return graph.NewHandler(graph.NewResolver(e.Service, e.Log), opts)
}

// The normalizer with the reference data takes a while to build, and it
// never changes: one per test binary.
var (
	normOnce sync.Once
	norm     *normalize.Normalizer
	normErr  error
)

func normalizer(t testing.TB) *normalize.Normalizer {
	t.Helper()
	normOnce.Do(func() {
		norm, normErr = normalize.New(normalize.WithRefData(os.Getenv("JOBSD_REFDATA")))
	})
	require.NoError(t, normErr, "the normalizer (JOBSD_REFDATA=%q)", os.Getenv("JOBSD_REFDATA"))
	return norm
}

// Get serves a GET of path on h, with headers (name and value pairs), and
// returns the recorded response.
func Get(t testing.TB, h http.Handler, path string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Decode decodes a JSON body into a T, refusing fields T does not have:
// a test's struct states the whole shape of what it reads.
func Decode[T any](t testing.TB, body []byte) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&v), "body: %s", body)
	return v
}

// Fingerprint sums the rows of every table a request could touch: equal
// fingerprints before and after requests show that they wrote nothing.
func (e *Env) Fingerprint(t testing.TB) string {
	t.Helper()
	var sum string
	require.NoError(t, e.DB.NewRaw(`SELECT
		(SELECT count(*) || md5(coalesce(string_agg(j::text, '|' ORDER BY id), '')) FROM jobs j) ||
		(SELECT count(*) || md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM companies c) ||
		(SELECT count(*) || md5(coalesce(string_agg(k.name || k.prefix, '|' ORDER BY id), '')) FROM api_keys k)`).Scan(e.ctx, &sum))
	return sum
}

// LogTo makes the handlers built from now on (REST, GraphQL) log to w, as
// JSON lines, instead of discarding their log.
func (e *Env) LogTo(w io.Writer) {
	e.Log = slog.New(slog.NewJSONHandler(w, nil))
}
