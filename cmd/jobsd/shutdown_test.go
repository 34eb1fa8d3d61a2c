package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// waitExit waits for the service's process to end and returns its error.
func (s *service) waitExit(t *testing.T, within time.Duration) error {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-time.After(within):
		t.Fatalf("jobsd did not exit within %s", within)
		return nil
	}
}

// TestShutdownServesRequestsWhoseHeadersAreArriving: connections that have
// sent part of a request's headers when SIGTERM comes, on a new connection
// or on a kept-alive one, get their full response once the headers are in.
func TestShutdownServesRequestsWhoseHeadersAreArriving(t *testing.T) {
	s := loadedService(t, pgtest.NewURL(t))
	request := "GET /api/v1/jobs/test-1 HTTP/1.1\r\nHost: jobsd\r\nx-api-key: " + s.key + "\r\n\r\n"
	type conn struct {
		name string
		c    net.Conn
		r    *bufio.Reader
		rest string
	}
	open := func(name string, keptAlive bool, sent int) *conn {
		c, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		cn := &conn{name: name, c: c, r: bufio.NewReader(c), rest: request[sent:]}
		if keptAlive {
			_, err := io.WriteString(c, request)
			require.NoError(t, err)
			resp, err := http.ReadResponse(cn.r, nil)
			require.NoError(t, err)
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
		}
		_, err = io.WriteString(c, request[:sent])
		require.NoError(t, err)
		return cn
	}
	half := strings.Index(request, "x-api-key")
	conns := []*conn{
		open("new connection, half of the headers", false, half),
		open("new connection, one byte", false, 1),
		open("kept-alive connection, half of the headers", true, half),
		open("kept-alive connection, two bytes", true, 2),
	}
	time.Sleep(300 * time.Millisecond) // jobsd reads what was sent
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	time.Sleep(700 * time.Millisecond) // jobsd is shutting down
	for _, c := range conns {
		_, err := io.WriteString(c.c, c.rest)
		assert.NoError(t, err, c.name)
	}
	for _, c := range conns {
		require.NoError(t, c.c.SetReadDeadline(time.Now().Add(10*time.Second)))
		resp, err := http.ReadResponse(c.r, nil)
		if !assert.NoError(t, err, "%s: a response, not an empty reply", c.name) {
			continue
		}
		var body struct{ Data struct{ ID string } }
		assert.NoError(t, json.NewDecoder(resp.Body).Decode(&body), c.name)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, c.name)
		assert.Equal(t, "test-1", body.Data.ID, c.name)
	}
	assert.NoError(t, s.waitExit(t, 15*time.Second), "a clean exit")
	_, err := net.DialTimeout("tcp", strings.TrimPrefix(s.base, "http://"), time.Second)
	assert.Error(t, err, "the listener is closed")
}

// TestShutdownDrainFailsReadyz: during --shutdown-drain, /readyz fails
// while requests are still served, each closing its connection.
func TestShutdownDrainFailsReadyz(t *testing.T) {
	s := loadedService(t, pgtest.NewURL(t), "JOBSD_SHUTDOWN_DRAIN=3s")
	start := time.Now()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	require.Eventually(t, func() bool {
		resp, err := http.Get(s.base + "/readyz")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var body struct{ Status string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode == http.StatusServiceUnavailable && body.Status == "shutting down"
	}, 2*time.Second, 20*time.Millisecond, "/readyz fails at once")
	resp, err := http.DefaultClient.Do(s.request(t, http.MethodGet, "/api/v1/jobs/test-1"))
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "requests are still served")
	assert.True(t, resp.Close, "with Connection: close")
	assert.NoError(t, s.waitExit(t, 15*time.Second))
	assert.GreaterOrEqual(t, time.Since(start), 3*time.Second, "after the drain period")
}
