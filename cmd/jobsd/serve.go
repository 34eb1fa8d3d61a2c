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
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
	"go.uber.org/zap/zapcore"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/ratelimit"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/server"
	"github.com/jobsd-dev/jobsd/store"
)

func (e env) serve(ctx context.Context, args []string) error {
	fs := e.flagSet("serve")
	dsn := e.dbFlag(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (env JOBSD_ADDR); port 0 picks a free port")
	noMigrate := fs.Bool("no-migrate", false, "do not apply pending migrations at start")
	playgroundKey := fs.String("playground-key", "", "API key prefilled in the playground's headers (env JOBSD_PLAYGROUND_KEY); only with --addr on loopback, since every visitor gets it")
	timeout := fs.Duration("request-timeout", 10*time.Second, "deadline of every request (env JOBSD_REQUEST_TIMEOUT)")
	introspection := fs.Bool("introspection", true, "allow GraphQL introspection (env JOBSD_INTROSPECTION)")
	corsOrigins := fs.String("cors-origins", "", "comma-separated origins browsers may call the API from, * for any (env JOBSD_CORS_ORIGINS); empty: CORS off")
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
	dbConns := fs.Int("db-max-conns", store.DefaultMaxOpenConns(), "connections to each database for requests at most (env JOBSD_DB_MAX_CONNS); the default is one per processor, 4 to 16: raise it to about twice the database's cores when the database has more cores than this machine")
	redisURL := secretURLVar(fs, "redis-url", "Redis `URL` holding the rate-limit buckets, shared by every instance (env REDIS_URL); empty: in process")
	metricsAddr := fs.String("metrics-addr", "", "address of a separate listener serving /metrics, which the main listener then no longer serves (env JOBSD_METRICS_ADDR); empty: /metrics on --addr")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := fromEnv(fs, e.getenv, serveEnv); err != nil {
		return err
	}
	if !(*rateFlag > 0) || *burst < 1 { // !(> 0) refuses NaN too
		return usageError{"serve: --rate must be > 0 and --burst ≥ 1"}
	}
	if !(*authFailureRate >= 0) || math.IsInf(*authFailureRate, 1) || *authFailureBurst < 1 {
		return usageError{"serve: --auth-failure-rate must be a number ≥ 0 and --auth-failure-burst ≥ 1"}
	}
	if *drain < 0 {
		return usageError{"serve: --shutdown-drain must be ≥ 0"}
	}
	if *dbConns < 1 {
		return usageError{"serve: --db-max-conns must be ≥ 1"}
	}
	for name, v := range map[string]int{"graphql-complexity-limit": *complexity, "graphql-depth-limit": *depth,
		"graphql-max-root-fields": *rootFields, "graphql-max-aliases": *aliasLimit,
		"graphql-max-document-bytes": *docLimit, "graphql-expensive-per-key": *expensivePerKey} {
		if v < 1 {
			return usageError{fmt.Sprintf("serve: --%s must be ≥ 1", name)}
		}
	}
	if *expensiveTotal < 0 {
		return usageError{"serve: --graphql-expensive-total must be ≥ 0 (0: derived from --db-max-conns)"}
	}
	if *playgroundKey != "" && !isLoopbackAddr(*addr) {
		return usageError{fmt.Sprintf("serve: --playground-key (JOBSD_PLAYGROUND_KEY) is handed to every visitor of the playground, so it needs --addr (JOBSD_ADDR) on a loopback address (127.0.0.0/8, ::1, localhost), and %s is not one", *addr)}
	}
	// Both logs share stderr through one lock. The access log, a line per
	// request, is buffered: written at once, its write was 6% of the
	// processor time of serving a full job under load. stderr is wrapped
	// so that it has no Sync: the buffer's flush each second would
	// otherwise fsync a redirected stderr, holding the lock meanwhile.
	stderr := zapcore.Lock(zapcore.AddSync(struct{ io.Writer }{e.stderr}))
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	accessBuf := &zapcore.BufferedWriteSyncer{WS: stderr, Size: 64 << 10, FlushInterval: time.Second}
	defer func() { _ = accessBuf.Stop() }()
	accessLog := slog.New(slog.NewJSONHandler(accessBuf, nil))
	var limiter ratelimit.Limiter = ratelimit.NewLocal()
	if *redisURL != "" {
		r, client, err := newRedisLimiter(*redisURL, log)
		if err != nil {
			return err
		}
		defer client.Close()
		limiter = r
	}
	db, err := openDB(ctx, *dsn, store.Options{MaxOpenConns: *dbConns})
	if err != nil {
		return err
	}
	defer db.Close()
	// The index's builds and the text indexer hold a connection each for
	// long stretches (a build reads every job): they get their own, so that
	// requests keep all of --db-max-conns. It connects when first used:
	// with neither, never.
	background, err := openDB(ctx, *dsn, store.Options{MaxOpenConns: 2, Lazy: true})
	if err != nil {
		return err
	}
	defer background.Close()
	if !*noMigrate {
		applied, err := migrations.Up(ctx, db)
		if err != nil {
			return err
		}
		if len(applied) > 0 {
			log.Info("applied migrations", "migrations", applied)
		}
		if n, err := store.New(db).FillSlugs(ctx, normalize.Slug); err != nil {
			return err
		} else if n > 0 {
			log.Info("filled company slugs", "companies", n)
		}
	}
	norm, err := normalize.New(normalize.WithRefData(*refData))
	if err != nil {
		return err
	}
	st := store.New(db)
	warnIfNormalizedOtherwise(ctx, log, st, norm.Digest())
	if !*noTextIndex {
		go store.New(background).RunTextIndexer(ctx, 2*time.Second, log)
	}
	ready := func() bool { return true }
	if *useIndex {
		ix, err := st.StartIndex(ctx, store.IndexOptions{Log: log, TuneGC: true, DB: background})
		if err != nil {
			return err
		}
		ready = ix.Ready
	}
	var replicas []bun.IDB
	pools := map[string]*sql.DB{"jobsd": db.DB, "jobsd_background": background.DB}
	for i, u := range splitList(*replicaURLs) {
		r, err := openDB(ctx, u, store.Options{Lazy: true, MaxOpenConns: *dbConns})
		if err != nil {
			return err
		}
		defer r.Close()
		replicas = append(replicas, r)
		pools[fmt.Sprintf("jobsd_replica_%d", i+1)] = r.DB
	}
	if len(replicas) > 0 {
		log.Info("reading jobs and companies from replicas", "replicas", len(replicas))
	}
	st = st.WithReplicas(replicas...)
	keys := auth.NewChecker(func(ctx context.Context, hash []byte) (*auth.Key, error) {
		k, err := st.APIKeyByHash(ctx, hash)
		if err != nil || k == nil {
			return nil, err
		}
		var rate float64
		var burst int
		if k.RatePerSecond != nil {
			rate = *k.RatePerSecond
		}
		if k.Burst != nil {
			burst = *k.Burst
		}
		return auth.NewKeyInfo(k.ID, k.Name, k.Hash, rate, burst), nil
	}, 5*time.Second, auth.WithFailureLimit(auth.FailureLimit{Rate: *authFailureRate, Burst: *authFailureBurst}))
	// draining is set on SIGTERM: /readyz fails from then on.
	var draining atomic.Bool
	if *expensiveTotal <= 0 {
		*expensiveTotal = max(1, (*dbConns-2)/2)
	}
	gqlOpts := graph.HandlerOptions{ComplexityLimit: *complexity, DepthLimit: *depth, MaxRootFields: *rootFields,
		MaxAliases: *aliasLimit, MaxDocumentBytes: *docLimit, ExpensivePerKey: *expensivePerKey, ExpensiveTotal: *expensiveTotal}
	handler := server.New(server.Config{
		Search:         search.New(norm, st),
		Keys:           keys,
		Ping:           st.Ping,
		Ready:          ready,
		Draining:       draining.Load,
		Touch:          st.TouchAPIKey,
		Log:            log,
		AccessLog:      accessLog,
		RequestTimeout: *timeout,
		PlaygroundKey:  *playgroundKey,
		Introspection:  *introspection,
		Attributions:   norm.Sources(),
		CORSOrigins:    splitList(*corsOrigins),
		MaxBodyBytes:   *maxBody,
		DBs:            pools,
		GraphQL:        gqlOpts,
		Limiter:        limiter,
		DefaultLimit:   ratelimit.Limit{Rate: *rateFlag, Burst: *burst},
	})

	if *metricsAddr != "" {
		closeMetrics, err := serveMetrics(*metricsAddr, handler, log)
		if err != nil {
			return err
		}
		defer closeMetrics()
		handler = server.HideMetrics(handler)
	}
	if *debugAddr != "" {
		dln, err := net.Listen("tcp", *debugAddr)
		if err != nil {
			return fmt.Errorf("listen on %s: %w", *debugAddr, err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/cmdline", http.NotFound) // the command line can hold secrets
		dsrv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = dsrv.Serve(dln) }()
		defer dsrv.Close()
		log.Info("profiler listening", "addr", dln.Addr().String())
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      *timeout + 5*time.Second,
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
	// Shutdown: /readyz fails and requests are still served for the drain
	// period; then no connection is accepted, and Shutdown waits until no
	// request's headers are arriving (at most ReadHeaderTimeout, after
	// which net/http gives up on them anyway): Shutdown closes such a
	// connection or drops its request once the headers are in.
	draining.Store(true)
	log.Info("shutting down: /readyz fails; serving on for the drain period", "drain", drain.String())
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-time.After(*drain):
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

// serveEnv pairs serve's flags with the environment variables that set
// them when the command line does not.
var serveEnv = []envFlag{
	{"addr", "JOBSD_ADDR", false},
	{"playground-key", "JOBSD_PLAYGROUND_KEY", false},
	{"request-timeout", "JOBSD_REQUEST_TIMEOUT", false},
	{"introspection", "JOBSD_INTROSPECTION", false},
	{"cors-origins", "JOBSD_CORS_ORIGINS", false},
	{"rate", "JOBSD_RATE", false},
	{"burst", "JOBSD_BURST", false},
	{"replica-urls", "DATABASE_REPLICA_URLS", false},
	{"debug-addr", "JOBSD_DEBUG_ADDR", false},
	{"index", "JOBSD_INDEX", false},
	{"no-text-index", "JOBSD_TEXT_INDEX", true},
	{"db-max-conns", "JOBSD_DB_MAX_CONNS", false},
	{"redis-url", "REDIS_URL", false},
	{"auth-failure-rate", "JOBSD_AUTH_FAILURE_RATE", false},
	{"auth-failure-burst", "JOBSD_AUTH_FAILURE_BURST", false},
	{"shutdown-drain", "JOBSD_SHUTDOWN_DRAIN", false},
	{"metrics-addr", "JOBSD_METRICS_ADDR", false},
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

// refDataFlag adds --refdata: the reference-data directory (contract
// section 5), by default $JOBSD_REFDATA; empty reads none.
func refDataFlag(fs *flag.FlagSet, getenv func(string) string) *string {
	return fs.String("refdata", getenv("JOBSD_REFDATA"), "reference-data directory (GeoNames, O*NET, …; env JOBSD_REFDATA); empty: the built-in vocabularies only")
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
