package main_test

import (
	"errors"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDatabasePoolSize starts serve with each way of sizing its pool and
// reads the size the pool really has from /metrics.
func TestDatabasePoolSize(t *testing.T) {
	// An empty JOBSD_DB_MAX_CONNS is unset: the developer's own cannot leak in.
	first := startService(t, "GOMAXPROCS=1", "JOBSD_DB_MAX_CONNS=")
	assert.Equal(t, 4, maxOpenConnections(t, first.base), "default on one processor: pgxpool's floor of 4")
	assert.Equal(t, 2, poolSize(t, first.base, "jobsd_background"), "the index and the text indexer have a pool of their own")
	tests := []struct {
		name  string
		flags []string
		env   []string
		want  int
	}{
		{"default on six processors: one each", nil, []string{"GOMAXPROCS=6", "JOBSD_DB_MAX_CONNS="}, 6},
		{"default on forty processors: at most 16", nil, []string{"GOMAXPROCS=40", "JOBSD_DB_MAX_CONNS="}, 16},
		{"set by the environment", nil, []string{"GOMAXPROCS=6", "JOBSD_DB_MAX_CONNS=3"}, 3},
		{"set by the flag", []string{"--db-max-conns", "5"}, []string{"JOBSD_DB_MAX_CONNS="}, 5},
		{"the flag wins over the environment", []string{"--db-max-conns", "5"}, []string{"JOBSD_DB_MAX_CONNS=3"}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startServiceWith(t, first.dsn, tt.flags, tt.env...)
			assert.Equal(t, tt.want, maxOpenConnections(t, s.base))
		})
	}

	t.Run("without the index and the text indexer, no background connection", func(t *testing.T) {
		s := startServiceWith(t, first.dsn, []string{"--index=false", "--no-text-index"})
		resp, err := http.Get(s.base + "/readyz")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, 2, poolSize(t, s.base, "jobsd_background"))
		assert.Equal(t, 0, poolMetric(t, s.base, "go_sql_open_connections", "jobsd_background"))
		assert.Positive(t, poolMetric(t, s.base, "go_sql_open_connections", "jobsd"))
	})

	t.Run("a pool of none is a usage error", func(t *testing.T) {
		_, errOut, err := runJobsd(first.dsn, nil, "serve", "--addr", "127.0.0.1:0", "--no-migrate", "--db-max-conns", "0")
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "serve must fail: %v", err)
		assert.Equal(t, 2, exit.ExitCode())
		assert.Contains(t, errOut, "--db-max-conns must be ≥ 1")
	})
}

// maxOpenConnections reads the size of the request pool from the
// service's /metrics.
func maxOpenConnections(t *testing.T, base string) int {
	t.Helper()
	return poolSize(t, base, "jobsd")
}

// poolSize reads go_sql_max_open_connections of the pool named name from
// the service's /metrics.
func poolSize(t *testing.T, base, name string) int {
	t.Helper()
	return poolMetric(t, base, "go_sql_max_open_connections", name)
}

// poolMetric reads a go_sql_ gauge of the pool named name from the
// service's /metrics.
func poolMetric(t *testing.T, base, metric, name string) int {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^` + metric + `\{db_name="` + regexp.QuoteMeta(name) + `"\} (\d+)$`).FindSubmatch(body)
	require.NotNil(t, m, "no %s of pool %s in /metrics", metric, name)
	n, err := strconv.Atoi(string(m[1]))
	require.NoError(t, err)
	return n
}
