package server_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/server"
)

// newHandler returns jobsd's handler over st, logging to log, and its one
// API key, which may make rate requests a second (0: the server's
// default limit).
func newHandler(tb testing.TB, st *searchtest.Store, log *slog.Logger, rate float64) (http.Handler, string) {
	tb.Helper()
	return newHandlerWith(tb, st, log, rate, nil)
}

// newHandlerWith is newHandler with configure, when set, changing the
// server's configuration before the handler is built.
func newHandlerWith(tb testing.TB, st *searchtest.Store, log *slog.Logger, rate float64, configure func(*server.Config)) (http.Handler, string) {
	tb.Helper()
	norm, err := normalize.New()
	require.NoError(tb, err)
	key, _, hash := auth.NewKey()
	cfg := server.Config{
		Search: search.New(norm, st),
		Keys: auth.NewChecker(func(context.Context, []byte) (*auth.Key, error) {
			return auth.NewKeyInfo(1, "test", hash, rate, int(rate)), nil
		}, time.Minute),
		Ping: func(context.Context) error { return nil },
		Log:  log,
	}
	if configure != nil {
		configure(&cfg)
	}
	return server.New(cfg), key
}

// newTestServer serves newHandler's handler (default limits) until the
// test ends, and returns the server and the key.
func newTestServer(t *testing.T, st *searchtest.Store, log *slog.Logger) (*httptest.Server, string) {
	t.Helper()
	h, key := newHandler(t, st, log, 0)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, key
}
