package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
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
	return do(t, s.request(t, http.MethodGet, path, headers...))
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

func do(t *testing.T, req *http.Request) (int, map[string]any, http.Header) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var v map[string]any
	if len(body) > 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/") {
		require.NoError(t, json.Unmarshal(body, &v), "body: %s", body)
	}
	return resp.StatusCode, v, resp.Header
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
	status, body, _ := do(t, req)
	return status, body
}

func ids(list any) []string {
	out := []string{}
	for _, item := range list.([]any) {
		out = append(out, item.(map[string]any)["id"].(string))
	}
	return out
}

// filterCases are REST filters with the ids they must return, in order.
var filterCases = []struct {
	query string
	want  []string
}{
	{"", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8", "test-9", "test-11", "test-12", "test-10"}},
	{"skills=golang", []string{"test-1", "test-9"}},
	{"skills=golang&city=SF", []string{"test-1", "test-9"}},
	{"skills=aws", []string{"test-6"}},
	{"skills=eks", []string{"test-6"}},
	{"skills=k8s", []string{"test-1"}},
	{"skills=reactjs,%20python,,", []string{"test-2", "test-4", "test-5"}},
	{"skills=ML", []string{"test-5"}},
	{"tools=docker", []string{"test-1"}},
	{"technical_skills=REST%20APIs", []string{"test-12"}},
	{"soft_skills=communication", []string{"test-12"}},
	{"visas=h1b", []string{"test-1", "test-9"}},
	{"visas=tn", []string{"test-9"}},
	{"education_levels=bachelors", []string{"test-1"}},
	{"education_levels=PhD,associate", []string{"test-3", "test-5"}},
	{"education_majors=cs", []string{"test-1"}},
	{"education_majors=statistics", []string{"test-5"}},
	{"certifications=bls", []string{"test-3"}},
	{"certifications=CPA", []string{"test-7"}},
	{"security_clearances=TS/SCI", []string{"test-6"}},
	{"benefits=401(k),dental%20insurance", []string{"test-1"}},
	{"work_arrangement=remote", []string{"test-4", "test-5", "test-9", "test-12"}},
	{"work_arrangement=on-site", []string{"test-1", "test-3", "test-6", "test-8", "test-10"}},
	{"work_arrangement=hybrid,remote", []string{"test-2", "test-4", "test-5", "test-7", "test-9", "test-11", "test-12"}},
	{"employment_type=FT", []string{"test-1", "test-2", "test-5", "test-6", "test-7", "test-8", "test-9", "test-12"}},
	{"employment_type=part-time,internship", []string{"test-3", "test-11"}},
	{"company=acme", []string{"test-1", "test-2", "test-12"}},
	{"company=ACME%20CLOUD", []string{"test-1", "test-2", "test-12"}},
	{"company=100%25", []string{}},
	{"city=cambridge", []string{"test-11", "test-12"}},
	{"state=CA", []string{"test-1", "test-9"}},
	{"state=texas", []string{"test-3", "test-10"}},
	{"state=Ontario", []string{"test-7"}},
	{"country=USA", []string{"test-1", "test-2", "test-3", "test-5", "test-6", "test-9", "test-12", "test-10"}},
	{"country=UK", []string{"test-4", "test-11"}},
	{"location=Austin,%20TX", []string{"test-3"}},
	{"location=London,%20UK", []string{"test-4"}},
	{"location=Remote%20-%20US", []string{"test-5", "test-9", "test-12"}},
	{"location=Cambridge,%20MA", []string{"test-12"}},
	{"title=backend%20engineer", []string{"test-1", "test-9"}},
	{"title=Software%20Engineer", []string{"test-1", "test-2", "test-4", "test-6", "test-9", "test-11"}},
	{"job_title=nurse", []string{"test-3"}},
	{"title=nurse&job_title=Nurse", []string{"test-3"}},
	{"title=happiness%20wizard", []string{"test-8"}},
	{"salary_min=150000", []string{"test-1", "test-2", "test-4", "test-6", "test-9", "test-12"}},
	{"salary_max=70000", []string{"test-7", "test-8", "test-11", "test-10"}},
	{"salary_min=90000&salary_max=100000", []string{"test-3"}},
	{"category_field=business%20and%20financial%20operations", []string{"test-7"}},
	{"category_role=software%20engineer", []string{"test-1", "test-2", "test-4", "test-6", "test-9", "test-11"}},
	{"category_specialization=backend", []string{"test-1", "test-9"}},
	{"skills=python&work_arrangement=remote&country=UK", []string{"test-4"}},
	{"q=data", []string{"test-5"}},
	{"posted_after=2026-10-25", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6"}},
	{"posted_after=2026-10-24T04:00:00Z", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8"}},
	{"posted_within=3650d", []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8", "test-9", "test-11", "test-12"}},
	{"skills=python,ml&skills_match=all", []string{"test-5"}},
	{"visas=h1b,tn&visas_match=all", []string{"test-9"}},
	{"benefits=401k,dental&benefits_match=ALL", []string{"test-1"}},
	{"salary_min=150000&include_unknown_salary=true", []string{"test-1", "test-2", "test-4", "test-5", "test-6", "test-9", "test-12"}},
}

func TestEndToEnd(t *testing.T) {
	s := startService(t)

	t.Run("filters", func(t *testing.T) {
		for _, tc := range filterCases {
			t.Run(tc.query, func(t *testing.T) {
				status, body, _ := s.get(t, "/api/v1/jobs?limit=100&"+tc.query)
				require.Equal(t, http.StatusOK, status, "%v", body)
				assert.Equal(t, tc.want, ids(body["data"]))
				meta := body["meta"].(map[string]any)
				assert.Equal(t, float64(len(tc.want)), meta["total"])
				assert.Equal(t, false, meta["has_more"])
			})
		}
	})

	t.Run("REST and GraphQL agree", func(t *testing.T) {
		for _, tc := range filterCases {
			t.Run(tc.query, func(t *testing.T) {
				_, rest, _ := s.get(t, "/api/v1/jobs?limit=4&offset=1&"+tc.query)
				status, gql := s.graphql(t, jobsQuery, map[string]any{"filter": graphQLFilter(t, tc.query), "limit": 4, "offset": 1})
				require.Equal(t, http.StatusOK, status)
				require.Nil(t, gql["errors"])
				page := gql["data"].(map[string]any)["jobs"].(map[string]any)
				assert.Equal(t, rest["data"], snakeCase(page["nodes"]), "same cards, same order")
				info := page["pageInfo"].(map[string]any)
				meta := rest["meta"].(map[string]any)
				for rk, gk := range map[string]string{"total": "total", "limit": "limit", "offset": "offset", "has_more": "hasMore"} {
					assert.Equal(t, meta[rk], info[gk], rk)
				}
			})
		}
	})

	t.Run("pagination", func(t *testing.T) {
		var walked []string
		for offset := 0; ; offset += 5 {
			_, body, _ := s.get(t, "/api/v1/jobs?limit=5&offset="+strconv.Itoa(offset))
			meta := body["meta"].(map[string]any)
			assert.Equal(t, float64(12), meta["total"])
			assert.Equal(t, float64(5), meta["limit"])
			assert.Equal(t, float64(offset), meta["offset"])
			page := ids(body["data"])
			walked = append(walked, page...)
			assert.Equal(t, offset+len(page) < 12, meta["has_more"])
			if meta["has_more"] == false {
				break
			}
		}
		assert.Equal(t, filterCases[0].want, walked)

		_, body, _ := s.get(t, "/api/v1/jobs")
		assert.Equal(t, float64(25), body["meta"].(map[string]any)["limit"], "default limit")
		_, body, _ = s.get(t, "/api/v1/jobs?limit=500")
		assert.Equal(t, float64(100), body["meta"].(map[string]any)["limit"], "clamped")
		status, body, _ := s.get(t, "/api/v1/jobs?offset=100")
		assert.Equal(t, http.StatusOK, status)
		assert.Equal(t, []any{}, body["data"])
		assert.Equal(t, float64(12), body["meta"].(map[string]any)["total"])
		assert.Equal(t, false, body["meta"].(map[string]any)["has_more"])

		// Cursor pages walk the same list.
		walked = nil
		cursor := ""
		for range 5 {
			_, body, _ := s.get(t, "/api/v1/jobs?limit=5"+cursor)
			walked = append(walked, ids(body["data"])...)
			next, ok := body["meta"].(map[string]any)["next_cursor"].(string)
			if !ok || body["meta"].(map[string]any)["has_more"] == false {
				break
			}
			cursor = "&cursor=" + url.QueryEscape(next)
		}
		assert.Equal(t, filterCases[0].want, walked)

		_, body, _ = s.get(t, "/api/v1/companies?limit=2&offset=1")
		assert.Equal(t, map[string]any{"total": float64(7), "limit": float64(2), "offset": float64(1), "has_more": true}, body["meta"])
	})

	t.Run("field presence", func(t *testing.T) {
		_, body, _ := s.get(t, "/api/v1/jobs?limit=100")
		for _, c := range body["data"].([]any) {
			card := c.(map[string]any)
			assert.ElementsMatch(t, []string{"id", "title", "company", "location", "work_arrangement", "employment_type", "salary", "category"}, keys(card))
			assert.ElementsMatch(t, []string{"city", "state", "country", "full"}, keys(card["location"].(map[string]any)))
			assert.ElementsMatch(t, []string{"field", "role", "specialization"}, keys(card["category"].(map[string]any)))
			if sal, ok := card["salary"].(map[string]any); ok {
				assert.ElementsMatch(t, []string{"min", "max", "currency", "period"}, keys(sal))
			}
		}
		status, body, _ := s.get(t, "/api/v1/jobs/test-5")
		require.Equal(t, http.StatusOK, status)
		assert.Nil(t, body["meta"], "no meta on a single job")
		job := body["data"].(map[string]any)
		assert.ElementsMatch(t, []string{"id", "title", "company", "company_logo", "url", "posted_at", "location", "work_arrangement",
			"employment_type", "experience_level", "salary", "summary", "description", "description_raw", "responsibilities",
			"required_qualifications", "preferred_qualifications", "skills", "tools", "soft_skills", "technical_skills", "benefits",
			"education", "education_levels", "education_majors", "certifications", "visa_sponsorship", "visa_requirements",
			"security_clearances", "clearance_status", "travel_percent", "source", "category"}, keys(job))
		assert.Nil(t, job["salary"])
		assert.Nil(t, job["security_clearances"])
		assert.Nil(t, job["clearance_status"])
		assert.Nil(t, job["company_logo"])
		assert.Equal(t, []any{}, job["tools"], "empty lists are [], never null")
		assert.Equal(t, "2026-10-26T06:00:00Z", job["posted_at"])

		_, body, _ = s.get(t, "/api/v1/jobs/test-6")
		job = body["data"].(map[string]any)
		assert.Equal(t, []any{"Top Secret/SCI"}, job["security_clearances"])
		assert.Equal(t, "Active", job["clearance_status"])
		assert.Equal(t, []any{"EKS", "Terraform", "AWS"}, job["skills"])

		_, body, _ = s.get(t, "/api/v1/jobs/test-10")
		assert.Nil(t, body["data"].(map[string]any)["posted_at"])
	})

	t.Run("normalized echo", func(t *testing.T) {
		_, body, _ := s.get(t, "/api/v1/jobs?skills=golang,k8s&city=SF&title=software%20engineer")
		assert.Equal(t, map[string]any{
			"skills": []any{"Go", "Kubernetes"},
			"city":   []any{"San Francisco"},
			"title":  map[string]any{"category_field": "Computer and Mathematical", "category_role": "Software Engineer"},
		}, body["meta"].(map[string]any)["normalized"])
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			path    string
			headers []string
			status  int
			code    string
			param   string
		}{
			{"/api/v1/jobs?limit=0", nil, 400, "invalid_parameter", "limit"},
			{"/api/v1/jobs?limit=abc", nil, 400, "invalid_parameter", "limit"},
			{"/api/v1/jobs?limit=2.5", nil, 400, "invalid_parameter", "limit"},
			{"/api/v1/jobs?offset=-1", nil, 400, "invalid_parameter", "offset"},
			{"/api/v1/jobs?salary_min=-5", nil, 400, "invalid_parameter", "salary_min"},
			{"/api/v1/jobs?salary_min=lots", nil, 400, "invalid_parameter", "salary_min"},
			{"/api/v1/jobs?salary_min=200&salary_max=100", nil, 400, "invalid_parameter", "salary_min"},
			{"/api/v1/jobs?work_arrangement=sometimes", nil, 400, "invalid_parameter", "work_arrangement"},
			{"/api/v1/jobs?employment_type=gig", nil, 400, "invalid_parameter", "employment_type"},
			{"/api/v1/jobs?title=nurse&job_title=engineer", nil, 400, "invalid_parameter", "job_title"},
			{"/api/v1/jobs?skills=" + strings.Repeat("a,", 51), nil, 400, "invalid_parameter", "skills"},
			{"/api/v1/jobs?sort=relevance", nil, 400, "invalid_parameter", "sort"},
			{"/api/v1/jobs?sort=cheapest", nil, 400, "invalid_parameter", "sort"},
			{"/api/v1/jobs?cursor=garbage", nil, 400, "invalid_parameter", "cursor"},
			{"/api/v1/jobs?posted_within=2w", nil, 400, "invalid_parameter", "posted_within"},
			{"/api/v1/jobs?posted_after=yesterday", nil, 400, "invalid_parameter", "posted_after"},
			{"/api/v1/jobs?skills=go&skills_match=some", nil, 400, "invalid_parameter", "skills_match"},
			{"/api/v1/jobs?include_unknown_salary=maybe", nil, 400, "invalid_parameter", "include_unknown_salary"},
			{"/api/v1/jobs?skil=go", nil, 400, "unknown_parameter", "skil"},
			{"/api/v1/jobs?foo=bar", nil, 400, "unknown_parameter", "foo"},
			{"/api/v1/jobs/Not%20An%20Id", nil, 400, "invalid_parameter", "id"},
			{"/api/v1/jobs/test-999", nil, 404, "not_found", ""},
			{"/api/v1/companies?min_jobs=abc", nil, 400, "invalid_parameter", "min_jobs"},
			{"/api/v1/companies?min_jobs=-1", nil, 400, "invalid_parameter", "min_jobs"},
			{"/api/v1/nothing-here", nil, 404, "not_found", ""},
			{"/api/v1/jobs", []string{"x-api-key", ""}, 401, "unauthorized", ""},
			{"/api/v1/jobs", []string{"x-api-key", "jobsd_not-a-real-key"}, 401, "unauthorized", ""},
		}
		for _, tc := range cases {
			t.Run(tc.path, func(t *testing.T) {
				status, body, h := s.get(t, tc.path, tc.headers...)
				assert.Equal(t, tc.status, status)
				assert.Equal(t, "application/json; charset=utf-8", h.Get("Content-Type"))
				e := body["error"].(map[string]any)
				assert.Equal(t, tc.code, e["code"])
				assert.NotEmpty(t, e["message"])
				assert.Equal(t, h.Get("X-Request-ID"), e["request_id"])
				if tc.param != "" {
					assert.Equal(t, tc.param, e["param"])
				}
			})
		}
		_, body, _ := s.get(t, "/api/v1/jobs?skil=go")
		assert.Contains(t, body["error"].(map[string]any)["message"], `did you mean "skills"`)

		req, _ := http.NewRequest(http.MethodPost, s.base+"/api/v1/jobs", nil)
		req.Header.Set("x-api-key", s.key)
		status, body, h := do(t, req)
		assert.Equal(t, http.StatusMethodNotAllowed, status)
		assert.Equal(t, "method_not_allowed", body["error"].(map[string]any)["code"])
		assert.Contains(t, h.Get("Allow"), "GET")

		req, _ = http.NewRequest(http.MethodGet, s.base+"/api/v1/jobs", nil)
		req.Header.Set("x-api-key", s.key)
		req.Header.Set("X-Request-ID", "trace-123")
		_, _, h = do(t, req)
		assert.Equal(t, "trace-123", h.Get("X-Request-ID"), "request id echoed")
	})

	t.Run("GraphQL", func(t *testing.T) {
		status, body := s.graphql(t, `{ job(id: "test-1") { id title companyLogo postedAt workArrangement skills securityClearances salary { min max currency period } location { full } category { role specialization } } }`, nil)
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, map[string]any{"job": map[string]any{
			"id": "test-1", "title": "Senior Backend Engineer", "companyLogo": "https://logos.example.com/acme.png",
			"postedAt": "2026-10-30T10:00:00Z", "workArrangement": "ONSITE", "skills": []any{"Go", "Kubernetes", "PostgreSQL", "Docker"},
			"securityClearances": nil, "salary": map[string]any{"min": float64(150000), "max": float64(200000), "currency": "USD", "period": "annual"},
			"location": map[string]any{"full": "San Francisco, California, United States"},
			"category": map[string]any{"role": "Software Engineer", "specialization": "Backend"},
		}}, body["data"])

		_, body = s.graphql(t, `{ job(id: "test-999") { id } }`, nil)
		assert.Equal(t, map[string]any{"job": nil}, body["data"])
		assert.Nil(t, body["errors"], "unknown id is null without error")

		_, body = s.graphql(t, `{ companies(minJobs: 2) { nodes { name logoUrl jobCount } pageInfo { total hasMore } } }`, nil)
		assert.Equal(t, map[string]any{"companies": map[string]any{
			"nodes": []any{
				map[string]any{"name": "Acme Cloud", "logoUrl": "https://logos.example.com/acme.png", "jobCount": float64(3)},
				map[string]any{"name": "Globex", "logoUrl": nil, "jobCount": float64(2)},
				map[string]any{"name": "Hooli", "logoUrl": nil, "jobCount": float64(2)},
				map[string]any{"name": "Umbrella Corp", "logoUrl": nil, "jobCount": float64(2)},
			},
			"pageInfo": map[string]any{"total": float64(4), "hasMore": false},
		}}, body["data"])

		// Cursor pagination through GraphQL.
		var walked []string
		after := any(nil)
		for range 5 {
			_, body = s.graphql(t, `query($after: String) { jobs(limit: 5, after: $after) { nodes { id } pageInfo { hasMore endCursor } } }`, map[string]any{"after": after})
			page := body["data"].(map[string]any)["jobs"].(map[string]any)
			walked = append(walked, ids(page["nodes"])...)
			info := page["pageInfo"].(map[string]any)
			if info["hasMore"] == false {
				break
			}
			after = info["endCursor"]
		}
		assert.Equal(t, filterCases[0].want, walked)

		for _, tc := range []struct{ query, code, param string }{
			{`{ jobs(limit: 0) { nodes { id } } }`, "invalid_parameter", "limit"},
			{`{ jobs(filter: { salaryMin: 10, salaryMax: 1 }) { nodes { id } } }`, "invalid_parameter", "salaryMin"},
			{`{ jobs(filter: { workArrangement: [SOMETIMES] }) { nodes { id } } }`, "invalid_parameter", ""},
			{`{ job(id: "BAD") { id } }`, "invalid_parameter", "id"},
			{`{ jobs { nodes { nope } } }`, "invalid_parameter", ""},
			{`{ jobs(`, "invalid_parameter", ""},
		} {
			status, body := s.graphql(t, tc.query, nil)
			assert.Equal(t, http.StatusOK, status, tc.query)
			errs, ok := body["errors"].([]any)
			require.True(t, ok, "%s: %v", tc.query, body)
			ext := errs[0].(map[string]any)["extensions"].(map[string]any)
			assert.Equal(t, tc.code, ext["code"], tc.query)
			if tc.param != "" {
				assert.Equal(t, tc.param, ext["param"], tc.query)
			}
		}

		req, _ := http.NewRequest(http.MethodPost, s.base+"/graphql", strings.NewReader(`{"query":"{ jobs { nodes { id } } }"}`))
		req.Header.Set("Content-Type", "application/json")
		status, body, _ = do(t, req)
		assert.Equal(t, http.StatusUnauthorized, status)
		ext := body["errors"].([]any)[0].(map[string]any)["extensions"].(map[string]any)
		assert.Equal(t, "unauthorized", ext["code"])

		// GET /graphql serves queries too.
		status, body, _ = s.get(t, "/graphql?query="+url.QueryEscape(`{ jobs(filter: {skills: ["golang"], city: "SF"}) { pageInfo { total } } }`))
		assert.Equal(t, http.StatusOK, status)
		assert.Equal(t, float64(2), body["data"].(map[string]any)["jobs"].(map[string]any)["pageInfo"].(map[string]any)["total"])
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
		status, _, _ := do(t, req)
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

const jobsQuery = `query($filter: JobFilter, $limit: Int, $offset: Int) {
  jobs(filter: $filter, limit: $limit, offset: $offset) {
    nodes { id title company location { city state country full } workArrangement employmentType
            salary { min max currency period } category { field role specialization } }
    pageInfo { total limit offset hasMore endCursor }
  }
}`

// listParams are the REST parameters that are lists in JobFilter.
var listParams = map[string]bool{"skills": true, "tools": true, "technical_skills": true, "soft_skills": true, "visas": true,
	"education_levels": true, "education_majors": true, "certifications": true, "security_clearances": true,
	"benefits": true, "work_arrangement": true, "employment_type": true}

// graphQLFilter turns a REST query string into the JobFilter variables
// meaning the same.
func graphQLFilter(t *testing.T, query string) map[string]any {
	t.Helper()
	values, err := url.ParseQuery(query)
	require.NoError(t, err)
	f := map[string]any{}
	for name, vs := range values {
		if name == "min_jobs" || name == "limit" || name == "offset" {
			continue
		}
		v := vs[0]
		key := camel(name)
		switch {
		case strings.HasSuffix(name, "_match"):
			f[key] = strings.ToUpper(v)
		case name == "include_unknown_salary":
			f[key] = v == "true"
		case name == "work_arrangement":
			var enums []string
			for _, s := range strings.Split(v, ",") {
				enums = append(enums, strings.ToUpper(strings.ReplaceAll(s, "-", "")))
			}
			f[key] = enums
		case listParams[name]:
			f[key] = strings.Split(v, ",")
		case name == "salary_min" || name == "salary_max":
			n, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			f[key] = n
		default:
			f[key] = v
		}
	}
	return f
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// snakeCase converts GraphQL results to REST's shape: snake_case keys and
// lower-case work arrangements.
func snakeCase(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = snakeCase(x[i])
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			var b strings.Builder
			for _, r := range k {
				if r >= 'A' && r <= 'Z' {
					b.WriteByte('_')
					r += 'a' - 'A'
				}
				b.WriteRune(r)
			}
			if k == "workArrangement" && val != nil {
				val = strings.ToLower(val.(string))
			}
			out[b.String()] = snakeCase(val)
		}
		return out
	}
	return v
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
