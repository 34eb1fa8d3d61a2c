package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
	"go.uber.org/zap/zapcore"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/memtune"
	"github.com/jobsd-dev/jobsd/live"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/ratelimit"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/server"
	"github.com/jobsd-dev/jobsd/store"
)

// serve runs the service until ctx is done: its configuration
// (parseServeConfig), then what it depends on (openServeDeps), the handler
// (buildHandler) and the listeners with their shutdown (runServer).
func (e env) serve(ctx context.Context, args []string) error {
	cfg, err := e.parseServeConfig(args)
	if err != nil {
		return err
	}
	logs := newServeLogs(e.stderr)
	defer logs.close()
	deps, err := openServeDeps(ctx, cfg, logs.log)
	if err != nil {
		return err
	}
	defer deps.close()
	// draining is set on SIGTERM: /readyz fails from then on, and the
	// subscriptions and streams end (closeStreams).
	var draining atomic.Bool
	closing, closeSockets := context.WithCancel(context.Background())
	defer closeSockets()
	handler := buildHandler(cfg, deps, logs, draining.Load, closing)
	return runServer(ctx, cfg, handler, logs.log, func() {
		draining.Store(true)
		closeStreams(deps.hub, closeSockets)
	})
}

// serveConfig is serve's configuration, validated: each value comes from
// its flag when the command line gives it, else from its environment
// variable (serveEnv), else from the flag's default.
type serveConfig struct {
	DatabaseURL   string
	Addr          string
	Migrate       bool   // apply pending migrations at start (not --no-migrate)
	PlaygroundKey string // only with Addr on loopback
	Demo          bool   // serve the search page at /demo; needs PlaygroundKey
	// RequestTimeout is every request's deadline; the listener's write
	// timeout is 5 s longer.
	RequestTimeout time.Duration
	Introspection  bool
	CORSOrigins    []string
	// TrustedProxies are the proxies whose Forwarded and X-Forwarded-For
	// name the client.
	TrustedProxies []netip.Prefix
	MaxBodyBytes   int64
	// GraphQL holds the GraphQL limits, each ≥ 1; ExpensiveTotal is
	// derived from DBMaxConns when its flag is 0.
	GraphQL      graph.HandlerOptions
	DefaultLimit ratelimit.Limit   // Rate > 0, Burst ≥ 1
	AuthFailures auth.FailureLimit // Rate ≥ 0 and finite (0: no limit), Burst ≥ 1
	// ShutdownDrain (≥ 0) is how long /readyz fails on SIGTERM before the
	// listener closes.
	ShutdownDrain time.Duration
	RefData       string
	ReplicaURLs   []string
	DebugAddr     string // "" for no profiler listener
	TextIndex     bool   // run the text indexer (not --no-text-index)
	Index         bool   // keep the in-process index
	IndexCache    string // where built indexes are saved ("": nowhere)
	DBMaxConns    int    // ≥ 1, for each request pool
	RedisURL      string // "" for in-process rate limits; parses as a URL
	MetricsAddr   string // "" for /metrics on Addr
	// MaxSubscriptionsPerKey bounds the subscriptions and streams one API
	// key holds open on this instance.
	MaxSubscriptionsPerKey int
	// ResumeHistory is how many changes the hub keeps for subscriptions
	// that resume after a cursor.
	ResumeHistory int
}

// parseServeConfig reads serve's flags from args and then the
// environment, and validates them: every failure is a usage error (or
// flag.ErrHelp for -h), found before anything is opened.
func (e env) parseServeConfig(args []string) (serveConfig, error) {
	fs := e.flagSet("serve")
	dsn := e.dbFlag(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (env JOBSD_ADDR); port 0 picks a free port")
	noMigrate := fs.Bool("no-migrate", false, "do not apply pending migrations at start")
	playgroundKey := fs.String("playground-key", "", "API key prefilled in the playground's headers (env JOBSD_PLAYGROUND_KEY); only with --addr on loopback, since every visitor gets it")
	demo := fs.Bool("demo", false, "serve the reference search page at /demo with the --playground-key key in it (env JOBSD_DEMO); for local use: it needs --playground-key, and so --addr on loopback")
	timeout := fs.Duration("request-timeout", 10*time.Second, "deadline of every request (env JOBSD_REQUEST_TIMEOUT)")
	introspection := fs.Bool("introspection", true, "allow GraphQL introspection (env JOBSD_INTROSPECTION)")
	corsOrigins := fs.String("cors-origins", "", "comma-separated origins browsers may call the API from, * for any, one * within an origin for any part (http://localhost:*) (env JOBSD_CORS_ORIGINS); empty: CORS off, but with --demo http://localhost:* and http://127.0.0.1:*")
	trustedProxies := fs.String("trusted-proxies", "", "comma-separated addresses and CIDR prefixes of the proxies in front of jobsd (load balancers, ingress) (env JOBSD_TRUSTED_PROXIES): a request from one is taken to come from the rightmost address of its Forwarded or X-Forwarded-For that is not a trusted proxy's, for the limit on failed authentications and the access log; empty: every client is its connection's peer")
	maxBody := fs.Int64("max-body-bytes", 1<<20, "largest request body accepted")
	complexity := fs.Int("graphql-complexity-limit", 10000, "largest GraphQL operation complexity (a list costs its page size times its fields)")
	depth := fs.Int("graphql-depth-limit", 10, "deepest GraphQL selection nesting (introspection has a rule of its own)")
	rootFields := fs.Int("graphql-max-root-fields", 10, "most root fields of one GraphQL operation, fragments expanded")
	aliasLimit := fs.Int("graphql-max-aliases", 10, "most aliased fields of one GraphQL operation")
	docLimit := fs.Int("graphql-max-document-bytes", 32<<10, "longest GraphQL query document, refused before parsing")
	expensivePerKey := fs.Int("graphql-expensive-per-key", 1, "expensive GraphQL operations (complexity 1,000 or more) one API key runs at once; the others wait")
	expensiveTotal := fs.Int("graphql-expensive-total", 0, "expensive GraphQL operations the instance runs at once, all keys together; 0: as many as leave 2 of --db-max-conns to the others (each takes 2 at most)")
	rateFlag := fs.Float64("rate", 50, "requests per second a key may sustain, unless the key says otherwise (env JOBSD_RATE)")
	burst := fs.Int("burst", 100, "requests a key may make at once (env JOBSD_BURST)")
	authFailureRate := fs.Float64("auth-failure-rate", 1, "failed authentications a second each client address may sustain; over it, its failures and its lookups of keys not in use get 429 (env JOBSD_AUTH_FAILURE_RATE); 0: no limit")
	authFailureBurst := fs.Int("auth-failure-burst", 10, "failed authentications a client address may make at once (env JOBSD_AUTH_FAILURE_BURST)")
	drain := fs.Duration("shutdown-drain", 0, "on SIGTERM, how long /readyz fails while requests are still accepted and served, before the listener closes (env JOBSD_SHUTDOWN_DRAIN): the load balancer's health-check interval")
	refData := refDataFlag(fs, e.getenv)
	replicaURLs := fs.String("replica-urls", "", "comma-separated PostgreSQL URLs of read replicas for job and company reads, the primary being the fallback (env DATABASE_REPLICA_URLS)")
	debugAddr := fs.String("debug-addr", "", "address of a separate listener serving Go's profiler at /debug/pprof/ (env JOBSD_DEBUG_ADDR); empty: none. Keep it on loopback")
	noTextIndex := fs.Bool("no-text-index", false, "leave indexing descriptions for keyword search to another instance or to jobsd textindex (env JOBSD_TEXT_INDEX=false)")
	useIndex := fs.Bool("index", true, "keep an in-process count and facet index of the jobs (env JOBSD_INDEX); false: every list is answered in SQL alone")
	indexCache := fs.String("index-cache", defaultIndexCache(), "directory where each built index is saved and the next start loads it from, applying the changes since instead of building anew (env JOBSD_INDEX_CACHE); a saved index "+store.IndexCacheBounds.String()+"; empty: none")
	dbConns := fs.Int("db-max-conns", store.DefaultMaxOpenConns(), "connections to each database for requests at most (env JOBSD_DB_MAX_CONNS); the default is one per processor, 4 to 16: raise it to about twice the database's cores when the database has more cores than this machine")
	redisURL := secretURLVar(fs, "redis-url", "Redis `URL` holding the rate-limit buckets, shared by every instance (env REDIS_URL); empty: in process")
	maxSubs := fs.Int("max-subscriptions-per-key", search.DefaultMaxSubscriptionsPerKey, "subscriptions (GraphQL) and event streams (REST) one API key may hold open on this instance (env JOBSD_MAX_SUBSCRIPTIONS_PER_KEY)")
	resumeHistory := fs.Int("resume-history", live.DefaultHistory, "changes kept in memory for subscriptions and streams that resume after a cursor, about 1 KB each (env JOBSD_RESUME_HISTORY); an older cursor ends them with gone")
	metricsAddr := fs.String("metrics-addr", "", "address of a separate listener serving /metrics, which the main listener then no longer serves (env JOBSD_METRICS_ADDR); empty: /metrics on --addr")
	if err := parse(fs, args); err != nil {
		return serveConfig{}, err
	}
	if err := fromEnv(fs, e.getenv, serveEnv); err != nil {
		return serveConfig{}, err
	}
	if !(*rateFlag > 0) || *burst < 1 { // !(> 0) refuses NaN too
		return serveConfig{}, usageError{"serve: --rate must be > 0 and --burst ≥ 1"}
	}
	if !(*authFailureRate >= 0) || math.IsInf(*authFailureRate, 1) || *authFailureBurst < 1 {
		return serveConfig{}, usageError{"serve: --auth-failure-rate must be a number ≥ 0 and --auth-failure-burst ≥ 1"}
	}
	if *drain < 0 {
		return serveConfig{}, usageError{"serve: --shutdown-drain must be ≥ 0"}
	}
	if *dbConns < 1 {
		return serveConfig{}, usageError{"serve: --db-max-conns must be ≥ 1"}
	}
	if *maxSubs < 1 {
		return serveConfig{}, usageError{"serve: --max-subscriptions-per-key must be ≥ 1"}
	}
	if *resumeHistory < 1 {
		return serveConfig{}, usageError{"serve: --resume-history must be ≥ 1"}
	}
	for _, limit := range []struct {
		name  string
		value int
	}{
		{"graphql-complexity-limit", *complexity}, {"graphql-depth-limit", *depth},
		{"graphql-max-root-fields", *rootFields}, {"graphql-max-aliases", *aliasLimit},
		{"graphql-max-document-bytes", *docLimit}, {"graphql-expensive-per-key", *expensivePerKey},
	} {
		if limit.value < 1 {
			return serveConfig{}, usageError{fmt.Sprintf("serve: --%s must be ≥ 1", limit.name)}
		}
	}
	if *expensiveTotal < 0 {
		return serveConfig{}, usageError{"serve: --graphql-expensive-total must be ≥ 0 (0: derived from --db-max-conns)"}
	}
	if *expensiveTotal == 0 {
		*expensiveTotal = max(1, (*dbConns-2)/2)
	}
	if *playgroundKey != "" && !isLoopbackAddr(*addr) {
		return serveConfig{}, usageError{fmt.Sprintf("serve: --playground-key (JOBSD_PLAYGROUND_KEY) is handed to every visitor of the playground, so it needs --addr (JOBSD_ADDR) on a loopback address (127.0.0.0/8, ::1, localhost), and %s is not one", *addr)}
	}
	origins := splitList(*corsOrigins)
	if *demo && len(origins) == 0 {
		// Local use only (--demo needs a loopback --addr): the origins of
		// a frontend's dev server on this machine.
		origins = demoOrigins
	}
	if *demo && *playgroundKey == "" {
		return serveConfig{}, usageError{"serve: --demo (JOBSD_DEMO) serves a search page that sends the --playground-key (JOBSD_PLAYGROUND_KEY) key, so it needs one: create it with jobsd apikey create --name demo"}
	}
	if err := checkRedisURL(*redisURL); err != nil {
		return serveConfig{}, err
	}
	proxies, err := server.ParseTrustedProxies(splitList(*trustedProxies))
	if err != nil {
		return serveConfig{}, usageError{"serve: --trusted-proxies (JOBSD_TRUSTED_PROXIES): " + err.Error()}
	}
	return serveConfig{
		DatabaseURL:    *dsn,
		Addr:           *addr,
		Migrate:        !*noMigrate,
		PlaygroundKey:  *playgroundKey,
		Demo:           *demo,
		RequestTimeout: *timeout,
		Introspection:  *introspection,
		CORSOrigins:    origins,
		TrustedProxies: proxies,
		MaxBodyBytes:   *maxBody,
		GraphQL: graph.HandlerOptions{ComplexityLimit: *complexity, DepthLimit: *depth, MaxRootFields: *rootFields,
			MaxAliases: *aliasLimit, MaxDocumentBytes: *docLimit, ExpensivePerKey: *expensivePerKey, ExpensiveTotal: *expensiveTotal},
		DefaultLimit:  ratelimit.Limit{Rate: *rateFlag, Burst: *burst},
		AuthFailures:  auth.FailureLimit{Rate: *authFailureRate, Burst: *authFailureBurst},
		ShutdownDrain: *drain,
		RefData:       *refData,
		ReplicaURLs:   splitList(*replicaURLs),
		DebugAddr:     *debugAddr,
		TextIndex:     !*noTextIndex,
		Index:         *useIndex,
		IndexCache:    *indexCache,
		DBMaxConns:    *dbConns,
		RedisURL:      *redisURL,
		MetricsAddr:   *metricsAddr,

		MaxSubscriptionsPerKey: *maxSubs,
		ResumeHistory:          *resumeHistory,
	}, nil
}

// demoOrigins are the origins --demo allows unless --cors-origins names
// others: a frontend's dev server on this machine, on any port.
var demoOrigins = []string{"http://localhost:*", "http://127.0.0.1:*"}

// defaultIndexCache is the user's cache directory's jobsd folder, or ""
// when the user has none.
func defaultIndexCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "jobsd")
}

// serveEnv pairs serve's flags with the environment variables that set
// them when the command line does not.
var serveEnv = []envFlag{
	{"addr", "JOBSD_ADDR", false},
	{"playground-key", "JOBSD_PLAYGROUND_KEY", false},
	{"demo", "JOBSD_DEMO", false},
	{"request-timeout", "JOBSD_REQUEST_TIMEOUT", false},
	{"introspection", "JOBSD_INTROSPECTION", false},
	{"cors-origins", "JOBSD_CORS_ORIGINS", false},
	{"trusted-proxies", "JOBSD_TRUSTED_PROXIES", false},
	{"rate", "JOBSD_RATE", false},
	{"burst", "JOBSD_BURST", false},
	{"replica-urls", "DATABASE_REPLICA_URLS", false},
	{"debug-addr", "JOBSD_DEBUG_ADDR", false},
	{"index", "JOBSD_INDEX", false},
	{"index-cache", "JOBSD_INDEX_CACHE", false},
	{"no-text-index", "JOBSD_TEXT_INDEX", true},
	{"db-max-conns", "JOBSD_DB_MAX_CONNS", false},
	{"redis-url", "REDIS_URL", false},
	{"auth-failure-rate", "JOBSD_AUTH_FAILURE_RATE", false},
	{"auth-failure-burst", "JOBSD_AUTH_FAILURE_BURST", false},
	{"shutdown-drain", "JOBSD_SHUTDOWN_DRAIN", false},
	{"metrics-addr", "JOBSD_METRICS_ADDR", false},
	{"max-subscriptions-per-key", "JOBSD_MAX_SUBSCRIPTIONS_PER_KEY", false},
	{"resume-history", "JOBSD_RESUME_HISTORY", false},
}

// serveLogs are serve's two logs, sharing stderr through one lock: log,
// written at once, and the access log (a line per request), buffered and
// flushed each second so that requests do not each pay a write under the
// lock. stderr is wrapped so that it has no Sync: the flush would
// otherwise fsync a redirected stderr, holding the lock meanwhile.
type serveLogs struct {
	log, access *slog.Logger
	accessBuf   *zapcore.BufferedWriteSyncer
}

func newServeLogs(w io.Writer) serveLogs {
	stderr := zapcore.Lock(zapcore.AddSync(struct{ io.Writer }{w}))
	accessBuf := &zapcore.BufferedWriteSyncer{WS: stderr, Size: 64 << 10, FlushInterval: time.Second}
	return serveLogs{
		log:       slog.New(slog.NewJSONHandler(stderr, nil)),
		access:    slog.New(slog.NewJSONHandler(accessBuf, nil)),
		accessBuf: accessBuf,
	}
}

// close flushes the access log and stops its flushing.
func (l serveLogs) close() { _ = l.accessBuf.Stop() }

// serveDeps is what serve's handler depends on, opened and started.
type serveDeps struct {
	store   *store.Store // reading jobs and companies from the replicas, if any
	norm    *normalize.Normalizer
	rates   *currency.Source // the reference rates salaries are compared at
	limiter ratelimit.Limiter
	ready   func() bool // false until the index's first build, and while it lags
	// indexStats are the index's figures for /metrics (nil: no index).
	indexStats func() store.IndexStats
	// hub delivers the subscriptions' events (nil without an index: it
	// follows the index).
	hub *live.Hub
	// keys are the active API keys, kept current (store.WatchAPIKeys).
	keys    *auth.Keyring
	pools   map[string]*sql.DB // by db_name, for /metrics
	closers []func()           // in the order opened
}

// close closes what openServeDeps opened, last opened first.
func (d *serveDeps) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		d.closers[i]()
	}
}

// openServeDeps opens the rate limiter's Redis (when configured), the
// request pool and the background pool, applies pending migrations (unless
// --no-migrate), loads the normalizer, starts the text indexer and the
// index (each unless turned off; both stop with ctx) and opens the
// replicas. On error, what it opened is closed again.
func openServeDeps(ctx context.Context, cfg serveConfig, log *slog.Logger) (_ *serveDeps, err error) {
	deps := &serveDeps{limiter: ratelimit.NewLocal(), ready: func() bool { return true }}
	defer func() {
		if err != nil {
			deps.close()
		}
	}()
	if cfg.RedisURL != "" {
		r, client, err := newRedisLimiter(cfg.RedisURL, log)
		if err != nil {
			return nil, err
		}
		deps.closers = append(deps.closers, func() { _ = client.Close() })
		deps.limiter = r
	}
	db, err := openDB(ctx, cfg.DatabaseURL, store.Options{MaxOpenConns: cfg.DBMaxConns})
	if err != nil {
		return nil, err
	}
	deps.closers = append(deps.closers, func() { _ = db.Close() })
	// The index's builds and the text indexer hold a connection each for
	// long stretches (a build reads every job): they get their own, so that
	// requests keep all of --db-max-conns. It connects when first used:
	// with neither, never.
	background, err := openDB(ctx, cfg.DatabaseURL, store.Options{MaxOpenConns: 2, Lazy: true})
	if err != nil {
		return nil, err
	}
	deps.closers = append(deps.closers, func() { _ = background.Close() })
	if cfg.Migrate {
		applied, err := migrations.Up(ctx, db)
		if err != nil {
			return nil, err
		}
		if len(applied) > 0 {
			log.Info("applied migrations", "migrations", applied)
		}
		if n, err := store.New(db).FillSlugs(ctx, fold.Slug); err != nil {
			return nil, err
		} else if n > 0 {
			log.Info("filled company slugs", "companies", n)
		}
	}
	deps.norm, err = normalize.New(normalize.WithRefData(cfg.RefData))
	if err != nil {
		return nil, err
	}
	// The currency rates of the reference data, reloaded when the file
	// changes (ratesPoll): no restart for the daily rates.
	if deps.rates, err = currency.Open(currency.FileIn(cfg.RefData)); err != nil {
		return nil, err
	}
	if r := deps.rates.Rates(); r != nil {
		log.Info("currency rates loaded", "date", r.Date(), "currencies", len(r.Codes()))
	} else {
		log.Info("no currency rates: salary filters compare postings of the requested currency only", "path", deps.rates.Path())
	}
	go deps.rates.Watch(ctx, ratesPoll, log)
	st := store.New(db)
	warnIfNormalizedOtherwise(ctx, log, st, deps.norm.Digest())
	if cfg.TextIndex {
		go store.New(background).RunTextIndexer(ctx, 2*time.Second, log)
	}
	// Postings close at their valid_through without any write: the expiry
	// closes them within a quarter second. Its statements are short, so
	// it uses the request pool, not the background one that index builds
	// and the text indexer hold for long stretches.
	st.StartExpiry(ctx, 250*time.Millisecond, log)
	if cfg.Index {
		mem := memtune.Runtime{}
		opts := live.Options{Log: log, History: cfg.ResumeHistory, LetGo: mem.Release}
		if cfg.TextIndex {
			// Keyword subscriptions wait for this process's text indexer
			// (every 2 s) to index a changed description.
			opts.TextWait = 5 * time.Second
		}
		deps.hub = live.NewHub(st, opts)
		ix, err := st.StartIndex(ctx, store.IndexOptions{Log: log, Memory: mem, DB: background, CacheDir: cfg.IndexCache,
			Rates: deps.rates.Rates, OnAdvance: deps.hub.Advance})
		if err != nil {
			return nil, err
		}
		go deps.hub.Run(ctx)
		deps.ready, deps.indexStats = ix.Ready, ix.Stats
	}
	var replicas []bun.IDB
	deps.pools = map[string]*sql.DB{"jobsd": db.DB, "jobsd_background": background.DB}
	for i, u := range cfg.ReplicaURLs {
		r, err := openDB(ctx, u, store.Options{Lazy: true, MaxOpenConns: cfg.DBMaxConns})
		if err != nil {
			return nil, err
		}
		deps.closers = append(deps.closers, func() { _ = r.Close() })
		replicas = append(replicas, r)
		deps.pools[fmt.Sprintf("jobsd_replica_%d", i+1)] = r.DB
	}
	if len(replicas) > 0 {
		log.Info("reading jobs and companies from replicas", "replicas", len(replicas))
	}
	deps.store = st.WithReplicas(replicas...)
	deps.keys = &auth.Keyring{}
	if err := st.WatchAPIKeys(ctx, keysEvery, func(keys []store.APIKey, at time.Time) { deps.keys.Replace(authKeys(keys), at) }, log); err != nil {
		return nil, err
	}
	return deps, nil
}

// keysEvery is how often serve checks whether API keys were created,
// revoked or changed: the delay before a new key works on every instance.
const keysEvery = 250 * time.Millisecond

// authKeys converts stored keys for the Checker.
func authKeys(keys []store.APIKey) []*auth.Key {
	out := make([]*auth.Key, len(keys))
	for i, k := range keys {
		var rate float64
		var burst int
		if k.RatePerSecond != nil {
			rate = *k.RatePerSecond
		}
		if k.Burst != nil {
			burst = *k.Burst
		}
		out[i] = auth.NewKeyInfo(k.ID, k.Name, k.Hash, rate, burst)
	}
	return out
}

// ratesPoll is how often the currency rates file is checked for a change.
const ratesPoll = 2 * time.Second

// attributions are the sources of the data the service uses now: the
// normalizer's, and the ECB's while a rates file of it is loaded (the
// file may appear or go while serving).
func attributions(deps *serveDeps) []normalize.Source {
	out := deps.norm.Sources()
	if deps.rates.Rates() != nil {
		out = append(out, normalize.Source{
			Name:        "ECB euro foreign exchange reference rates",
			Licence:     "reproduction permitted provided the source is acknowledged",
			Attribution: "Source: ECB",
		})
	}
	return out
}

// buildHandler assembles the service's handler (server.New) from the
// configuration and the dependencies; draining reports whether shutdown
// has begun.
func buildHandler(cfg serveConfig, deps *serveDeps, logs serveLogs, draining func() bool, closing context.Context) http.Handler {
	st := deps.store
	// Every active key is in deps.keys, found without a lookup; a key
	// created since it was read is looked up.
	keys := auth.NewChecker(func(ctx context.Context, hash []byte) (*auth.Key, error) {
		k, err := st.APIKeyByHash(ctx, hash)
		if err != nil || k == nil {
			return nil, err
		}
		return authKeys([]store.APIKey{*k})[0], nil
	}, 5*time.Second, auth.WithKeyring(deps.keys), auth.WithFailureLimit(cfg.AuthFailures))
	opts := []search.Option{search.WithRates(deps.rates)}
	var liveStats func() live.Stats
	if deps.hub != nil {
		opts = append(opts, search.WithLive(deps.hub, cfg.MaxSubscriptionsPerKey))
		liveStats = deps.hub.Stats
	}
	svc := search.New(deps.norm, st, opts...)
	// The suggestions' dictionaries of the vocabularies are built now, in
	// the background, rather than by the first request of each field
	// (about a second for the places of the reference data).
	go func() {
		// After the index's first build, which a cold start waits for.
		for !deps.ready() {
			select {
			case <-closing.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
		svc.PrepareSuggestions()
	}()
	return server.New(server.Config{
		Search:         svc,
		LiveStats:      liveStats,
		Closing:        closing,
		Keys:           keys,
		Ping:           st.Ping,
		Ready:          deps.ready,
		IndexStats:     deps.indexStats,
		Draining:       draining,
		Touch:          st.TouchAPIKey,
		Log:            logs.log,
		AccessLog:      logs.access,
		RequestTimeout: cfg.RequestTimeout,
		PlaygroundKey:  cfg.PlaygroundKey,
		Demo:           cfg.Demo,
		Introspection:  cfg.Introspection,
		Attributions:   func() []normalize.Source { return attributions(deps) },
		CORSOrigins:    cfg.CORSOrigins,
		TrustedProxies: cfg.TrustedProxies,
		MaxBodyBytes:   cfg.MaxBodyBytes,
		DBs:            deps.pools,
		GraphQL:        cfg.GraphQL,
		Limiter:        deps.limiter,
		DefaultLimit:   cfg.DefaultLimit,
	})
}

// closeStreams ends the subscriptions and event streams at shutdown: each
// subscriber gets the error unavailable with the cursor to resume after
// (on another instance), then the WebSockets are closed.
func closeStreams(hub *live.Hub, closeSockets func()) {
	if hub != nil {
		hub.Close()
		// Give the subscriptions' last messages a moment to be written
		// before their sockets close.
		time.Sleep(250 * time.Millisecond)
	}
	closeSockets()
}

// runServer serves handler on cfg.Addr (and /metrics and the profiler on
// their own listeners, when configured) until ctx is done, and then shuts
// down: startDraining makes /readyz fail, requests are still served for
// the drain period; then no connection is accepted, and shutdown waits
// until no request's headers are arriving (at most ReadHeaderTimeout,
// after which net/http gives up on them anyway), because Shutdown closes
// such a connection or drops its request once the headers are in; last,
// the in-flight requests finish, within 20 s.
func runServer(ctx context.Context, cfg serveConfig, handler http.Handler, log *slog.Logger, startDraining func()) error {
	if cfg.MetricsAddr != "" {
		closeMetrics, err := serveMetrics(cfg.MetricsAddr, handler, log)
		if err != nil {
			return err
		}
		defer closeMetrics()
		handler = server.HideMetrics(handler)
	}
	if cfg.DebugAddr != "" {
		closeDebug, err := serveProfiler(cfg.DebugAddr, log)
		if err != nil {
			return err
		}
		defer closeDebug()
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      cfg.RequestTimeout + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	conns := newConnTracker()
	srv.ConnState = conns.connState
	tln := conns.listen(ln)
	base := "http://" + ln.Addr().String()
	log.Info("jobsd listening", "addr", ln.Addr().String(), "playground", base+"/playground", "rest", base+"/api/v1/jobs", "graphql", base+"/graphql")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(tln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	startDraining()
	log.Info("shutting down: /readyz fails; serving on for the drain period", "drain", cfg.ShutdownDrain.String())
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-time.After(cfg.ShutdownDrain):
	}
	tln.stopAccepting()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	headersCtx, cancelHeaders := context.WithTimeout(shutdownCtx, srv.ReadHeaderTimeout+time.Second)
	if n := conns.waitReceiving(headersCtx); n > 0 {
		log.Warn("shutting down with requests whose headers never arrived", "connections", n)
	}
	cancelHeaders()
	log.Info("shutting down: draining in-flight requests")
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// refDataFlag adds --refdata: the directory of the reference data
// (GeoNames, O*NET, …), by default $JOBSD_REFDATA; empty reads none.
func refDataFlag(fs *flag.FlagSet, getenv func(string) string) *string {
	return fs.String("refdata", getenv("JOBSD_REFDATA"), "reference-data directory (GeoNames, O*NET, …; env JOBSD_REFDATA); empty: the built-in vocabularies only. What is compiled from it is kept under the user's cache directory (jobsd/normalize), a file per reference data and binary: one "+normalize.CacheBounds.String())
}

// serveMetrics serves h's /metrics, and nothing else, on a listener of its
// own at addr until the returned function closes it.
func serveMetrics(addr string, h http.Handler, log *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s (--metrics-addr): %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second, WriteTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics listening", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}

// serveProfiler serves Go's profiler at /debug/pprof/, except the command
// line (which can hold secrets), on a listener of its own at addr until
// the returned function closes it.
func serveProfiler(addr string, log *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/cmdline", http.NotFound)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("profiler listening", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}
