package main_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/store"
)

// TestReadReplicas runs jobsd over a primary and a streaming replica on
// loopback: reads come from the replica (a job written to the primary while
// the replica's replay is paused stays invisible), and when the replica
// stops, reads fail over to the primary.
func TestReadReplicas(t *testing.T) {
	primary := pgtest.NewCluster(t)
	dsn := primary.URL("postgres")
	jobsd(t, dsn, "migrate")
	jobsd(t, dsn, "import", pgtest.Fixture(t, "jobs.ndjson"))
	replica := pgtest.NewReplica(t, primary)
	s := startServiceOn(t, dsn, "DATABASE_REPLICA_URLS="+replica.URL("postgres"), "JOBSD_DB_MAX_CONNS=3")
	assert.Equal(t, 3, poolSize(t, s.base, "jobsd_replica_1"), "the replica's pool, sized as the primary's, is on /metrics")
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "replicas", "--rate", "1000", "--burst", "1000"))
	assert.Contains(t, s.logs.String(), "reading jobs and companies from replicas")

	status, _, _ := s.get(t, "/api/v1/jobs/test-1")
	require.Equal(t, http.StatusOK, status)

	ctx := context.Background()
	rdb, err := store.Open(ctx, replica.URL("postgres"), store.Options{MaxOpenConns: 1})
	require.NoError(t, err)
	defer rdb.Close()
	_, err = rdb.ExecContext(ctx, "SELECT pg_wal_replay_pause()")
	require.NoError(t, err)

	probe := func(id string) string {
		return `{"id":"` + id + `","title":"Replica Probe","company":"Probe Co"}` + "\n"
	}
	_, errOut, err := runJobsd(dsn, strings.NewReader(probe("test-50")), "import", "-")
	require.NoError(t, err, errOut)
	status, _, _ = s.get(t, "/api/v1/jobs/test-50")
	assert.Equal(t, http.StatusNotFound, status, "read from the paused replica, which has not seen the new job")
	_, body, _ := s.get(t, "/api/v1/companies?min_jobs=0&limit=100")
	assert.Equal(t, float64(7), body["meta"].(map[string]any)["total"], "companies too come from the replica")

	_, err = rdb.ExecContext(ctx, "SELECT pg_wal_replay_resume()")
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		status, _, _ := s.get(t, "/api/v1/jobs/test-50")
		return status == http.StatusOK
	}, 10*time.Second, 100*time.Millisecond, "the replica catches up")

	replica.Stop()
	_, errOut, err = runJobsd(dsn, strings.NewReader(probe("test-51")), "import", "-")
	require.NoError(t, err, errOut)
	start := time.Now()
	status, _, _ = s.get(t, "/api/v1/jobs/test-51")
	assert.Equal(t, http.StatusOK, status, "with the replica down, the primary answers")
	assert.Less(t, time.Since(start), 3*time.Second)
	status, body, _ = s.get(t, "/api/v1/jobs?limit=100")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, float64(14), body["meta"].(map[string]any)["total"])
}
