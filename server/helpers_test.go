package server_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/graph/graphtest"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/server"
)

// newTestServer serves jobsd's handler over st, logging to log, with one
// API key (the key's default limits), until the test ends. It returns the
// server and the key.
func newTestServer(t *testing.T, st *graphtest.Store, log *slog.Logger) (*httptest.Server, string) {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	key, _, hash := auth.NewKey()
	srv := httptest.NewServer(server.New(server.Config{
		Resolver: graph.NewResolver(norm, st, log),
		Keys: auth.NewChecker(func(context.Context, []byte) (*auth.Key, error) {
			return auth.NewKeyInfo(1, "test", hash, 0, 0), nil
		}, time.Minute),
		Ping: func(context.Context) error { return nil },
		Log:  log,
	}))
	t.Cleanup(srv.Close)
	return srv, key
}
