// Package server assembles jobsd's HTTP service: one chi router with the
// REST endpoints, the GraphQL endpoint and playground, health checks, and
// the middleware every request passes (request id, logging, recovery,
// deadline, API key).
package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"regexp"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/cors"
	"github.com/klauspost/compress/gzhttp"
	gz "github.com/klauspost/compress/gzip"
	"golang.org/x/sync/singleflight"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/examples/web"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/live"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/playground"
	"github.com/jobsd-dev/jobsd/ratelimit"
	"github.com/jobsd-dev/jobsd/rest"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/store"
)

// Config is what the server needs.
type Config struct {
	// Search is the query service the GraphQL resolvers and the REST
	// handlers adapt.
	Search *search.Service
	Keys   *auth.Checker
	// Ping reports whether the database answers (/readyz). /readyz answers
	// from a result at most a second old: concurrent /readyz requests
	// cause at most one Ping a second.
	Ping func(context.Context) error
	// Ready, when set, reports whether the service has what it needs to
	// answer at full speed (its index, current); /readyz fails otherwise.
	Ready func() bool
	// IndexStats, when set, are the in-memory index's figures /metrics
	// exports.
	IndexStats func() store.IndexStats
	// LiveStats, when set, are the subscriptions' figures /metrics
	// exports (live.Hub.Stats).
	LiveStats func() live.Stats
	// Closing, when done, ends the open WebSocket connections: the server
	// is shutting down (the hub ends their subscriptions first).
	Closing context.Context
	// Draining, when set, reports whether the process is shutting down:
	// /readyz then fails, so that load balancers stop sending requests,
	// and every response closes its connection.
	Draining func() bool
	// Touch records that a key was used (at most once a minute per key).
	Touch func(ctx context.Context, keyID int64) error
	Log   *slog.Logger
	// AccessLog takes the line each request ends with (default Log). It
	// may be buffered: those lines are many and none is urgent, where
	// warnings and errors go to Log at once.
	AccessLog *slog.Logger
	// RequestTimeout is every request's deadline (default 10s).
	RequestTimeout time.Duration
	// PlaygroundKey prefills the playground's x-api-key header.
	PlaygroundKey string
	// Demo serves the reference search page (examples/web) at /demo/,
	// with PlaygroundKey as the key it sends.
	Demo bool
	// Introspection allows GraphQL introspection (the playground needs it).
	Introspection bool
	// CORSOrigins are the origins browsers may call the API from ("*" for
	// any); none turns CORS off.
	CORSOrigins []string
	// TrustedProxies are the proxies whose Forwarded and X-Forwarded-For
	// name a request's client (ParseTrustedProxies); none: every client
	// is its connection's peer.
	TrustedProxies []netip.Prefix
	// MaxBodyBytes is the largest request body accepted (default 1 MiB).
	MaxBodyBytes int64
	// DBs are the database pools whose statistics /metrics exports, by
	// db_name ("jobsd" for requests, the background pool, replicas).
	DBs map[string]*sql.DB
	// Attributions returns the data sources served at /attributions, at
	// each request: the reference data in use may change while serving.
	Attributions func() []normalize.Source
	// GraphQL tunes the GraphQL endpoint's limits.
	GraphQL graph.HandlerOptions
	// Limiter limits each key's requests (default: in process).
	Limiter ratelimit.Limiter
	// DefaultLimit is the bucket of keys that set none (default 50/s,
	// burst 100).
	DefaultLimit ratelimit.Limit
}

// New returns the service's http.Handler.
func New(cfg Config) http.Handler {
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = 10 * time.Second
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.AccessLog == nil {
		cfg.AccessLog = cfg.Log
	}
	if cfg.Limiter == nil {
		cfg.Limiter = ratelimit.NewLocal()
	}
	if cfg.DefaultLimit.Rate == 0 {
		cfg.DefaultLimit = ratelimit.Limit{Rate: 50, Burst: 100}
	}
	clients, err := newClientFinder(cfg.TrustedProxies)
	if err != nil {
		panic(err) // ParseTrustedProxies's prefixes always make one
	}
	s := &server{cfg: cfg, touched: map[int64]time.Time{}, metrics: newMetrics(cfg.DBs, cfg.IndexStats, cfg.LiveStats), clients: clients}
	// The fastest level: JSON compresses well at any level, and a slower
	// level costs more processor time than the bytes it saves are worth.
	gzip, err := gzhttp.NewWrapper(gzhttp.MinSize(1024), gzhttp.CompressionLevel(gz.BestSpeed))
	if err != nil {
		panic(err) // the options are constants
	}
	r := chi.NewRouter()
	r.Use(requestID, s.logRequests, s.recoverPanics)
	if cfg.Draining != nil {
		r.Use(s.closeWhenDraining)
	}
	if len(cfg.CORSOrigins) > 0 {
		r.Use(cors.Handler(cors.Options{
			AllowedOrigins:   cfg.CORSOrigins,
			AllowedMethods:   []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodOptions},
			AllowedHeaders:   []string{"Content-Type", "X-Api-Key", "X-Request-ID", "If-None-Match"},
			ExposedHeaders:   []string{"X-Request-ID", "ETag", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"},
			AllowCredentials: false,
			MaxAge:           600,
		}))
	}
	// No middleware here reads the request body: the routes that take one
	// read it (limitBody) only once requireKey has let the request through,
	// so that an unauthenticated request costs no body read.
	// Streams (a WebSocket, an event stream) are written as they go and
	// last: the buffering middleware and the deadline pass them by.
	r.Use(unlessStreaming(etag), unlessStreaming(func(next http.Handler) http.Handler { return gzip(next) }),
		middleware.GetHead, unlessStreaming(s.deadline))
	r.Get("/metrics", s.metrics.handler().ServeHTTP)
	r.NotFound(rest.NotFound(cfg.Log))
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		rest.WriteError(w, r, cfg.Log, domain.Errorf(domain.CodeMethodNotAllowed, "%s is not allowed here", rest.Clip(r.Method)))
	})
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {
		writeStatus(w, http.StatusOK, "ok")
	})
	ping := &readiness{ping: cfg.Ping, timeout: cfg.RequestTimeout, now: time.Now}
	r.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if cfg.Draining != nil && cfg.Draining() {
			writeStatus(w, http.StatusServiceUnavailable, "shutting down")
			return
		}
		if err := ping.check(r.Context()); err != nil {
			writeStatus(w, http.StatusServiceUnavailable, "database unavailable")
			return
		}
		if cfg.Ready != nil && !cfg.Ready() {
			writeStatus(w, http.StatusServiceUnavailable, "index building")
			return
		}
		writeStatus(w, http.StatusOK, "ok")
	})
	r.Get("/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/playground", http.StatusFound)
	})
	r.Method(http.MethodGet, "/playground", playground.Page(playground.Options{Endpoint: "/graphql", AssetsPath: "/playground/assets", APIKey: cfg.PlaygroundKey}))
	r.Method(http.MethodGet, "/playground/assets/*", http.StripPrefix("/playground/assets", playground.Assets()))
	if cfg.Demo {
		r.Get("/demo", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/demo/", http.StatusFound) // the page's assets are relative
		})
		r.Method(http.MethodGet, "/demo/*", http.StripPrefix("/demo", web.Handler(cfg.PlaygroundKey)))
	}
	r.Get("/api/v1/openapi.json", rest.OpenAPIHandler)
	r.Get("/attributions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		sources := []normalize.Source{}
		if cfg.Attributions != nil {
			sources = append(sources, cfg.Attributions()...)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": sources})
	})
	r.Get("/graphql/schema.graphqls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte(graph.SDL()))
	})
	gqlOpts := cfg.GraphQL
	gqlOpts.Introspection, gqlOpts.RequestID = cfg.Introspection, middleware.GetReqID
	gqlOpts.OnError = s.metrics.graphQLError
	gqlOpts.ClientKey = requestKey
	gqlOpts.Authenticate, gqlOpts.Closing = s.authenticateSocket, cfg.Closing
	gql := graph.NewHandler(graph.NewResolver(cfg.Search, cfg.Log), gqlOpts)
	// A WebSocket presents its key in connection_init (a browser cannot
	// set the header of one): the transport checks it there.
	r.With(unlessSocket(s.requireKey(writeGraphQLError)), unlessSocket(s.limitBody(cfg.MaxBodyBytes)), s.socketAddr).Handle("/graphql", gql)
	r.With(s.requireKey(rest.WriteError), s.limitBody(cfg.MaxBodyBytes)).Mount("/api/v1", rest.NewRouter(cfg.Search, cfg.Log))
	return r
}

type server struct {
	cfg     Config
	metrics *metrics
	clients *clientFinder

	mu      sync.Mutex
	touched map[int64]time.Time
}

func writeStatus(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": text})
}

// errorWriter writes an error in one transport's shape.
type errorWriter func(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error)

// requireKey lets through requests with a valid x-api-key and answers the
// others with 401 unauthorized (503 when keys cannot be checked), or with
// 429 rate_limited once their client address has failed too often. It
// reads no request body: it runs before anything that does.
func (s *server) requireKey(writeErr errorWriter) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			presented := r.Header.Get("x-api-key")
			key, err := s.cfg.Keys.Check(r.Context(), presented, s.client(r))
			var tooMany *auth.TooManyFailuresError
			switch {
			case errors.As(err, &tooMany):
				retry := max(1, ceilSeconds(tooMany.RetryAfter))
				h := w.Header()
				h.Set("Retry-After", strconv.Itoa(retry))
				h.Set("X-RateLimit-Limit", strconv.FormatFloat(tooMany.Limit, 'f', -1, 64))
				h.Set("X-RateLimit-Remaining", "0")
				h.Set("X-RateLimit-Reset", strconv.Itoa(ceilSeconds(tooMany.Reset)))
				writeErr(w, r, s.cfg.Log, domain.Errorf(domain.CodeRateLimited,
					"too many requests from this address failed to authenticate; retry in %d s", retry))
				return
			case err != nil:
				writeErr(w, r, s.cfg.Log, err)
				return
			case key == nil && presented == "":
				writeErr(w, r, s.cfg.Log, domain.Errorf(domain.CodeUnauthorized, "an x-api-key header is required"))
				return
			case key == nil && !auth.WellFormed(presented):
				writeErr(w, r, s.cfg.Log, domain.Errorf(domain.CodeUnauthorized,
					"the x-api-key is not a jobsd key (%s followed by 32 letters, digits, - or _)", auth.KeyPrefix))
				return
			case key == nil:
				writeErr(w, r, s.cfg.Log, domain.Errorf(domain.CodeUnauthorized, "the x-api-key is unknown or revoked"))
				return
			}
			if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
				info.key, info.apiKey = key.Name, key
			}
			s.touch(key.ID)
			if !s.allow(w, r, key, writeErr) {
				return
			}
			if r.URL.Path == eventStreamPath {
				r = r.WithContext(search.WithSubscriber(r.Context(), key.BucketID(), "sse"))
			}
			next.ServeHTTP(w, r)
		})
	}
}

// client names the client a request comes from, for the limit on failed
// authentications and the access log (clientFinder.of): found once, when
// the request is logged.
func (s *server) client(r *http.Request) string {
	if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok && info.client != "" {
		return info.client
	}
	return s.clients.of(r)
}

// readiness answers /readyz's database check from a result at most a
// second old; at most one ping is in flight, and a ping starts at least a
// second after the previous one ended.
type readiness struct {
	ping    func(context.Context) error
	timeout time.Duration
	now     func() time.Time

	mu     sync.Mutex
	at     time.Time // when err was learned; zero before the first ping
	err    error
	flight singleflight.Group
}

// readyMaxAge is the age of the oldest ping result /readyz answers from.
const readyMaxAge = time.Second

// fresh returns the last result when it is younger than readyMaxAge.
func (p *readiness) fresh() (err error, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.at.IsZero() || p.now().Sub(p.at) >= readyMaxAge {
		return nil, false
	}
	return p.err, true
}

// check returns the database's state, pinging it when the last result is
// too old. The ping runs detached from ctx (other requests may wait for
// it), bounded by the request timeout; ctx bounds only this caller's wait.
func (p *readiness) check(ctx context.Context) error {
	if err, ok := p.fresh(); ok {
		return err
	}
	ch := p.flight.DoChan("", func() (any, error) {
		if err, ok := p.fresh(); ok { // a flight ended since this caller looked
			return nil, err
		}
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.timeout)
		defer cancel()
		err := p.ping(pctx)
		p.mu.Lock()
		p.at, p.err = p.now(), err
		p.mu.Unlock()
		return nil, err
	})
	select {
	case res := <-ch:
		return res.Err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeWhenDraining closes each connection after its response once the
// process is shutting down, so that connections leave rather than wait
// idle for the next request.
func (s *server) closeWhenDraining(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Draining() {
			w.Header().Set("Connection", "close")
		}
		next.ServeHTTP(w, r)
	})
}

// touch records a key's use in the background, at most once a minute.
func (s *server) touch(id int64) {
	if s.cfg.Touch == nil {
		return
	}
	now := time.Now()
	s.mu.Lock()
	last := s.touched[id]
	due := now.Sub(last) >= time.Minute
	if due {
		s.touched[id] = now
	}
	s.mu.Unlock()
	if due {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.cfg.Touch(ctx, id); err != nil {
				s.cfg.Log.Warn("record key use", "error", err.Error())
			}
		}()
	}
}

// writeGraphQLError writes an HTTP-level error of /graphql in GraphQL's
// shape, with the status of the contract.
func writeGraphQLError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	code := domain.ErrorCode(err)
	if code == domain.CodeInternal {
		log.ErrorContext(r.Context(), "internal error", "error", err.Error(), "request_id", middleware.GetReqID(r.Context()))
	}
	body := map[string]any{"errors": []map[string]any{{
		"message":    domain.ErrorMessage(err),
		"extensions": map[string]any{"code": code, "request_id": middleware.GetReqID(r.Context())},
	}}}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(rest.Status(err))
	_ = json.NewEncoder(w).Encode(body)
}

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID takes the client's X-Request-ID when it is sane, or makes one,
// and echoes it on the response.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if !validRequestID.MatchString(id) {
			b := make([]byte, 12)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middleware.RequestIDKey, id)))
	})
}

// loggingWriter remembers the status and size for the log line.
type loggingWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

// requestInfo is what inner handlers tell the log line: the key's name.
type requestInfo struct {
	key    string
	apiKey *auth.Key
	client string // clientFinder.of
}

// requestKey names the API key a request was authenticated with ("" before
// authentication): its rate-limit bucket.
func requestKey(ctx context.Context) string {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok && info.apiKey != nil {
		return info.apiKey.BucketID()
	}
	return ""
}

type requestInfoKey struct{}

func (l *loggingWriter) WriteHeader(status int) {
	if l.status == 0 {
		l.status = status
	}
	l.ResponseWriter.WriteHeader(status)
}

func (l *loggingWriter) Write(b []byte) (int, error) {
	if l.status == 0 {
		l.status = http.StatusOK
	}
	n, err := l.ResponseWriter.Write(b)
	l.bytes += n
	return n, err
}

func (l *loggingWriter) Unwrap() http.ResponseWriter { return l.ResponseWriter }

// logRequests writes one log line per request: method, path, status,
// duration, key name and request id (never the key itself).
func (s *server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &loggingWriter{ResponseWriter: w}
		info := &requestInfo{client: s.clients.of(r)}
		ctx := context.WithValue(r.Context(), requestInfoKey{}, info)
		logLine := func(route string) {
			if lw.status == 0 {
				lw.status = http.StatusOK
			}
			s.metrics.observe(r, route, lw.status, time.Since(start))
			s.cfg.AccessLog.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", lw.status),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000), slog.Int("bytes", lw.bytes),
				slog.String("key", info.key), slog.String("client", info.client), slog.String("request_id", middleware.GetReqID(r.Context())))
		}
		// A WebSocket outlives its handler: its line is written when it
		// ends, with its key and its life, on its own goroutine.
		detached := false
		if isSocket(r) {
			ctx = graph.WithDetach(ctx, func() func() {
				detached = true
				route := routeOf(r) // the handler is still running
				return func() {
					lw.status = http.StatusSwitchingProtocols
					logLine(route)
				}
			})
		}
		next.ServeHTTP(lw, r.WithContext(ctx))
		if !detached {
			logLine(routeOf(r))
		}
	})
}

// recoverPanics turns a panic into a 500 internal error; the stack goes to
// the log only, and the process stays up.
func (s *server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				// The error writer logs internal errors once, with the request
				// id; the stack goes into that log line, never to the client.
				s.writeError(w, r, fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// deadline gives every request the configured deadline; the database
// queries it runs are cancelled when it passes.
func (s *server) deadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
