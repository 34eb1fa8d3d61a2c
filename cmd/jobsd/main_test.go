package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/client"
	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/store"
)

// binary is the jobsd binary built once for all tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jobsd-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "jobsd")
	// The servers the tests start save their indexes here, not in the
	// user's cache.
	if err := os.Setenv("JOBSD_INDEX_CACHE", filepath.Join(dir, "index-cache")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build jobsd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// jobsd runs a subcommand of the binary against dsn and returns its
// standard output; it fails the test when the command fails.
func jobsd(t *testing.T, dsn string, args ...string) string {
	t.Helper()
	out, errOut, err := runJobsd(dsn, nil, args...)
	require.NoError(t, err, "jobsd %s: %s", strings.Join(args, " "), errOut)
	return out
}

func runJobsd(dsn string, stdin io.Reader, args ...string) (string, string, error) {
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// service is a running jobsd.
type service struct {
	dsn  string
	base string
	key  string
	cmd  *exec.Cmd
	logs *syncBuffer
	// logsRead is closed when the log has been read to its end (the
	// process closed stderr, as it does on exit).
	logsRead chan struct{}
}

// syncBuffer collects the service's log while tests read it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(s)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startService creates a database, imports the fixture, creates a key, and
// starts `jobsd serve` on a free port; it stops it when the test ends.
func startService(t *testing.T, env ...string) *service {
	t.Helper()
	return loadedService(t, pgtest.NewURL(t), env...)
}

// loadedService imports the fixture into the database at dsn, creates a
// key with room for every test's requests, and starts jobsd over it.
func loadedService(t *testing.T, dsn string, env ...string) *service {
	t.Helper()
	jobsd(t, dsn, "migrate")
	out := jobsd(t, dsn, "import", pgtest.Fixture(t, "jobs.ndjson"))
	require.Contains(t, out, "12 jobs written")
	s := startServiceOn(t, dsn, env...)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "e2e", "--rate", "100000", "--burst", "100000"))
	require.True(t, strings.HasPrefix(s.key, "jobsd_"), s.key)
	return s
}

// startServiceOn starts `jobsd serve` on a free port over the database at
// dsn, with extra environment variables; it stops it when the test ends.
func startServiceOn(t *testing.T, dsn string, env ...string) *service {
	t.Helper()
	return startServiceWith(t, dsn, nil, env...)
}

// startServiceWith is startServiceOn with extra flags for serve.
func startServiceWith(t *testing.T, dsn string, flags []string, env ...string) *service {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--addr", "127.0.0.1:0", "--no-migrate"}, flags...)...)
	cmd.Env = append(append(os.Environ(), "DATABASE_URL="+dsn), env...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &service{dsn: dsn, cmd: cmd, logs: &syncBuffer{}, logsRead: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		defer close(s.logsRead)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			s.logs.WriteString(line + "\n")
			var entry struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "jobsd listening" {
				addr <- entry.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		s.base = "http://" + a
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("jobsd did not start: %s", s.logs)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	for i := 0; ; i++ {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil && resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			break
		}
		require.Less(t, i, 100, "jobsd never became ready")
		time.Sleep(100 * time.Millisecond)
	}
	return s
}

// get sends a GET with the service's key and decodes the JSON body.
func (s *service) get(t *testing.T, path string, headers ...string) (int, map[string]any, http.Header) {
	t.Helper()
	return apitest.Do(t, s.request(t, http.MethodGet, path, headers...))
}

// request makes a request with the service's key; headers are name, value
// pairs, an empty value removing the header.
func (s *service) request(t *testing.T, method, path string, headers ...string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, nil)
	require.NoError(t, err)
	req.Header.Set("x-api-key", s.key)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	return req
}

// graphql posts a query with variables and returns the decoded body.
func (s *service) graphql(t *testing.T, query string, vars map[string]any) (int, map[string]any) {
	t.Helper()
	return s.post(t, s.key, query, vars)
}

// graphqlWithKey posts a query with another key.
func (s *service) graphqlWithKey(t *testing.T, key, query string) (int, map[string]any) {
	t.Helper()
	return s.post(t, key, query, nil)
}

func (s *service) post(t *testing.T, key, query string, vars map[string]any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, s.base+"/graphql", bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", key)
	status, body, _ := apitest.Do(t, req)
	return status, body
}

func ids(list any) []string {
	out := []string{}
	for _, item := range list.([]any) {
		out = append(out, item.(map[string]any)["id"].(string))
	}
	return out
}

// fingerprint sums the rows of every table a request could touch.
func fingerprint(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn, store.Options{MaxOpenConns: 1})
	require.NoError(t, err)
	defer db.Close()
	var sum string
	require.NoError(t, db.NewRaw(`SELECT
		(SELECT count(*) || md5(coalesce(string_agg(j::text, '|' ORDER BY id), '')) FROM jobs j) ||
		(SELECT count(*) || md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM companies c) ||
		(SELECT count(*) || md5(coalesce(string_agg(k.name || k.prefix, '|' ORDER BY id), '')) FROM api_keys k)`).Scan(ctx, &sum))
	return sum
}

// TestEndToEnd runs what needs the process and its server: API keys,
// request ids, the open pages, the access log, the healthcheck command and
// a graceful stop. The API's behaviour over a real database is tested in
// process in rest and graph (internal/apitest).
func TestEndToEnd(t *testing.T) {
	s := startService(t)

	t.Run("keys and request ids", func(t *testing.T) {
		cases := []struct {
			path    string
			headers []string
			status  int
			code    string
		}{
			{"/api/v1/jobs?limit=0", nil, 400, "invalid_parameter"},
			{"/api/v1/nothing-here", nil, 404, "not_found"},
			{"/api/v1/jobs", []string{"x-api-key", ""}, 401, "unauthorized"},
			{"/api/v1/jobs", []string{"x-api-key", "jobsd_not-a-real-key"}, 401, "unauthorized"},
		}
		for _, tc := range cases {
			t.Run(tc.path, func(t *testing.T) {
				status, body, h := s.get(t, tc.path, tc.headers...)
				assert.Equal(t, tc.status, status)
				assert.Equal(t, "application/json; charset=utf-8", h.Get("Content-Type"))
				e := body["error"].(map[string]any)
				assert.Equal(t, tc.code, e["code"])
				assert.NotEmpty(t, e["message"])
				assert.NotEmpty(t, h.Get("X-Request-ID"))
				assert.Equal(t, h.Get("X-Request-ID"), e["request_id"])
			})
		}

		req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/jobs", nil)
		req.Header.Set("x-api-key", s.key)
		req.Header.Set("X-Request-ID", "trace-123")
		_, _, h := apitest.Do(t, req)
		assert.Equal(t, "trace-123", h.Get("X-Request-ID"), "request id echoed")

		req, _ = http.NewRequest(http.MethodPost, s.base+"/graphql", strings.NewReader(`{"query":"{ jobs { nodes { id } } }"}`))
		req.Header.Set("Content-Type", "application/json")
		status, body, _ := apitest.Do(t, req)
		assert.Equal(t, http.StatusUnauthorized, status)
		ext := body["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)
		assert.Equal(t, "unauthorized", ext["code"])

		// The typed client sends its key.
		job, err := client.JobDetail(context.Background(), client.New(s.base, s.key), "test-6")
		require.NoError(t, err)
		require.NotNil(t, job.Job)
		assert.Equal(t, "test-6", job.Job.Id)
		_, err = client.JobDetail(context.Background(), client.New(s.base, "jobsd_not-a-real-key"), "test-6")
		assert.ErrorContains(t, err, "401")
	})

	t.Run("open pages", func(t *testing.T) {
		for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ok", "/playground": "/playground/assets/graphiql.min.js",
			"/playground/assets/graphiql.min.js": "graphiql", "/playground/assets/react.production.min.js": "react", "/graphql/schema.graphqls": "input JobFilter",
			"/attributions": "jobsd's own vocabularies"} {
			resp, err := http.Get(s.base + path)
			require.NoError(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode, path)
			assert.Contains(t, strings.ToLower(string(b)), strings.ToLower(want), path)
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(s.base + "/")
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, "/playground", resp.Header.Get("Location"))
	})

	t.Run("healthcheck command", func(t *testing.T) {
		out, _, err := runJobsd("", nil, "healthcheck", "--url", s.base+"/healthz")
		require.NoError(t, err)
		assert.Equal(t, "ok\n", out)
		_, _, err = runJobsd("", nil, "healthcheck", "--url", s.base+"/nothing")
		assert.Error(t, err)
	})

	t.Run("logs never hold the key", func(t *testing.T) {
		// Request lines are buffered for up to a second.
		assert.Eventually(t, func() bool { return strings.Contains(s.logs.String(), `"request_id":"trace-123"`) },
			5*time.Second, 50*time.Millisecond, "the request line is written within the flush interval")
		logs := s.logs.String()
		assert.True(t, strings.Contains(logs, `"key":"e2e"`), "request lines name the key")
		assert.False(t, strings.Contains(logs, s.key), "the key itself is never logged")
	})

	t.Run("graceful stop", func(t *testing.T) {
		req := s.request(t, http.MethodGet, "/api/v1/jobs?limit=1", "X-Request-ID", "last-before-stop")
		status, _, _ := apitest.Do(t, req)
		require.Equal(t, http.StatusOK, status)
		require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
		select {
		case <-s.logsRead:
		case <-time.After(25 * time.Second):
			t.Fatal("jobsd did not stop on SIGTERM")
		}
		assert.NoError(t, s.cmd.Wait(), "jobsd exits 0 on SIGTERM")
		logs := s.logs.String()
		assert.Contains(t, logs, `"request_id":"last-before-stop"`, "buffered request lines are written before exit")
		assert.NotContains(t, logs, s.key, "the key itself is never logged, in the whole log")
	})
}

func TestImportCommand(t *testing.T) {
	dsn := pgtest.NewURL(t)
	_, errOut, err := runJobsd(dsn, nil, "import", pgtest.Fixture(t, "invalid.ndjson"))
	require.Error(t, err, "an invalid line fails the import")
	for _, line := range []int{2, 3, 4, 5, 6, 7} {
		assert.Contains(t, errOut, fmt.Sprintf("invalid: line %d:", line))
	}
	assert.Contains(t, errOut, "nothing was written")

	out, _, err := runJobsd(dsn, strings.NewReader(`{"id":"std-1","title":"Nurse","company":"Stdin Health"}`+"\n"), "import", "-")
	require.NoError(t, err)
	assert.Contains(t, out, "1 jobs written")

	out, _, err = runJobsd(dsn, nil, "import", "--skip-invalid", pgtest.Fixture(t, "invalid.ndjson"))
	require.NoError(t, err)
	assert.Contains(t, out, "1 jobs written from 7 lines, 6 invalid skipped")

	_, _, err = runJobsd(dsn, nil, "import", "no-such-file.ndjson")
	require.Error(t, err)
}

func TestSeedIsDeterministic(t *testing.T) {
	a, _, err := runJobsd("", nil, "seed", "--n", "300", "--out", "-")
	require.NoError(t, err)
	b, _, err := runJobsd("", nil, "seed", "--n", "300", "--out", "-")
	require.NoError(t, err)
	assert.Equal(t, a, b)

	dsn := pgtest.NewURL(t)
	out := jobsd(t, dsn, "seed", "--n", "300")
	assert.Contains(t, out, "300 jobs written")
	out = jobsd(t, dsn, "seed", "--n", "300", "--if-empty")
	assert.Contains(t, out, "nothing to do")
}

func TestAPIKeys(t *testing.T) {
	dsn := pgtest.NewURL(t)
	key := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "alice"))
	assert.Regexp(t, `^jobsd_[A-Za-z0-9_-]{32}$`, key)
	_, _, err := runJobsd(dsn, nil, "apikey", "create", "--name", "alice")
	assert.Error(t, err, "an active name is not reused without --replace")
	list := jobsd(t, dsn, "apikey", "list")
	assert.Contains(t, list, "alice")
	assert.Contains(t, list, key[:14])
	assert.NotContains(t, list, key)
	jobsd(t, dsn, "apikey", "revoke", "alice")
	_, _, err = runJobsd(dsn, nil, "apikey", "revoke", "alice")
	assert.Error(t, err, "nothing left to revoke")
	for _, bad := range [][]string{{"--rate", "-1"}, {"--rate", "NaN"}, {"--rate", "Inf"}, {"--burst", "-5"}} {
		_, errOut, err := runJobsd(dsn, nil, append([]string{"apikey", "create", "--name", "bob"}, bad...)...)
		var exit *exec.ExitError
		if assert.ErrorAs(t, err, &exit, "%v must be refused", bad) {
			assert.Equal(t, 2, exit.ExitCode(), errOut)
		}
		assert.Contains(t, errOut, "--rate must be a number ≥ 0", bad)
	}
	assert.NotContains(t, jobsd(t, dsn, "apikey", "list"), "bob", "no key is created from a refused command")
}
