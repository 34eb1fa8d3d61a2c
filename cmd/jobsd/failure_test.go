package main_test

import (
	"context"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/store"
)

func TestDatabaseOutage(t *testing.T) {
	c := pgtest.NewCluster(t)
	s := loadedService(t, c.URL("postgres"))
	status, _, _ := s.get(t, "/api/v1/jobs")
	require.Equal(t, http.StatusOK, status)

	c.Stop()
	start := time.Now()
	status, body, _ := s.get(t, "/api/v1/jobs?skills=python")
	assert.Less(t, time.Since(start), 3*time.Second, "an outage is reported quickly")
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "unavailable", body["error"].(map[string]any)["code"])

	status, gql := s.graphql(t, `{ jobs { pageInfo { total } } }`, nil)
	assert.Equal(t, http.StatusServiceUnavailable, status, "HTTP 503 on /graphql too")
	assert.Equal(t, "unavailable", gql["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)["code"])

	// /readyz answers from a ping at most a second old.
	assert.Eventually(t, func() bool {
		resp, err := http.Get(s.base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusServiceUnavailable
	}, 3*time.Second, 100*time.Millisecond, "/readyz fails within a second")
	resp, err := http.Get(s.base + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the process stays up")

	c.Start()
	s.waitReady(t, 15*time.Second, "ready again once the database is back")
	status, body, _ = s.get(t, "/api/v1/jobs?skills=python")
	assert.Equal(t, http.StatusOK, status, "serving again without a restart")
	assert.Len(t, body["data"], 2)
}

// waitReady waits until /readyz answers 200, failing the test with msg
// after within.
func (s *service) waitReady(t *testing.T, within time.Duration, msg string) {
	t.Helper()
	require.Eventually(t, func() bool {
		resp, err := http.Get(s.base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, within, 200*time.Millisecond, msg)
}

// lockJobs holds an exclusive lock on the jobs table until release is
// called, so that every query of the table waits.
func lockJobs(t *testing.T, dsn string) (release func()) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn, store.Options{MaxOpenConns: 2})
	require.NoError(t, err)
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	_, err = tx.ExecContext(ctx, "LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE")
	require.NoError(t, err)
	released := false
	release = func() {
		if !released {
			released = true
			_ = tx.Rollback()
			_ = db.Close()
		}
	}
	t.Cleanup(release)
	return release
}

func TestSlowQueryIsCancelled(t *testing.T) {
	dsn := pgtest.NewURL(t)
	s := loadedService(t, dsn)
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s = startServiceOn(t, dsn, "JOBSD_REQUEST_TIMEOUT=1s")
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "slow-test", "--rate", "1000", "--burst", "1000"))
	s.get(t, "/api/v1/jobs/test-1") // the key is cached before the lock

	release := lockJobs(t, dsn)
	start := time.Now()
	status, body, _ := s.get(t, "/api/v1/jobs?skills=python")
	took := time.Since(start)
	assert.Equal(t, http.StatusServiceUnavailable, status)
	assert.Equal(t, "unavailable", body["error"].(map[string]any)["code"])
	assert.Less(t, took, 3*time.Second, "the request deadline holds")

	ctx := context.Background()
	db, err := store.Open(ctx, dsn, store.Options{MaxOpenConns: 1})
	require.NoError(t, err)
	defer db.Close()
	require.Eventually(t, func() bool {
		var waiting int
		err := db.NewRaw(`SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND query ILIKE '%filter_keys%'`).Scan(ctx, &waiting)
		return err == nil && waiting == 0
	}, 5*time.Second, 100*time.Millisecond, "the query was cancelled in the database, not left running")
	release()
}

func TestGracefulShutdownDrains(t *testing.T) {
	dsn := pgtest.NewURL(t)
	s := loadedService(t, dsn)
	s.get(t, "/api/v1/jobs/test-1")

	release := lockJobs(t, dsn)
	type result struct {
		status int
		err    error
	}
	done := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/jobs?skills=golang", nil)
		req.Header.Set("x-api-key", s.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		resp.Body.Close()
		done <- result{status: resp.StatusCode}
	}()
	time.Sleep(300 * time.Millisecond) // the request is in flight, waiting on the lock
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	time.Sleep(300 * time.Millisecond)
	release()
	select {
	case r := <-done:
		require.NoError(t, r.err)
		assert.Equal(t, http.StatusOK, r.status, "the in-flight request completes")
	case <-time.After(10 * time.Second):
		t.Fatal("the in-flight request never completed")
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		assert.NoError(t, err, "a clean exit after draining")
	case <-time.After(10 * time.Second):
		t.Fatal("jobsd did not exit")
	}
}
