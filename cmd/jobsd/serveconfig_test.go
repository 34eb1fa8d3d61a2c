package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/ratelimit"
	"github.com/jobsd-dev/jobsd/store"
)

// defaultServeConfig is serve's configuration when neither the command
// line nor the environment sets anything.
func defaultServeConfig() serveConfig {
	conns := store.DefaultMaxOpenConns()
	return serveConfig{
		DatabaseURL:    DefaultDatabaseURL,
		Addr:           "127.0.0.1:8080",
		Migrate:        true,
		RequestTimeout: 10 * time.Second,
		Introspection:  true,
		MaxBodyBytes:   1 << 20,
		GraphQL: graph.HandlerOptions{ComplexityLimit: 10000, DepthLimit: 10, MaxRootFields: 10, MaxAliases: 10,
			MaxDocumentBytes: 32 << 10, ExpensivePerKey: 1, ExpensiveTotal: max(1, (conns-2)/2)},
		DefaultLimit: ratelimit.Limit{Rate: 50, Burst: 100},
		AuthFailures: auth.FailureLimit{Rate: 1, Burst: 10},
		TextIndex:    true,
		Index:        true,
		IndexCache:   defaultIndexCache(),
		DBMaxConns:   conns,

		MaxSubscriptionsPerKey: 100,
		ResumeHistory:          50_000,
	}
}

// TestParseServeConfig: serve's flags and environment make its
// configuration, a flag winning over its variable; every value serve
// cannot use is a usage error naming the flag or the variable.
func TestParseServeConfig(t *testing.T) {
	with := func(change func(*serveConfig)) serveConfig {
		c := defaultServeConfig()
		change(&c)
		return c
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want serveConfig
		err  string // a usage error containing it, when not ""
	}{
		{name: "defaults", want: defaultServeConfig()},
		{name: "index cache", env: map[string]string{"JOBSD_INDEX_CACHE": "/var/cache/jobsd"},
			want: with(func(c *serveConfig) { c.IndexCache = "/var/cache/jobsd" })},
		{name: "no index cache", args: []string{"--index-cache", ""},
			want: with(func(c *serveConfig) { c.IndexCache = "" })},
		{name: "flags", args: []string{"--addr", "127.0.0.1:0", "--no-migrate", "--request-timeout", "3s",
			"--introspection=false", "--cors-origins", "https://a.example, ,https://b.example", "--max-body-bytes", "4096",
			"--rate", "2.5", "--burst", "7", "--auth-failure-rate", "0", "--auth-failure-burst", "3",
			"--shutdown-drain", "2s", "--refdata", "ref", "--replica-urls", "postgres://r1/db,postgres://r2/db",
			"--debug-addr", "127.0.0.1:0", "--no-text-index", "--index=false", "--db-max-conns", "12",
			"--redis-url", "redis://u:pw@127.0.0.1:6379/0", "--metrics-addr", "127.0.0.1:9090",
			"--database-url", "postgres://u@h/db", "--resume-history", "5000"},
			want: with(func(c *serveConfig) {
				c.DatabaseURL = "postgres://u@h/db"
				c.Addr = "127.0.0.1:0"
				c.Migrate = false
				c.RequestTimeout = 3 * time.Second
				c.Introspection = false
				c.CORSOrigins = []string{"https://a.example", "https://b.example"}
				c.MaxBodyBytes = 4096
				c.DefaultLimit = ratelimit.Limit{Rate: 2.5, Burst: 7}
				c.AuthFailures = auth.FailureLimit{Rate: 0, Burst: 3}
				c.ShutdownDrain = 2 * time.Second
				c.RefData = "ref"
				c.ReplicaURLs = []string{"postgres://r1/db", "postgres://r2/db"}
				c.DebugAddr = "127.0.0.1:0"
				c.TextIndex = false
				c.Index = false
				c.DBMaxConns = 12
				c.GraphQL.ExpensiveTotal = 5
				c.RedisURL = "redis://u:pw@127.0.0.1:6379/0"
				c.MetricsAddr = "127.0.0.1:9090"
				c.ResumeHistory = 5000
			})},
		{name: "environment", env: map[string]string{
			"DATABASE_URL": "postgres://e@h/db", "JOBSD_ADDR": "localhost:0", "JOBSD_PLAYGROUND_KEY": "jobsd_k",
			"JOBSD_REQUEST_TIMEOUT": "1m", "JOBSD_INTROSPECTION": "false", "JOBSD_CORS_ORIGINS": "*",
			"JOBSD_RATE": "5", "JOBSD_BURST": "6", "DATABASE_REPLICA_URLS": "postgres://r/db",
			"JOBSD_DEBUG_ADDR": "127.0.0.1:1", "JOBSD_INDEX": "false", "JOBSD_TEXT_INDEX": "false",
			"JOBSD_DB_MAX_CONNS": "2", "REDIS_URL": "redis://127.0.0.1:6379/1", "JOBSD_AUTH_FAILURE_RATE": "0.5",
			"JOBSD_AUTH_FAILURE_BURST": "4", "JOBSD_SHUTDOWN_DRAIN": "5s", "JOBSD_METRICS_ADDR": "127.0.0.1:2",
			"JOBSD_REFDATA": "/ref", "JOBSD_RESUME_HISTORY": "700",
		},
			want: with(func(c *serveConfig) {
				c.DatabaseURL = "postgres://e@h/db"
				c.Addr = "localhost:0"
				c.PlaygroundKey = "jobsd_k"
				c.RequestTimeout = time.Minute
				c.Introspection = false
				c.CORSOrigins = []string{"*"}
				c.DefaultLimit = ratelimit.Limit{Rate: 5, Burst: 6}
				c.ReplicaURLs = []string{"postgres://r/db"}
				c.DebugAddr = "127.0.0.1:1"
				c.Index = false
				c.TextIndex = false
				c.DBMaxConns = 2
				c.GraphQL.ExpensiveTotal = 1
				c.RedisURL = "redis://127.0.0.1:6379/1"
				c.AuthFailures = auth.FailureLimit{Rate: 0.5, Burst: 4}
				c.ShutdownDrain = 5 * time.Second
				c.MetricsAddr = "127.0.0.1:2"
				c.RefData = "/ref"
				c.ResumeHistory = 700
			})},
		{name: "flags win over the environment", args: []string{"--rate", "3", "--index", "--no-text-index=false", "--addr", "[::1]:0"},
			env: map[string]string{"JOBSD_RATE": "fast", "JOBSD_INDEX": "yes", "JOBSD_TEXT_INDEX": "off", "JOBSD_ADDR": "0.0.0.0:0", "JOBSD_PLAYGROUND_KEY": "k"},
			want: with(func(c *serveConfig) {
				c.DefaultLimit.Rate = 3
				c.Addr = "[::1]:0"
				c.PlaygroundKey = "k"
			})},
		{name: "text index on", env: map[string]string{"JOBSD_TEXT_INDEX": "true"}, want: defaultServeConfig()},
		{name: "expensive total given", args: []string{"--graphql-expensive-total", "3", "--db-max-conns", "40"},
			want: with(func(c *serveConfig) { c.GraphQL.ExpensiveTotal = 3; c.DBMaxConns = 40 })},
		{name: "expensive total derived", args: []string{"--db-max-conns", "40"},
			want: with(func(c *serveConfig) { c.GraphQL.ExpensiveTotal = 19; c.DBMaxConns = 40 })},
		{name: "GraphQL limits", args: []string{"--graphql-complexity-limit", "500", "--graphql-depth-limit", "4",
			"--graphql-max-root-fields", "2", "--graphql-max-aliases", "1", "--graphql-max-document-bytes", "100", "--graphql-expensive-per-key", "2"},
			want: with(func(c *serveConfig) {
				c.GraphQL.ComplexityLimit, c.GraphQL.DepthLimit, c.GraphQL.MaxRootFields = 500, 4, 2
				c.GraphQL.MaxAliases, c.GraphQL.MaxDocumentBytes, c.GraphQL.ExpensivePerKey = 1, 100, 2
			})},

		// Usage errors, with the text each has.
		{name: "unknown flag", args: []string{"--bogus"}, err: "flag provided but not defined: -bogus"},
		{name: "bad flag value", args: []string{"--rate", "x"}, err: `invalid value "x" for flag -rate`},
		{name: "bad variable", env: map[string]string{"JOBSD_DB_MAX_CONNS": "many"}, err: "JOBSD_DB_MAX_CONNS=many: invalid value for --db-max-conns"},
		{name: "bad duration variable", env: map[string]string{"JOBSD_REQUEST_TIMEOUT": "10"}, err: "JOBSD_REQUEST_TIMEOUT=10: invalid value for --request-timeout"},
		{name: "bad boolean variable", env: map[string]string{"JOBSD_INDEX": "yes"}, err: "JOBSD_INDEX=yes: invalid value for --index"},
		{name: "bad inverted variable", env: map[string]string{"JOBSD_TEXT_INDEX": "off"}, err: "JOBSD_TEXT_INDEX=off: not true or false"},
		{name: "rate 0", args: []string{"--rate", "0"}, err: "serve: --rate must be > 0 and --burst ≥ 1"},
		{name: "rate NaN", env: map[string]string{"JOBSD_RATE": "NaN"}, err: "serve: --rate must be > 0 and --burst ≥ 1"},
		{name: "burst 0", args: []string{"--burst", "0"}, err: "serve: --rate must be > 0 and --burst ≥ 1"},
		{name: "auth failure rate negative", args: []string{"--auth-failure-rate", "-1"}, err: "serve: --auth-failure-rate must be a number ≥ 0 and --auth-failure-burst ≥ 1"},
		{name: "auth failure rate infinite", args: []string{"--auth-failure-rate", "+Inf"}, err: "--auth-failure-rate must be a number ≥ 0"},
		{name: "auth failure rate NaN", env: map[string]string{"JOBSD_AUTH_FAILURE_RATE": "NaN"}, err: "--auth-failure-rate must be a number ≥ 0"},
		{name: "auth failure burst 0", args: []string{"--auth-failure-burst", "0"}, err: "--auth-failure-burst ≥ 1"},
		{name: "negative drain", args: []string{"--shutdown-drain", "-1s"}, err: "serve: --shutdown-drain must be ≥ 0"},
		{name: "no connections", env: map[string]string{"JOBSD_DB_MAX_CONNS": "0"}, err: "serve: --db-max-conns must be ≥ 1"},
		{name: "resume history", args: []string{"--resume-history", "0"}, err: "serve: --resume-history must be ≥ 1"},
		{name: "complexity", args: []string{"--graphql-complexity-limit", "-1"}, err: "serve: --graphql-complexity-limit must be ≥ 1"},
		{name: "depth", args: []string{"--graphql-depth-limit", "0"}, err: "serve: --graphql-depth-limit must be ≥ 1"},
		{name: "root fields", args: []string{"--graphql-max-root-fields", "0"}, err: "serve: --graphql-max-root-fields must be ≥ 1"},
		{name: "aliases", args: []string{"--graphql-max-aliases", "0"}, err: "serve: --graphql-max-aliases must be ≥ 1"},
		{name: "document bytes", args: []string{"--graphql-max-document-bytes", "0"}, err: "serve: --graphql-max-document-bytes must be ≥ 1"},
		{name: "expensive per key", args: []string{"--graphql-expensive-per-key", "0"}, err: "serve: --graphql-expensive-per-key must be ≥ 1"},
		{name: "expensive total", args: []string{"--graphql-expensive-total", "-1"}, err: "serve: --graphql-expensive-total must be ≥ 0 (0: derived from --db-max-conns)"},
		{name: "playground key off loopback", args: []string{"--addr", "0.0.0.0:0", "--playground-key", "k"},
			err: "serve: --playground-key (JOBSD_PLAYGROUND_KEY) is handed to every visitor of the playground, so it needs --addr (JOBSD_ADDR) on a loopback address (127.0.0.0/8, ::1, localhost), and 0.0.0.0:0 is not one"},
		{name: "demo page", env: map[string]string{"JOBSD_DEMO": "true", "JOBSD_PLAYGROUND_KEY": "k"},
			want: with(func(c *serveConfig) {
				c.Demo, c.PlaygroundKey = true, "k"
				c.CORSOrigins = []string{"http://localhost:*", "http://127.0.0.1:*"} // a local frontend's dev server
			})},
		{name: "demo page with origins of its own", env: map[string]string{"JOBSD_DEMO": "true", "JOBSD_PLAYGROUND_KEY": "k", "JOBSD_CORS_ORIGINS": "http://app.test"},
			want: with(func(c *serveConfig) { c.Demo, c.PlaygroundKey, c.CORSOrigins = true, "k", []string{"http://app.test"} })},
		{name: "demo page without a key", args: []string{"--demo"}, err: "serve: --demo (JOBSD_DEMO) serves a search page that sends the --playground-key (JOBSD_PLAYGROUND_KEY) key, so it needs one"},
		{name: "playground key from the environment", env: map[string]string{"JOBSD_ADDR": ":0", "JOBSD_PLAYGROUND_KEY": "k"}, err: "--playground-key (JOBSD_PLAYGROUND_KEY)"},
		{name: "redis URL", env: map[string]string{"REDIS_URL": "redis://u:s3cr%zzet@127.0.0.1:6379/0"},
			err: "serve: --redis-url (REDIS_URL) is not a valid URL; percent-encode the reserved characters of its password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := env{getenv: func(k string) string { return tt.env[k] }, stderr: io.Discard}
			got, err := e.parseServeConfig(tt.args)
			if tt.err != "" {
				var u usageError
				require.True(t, errors.As(err, &u), "a usage error: %v", err)
				assert.Contains(t, err.Error(), tt.err)
				assert.NotContains(t, err.Error(), "s3cr", "no error quotes a password")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestParseServeConfigHelp: -h is flag.ErrHelp, whatever the environment
// holds, and the help lists serve's flags with their variables.
func TestParseServeConfigHelp(t *testing.T) {
	var help bytes.Buffer
	e := env{getenv: func(k string) string {
		if k == "JOBSD_RATE" {
			return "fast"
		}
		return ""
	}, stderr: &help}
	_, err := e.parseServeConfig([]string{"-h"})
	assert.ErrorIs(t, err, flag.ErrHelp)
	for _, v := range serveEnv {
		assert.Contains(t, help.String(), "-"+v.flag, "the help lists --%s", v.flag)
		assert.Contains(t, help.String(), v.variable, "the help names %s", v.variable)
	}
}

// TestOpenServeDepsFailsCleanly: when the database cannot be reached,
// openServeDeps returns the error, its URL masked, and closes what it
// opened before.
func TestOpenServeDepsFailsCleanly(t *testing.T) {
	cfg := defaultServeConfig()
	cfg.DatabaseURL = "postgres://nobody:s3cret@127.0.0.1:1/none?connect_timeout=1"
	deps, err := openServeDeps(t.Context(), cfg, slog.New(slog.DiscardHandler))
	require.Error(t, err)
	assert.Nil(t, deps)
	assert.Contains(t, err.Error(), "nobody:xxxxx@127.0.0.1:1")
	assert.NotContains(t, err.Error(), "s3cret")
}
