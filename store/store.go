// Package store implements jobsd's job, company and API key queries on
// PostgreSQL with bun. It knows SQL and nothing of HTTP or GraphQL; its
// errors are *domain.Error values where the contract names a code.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
)

// Options tune the connection pool.
type Options struct {
	// MaxOpenConns caps the pool (default DefaultMaxOpenConns).
	MaxOpenConns int
	// StatementTimeout is PostgreSQL's backstop for a query (default 30s).
	StatementTimeout time.Duration
	// Lazy skips the check that the database answers (for replicas, which
	// may come up after the service).
	Lazy bool
}

// DefaultMaxOpenConns is the pool's size unless Options say otherwise:
// one connection per processor (GOMAXPROCS, which follows a container's
// CPU limit), at least 4 as pgxpool's default, and at most 16. More
// connections than the database has cores to run them only switch between
// its backends and make each request slower (docs/benchmarks.md has the
// measurements).
func DefaultMaxOpenConns() int {
	return min(max(4, runtime.GOMAXPROCS(0)), 16)
}

// Open connects to the PostgreSQL database at dsn (a postgres:// URL) and
// checks that it answers. It uses pgx through database/sql: when a
// request's context ends, pgx sends PostgreSQL a cancel request, so a query
// the request no longer waits for stops running in the database too.
func Open(ctx context.Context, dsn string, opts Options) (*bun.DB, error) {
	if opts.MaxOpenConns == 0 {
		opts.MaxOpenConns = DefaultMaxOpenConns()
	}
	if opts.StatementTimeout == 0 {
		opts.StatementTimeout = 30 * time.Second
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database URL: %w", err)
	}
	cfg.RuntimeParams["statement_timeout"] = strconv.FormatInt(opts.StatementTimeout.Milliseconds(), 10)
	cfg.RuntimeParams["timezone"] = "UTC"
	// bun writes every argument into the SQL text, so nearly every
	// statement is new: preparing and caching each one (pgx's default)
	// would cost a round trip more per query and a cache of statements
	// never used again on every connection. The simple protocol sends the
	// text once.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: time.Second}
	}
	sqldb := stdlib.OpenDB(*cfg)
	sqldb.SetMaxOpenConns(opts.MaxOpenConns)
	sqldb.SetMaxIdleConns(opts.MaxOpenConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	db := bun.NewDB(sqldb, pgdialect.New())
	if opts.Lazy {
		return db, nil
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return db, nil
}

// Store runs jobsd's queries on a bun database or transaction, and its job
// and company reads on read replicas when it has some.
type Store struct {
	db       bun.IDB
	replicas *replicaSet
	index    *Indexer
	// log hears what the store's long operations wait for (an import
	// waiting for another one); nil is slog's default logger.
	log *slog.Logger
}

// New returns a Store over db.
func New(db bun.IDB) *Store {
	return &Store{db: db}
}

// WithLog returns a Store that tells log what its long operations wait
// for, such as an import waiting for another import to finish.
func (s *Store) WithLog(log *slog.Logger) *Store {
	c := *s
	c.log = log
	return &c
}

// logger returns the store's logger, slog's default when it has none.
func (s *Store) logger() *slog.Logger {
	if s.log == nil {
		return slog.Default()
	}
	return s.log
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.NewRaw("SELECT 1").Scan(ctx, &one); err != nil {
		return wrap(err, "ping")
	}
	return nil
}

// wrap adds context to a database error and gives it the contract's code
// where one applies: unavailable when the database cannot be reached or a
// query ran out of time.
func wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	var netErr net.Error
	var pgErr *pgconn.PgError
	var connectErr *pgconn.ConnectError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", what, err)
	case errors.As(err, &pgErr) && pgErr.Code == "57014": // query_canceled: statement timeout
		return fmt.Errorf("%s: %w: %w", what, domain.Errorf(domain.CodeUnavailable, "the query took too long"), err)
	case errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57")):
		return fmt.Errorf("%s: %w: %w", what, unavailable, err)
	case errors.As(err, &pgErr):
		return fmt.Errorf("%s: %w", what, err)
	case errors.As(err, &connectErr), errors.As(err, &netErr), errors.Is(err, sql.ErrConnDone), errors.Is(err, net.ErrClosed),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), pgconn.SafeToRetry(err):
		return fmt.Errorf("%s: %w: %w", what, unavailable, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

var unavailable = domain.Errorf(domain.CodeUnavailable, "the database is unavailable")
