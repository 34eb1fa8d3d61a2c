package main_test

import (
	"database/sql"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// runJobsdEnv runs a subcommand with extra environment variables and
// standard input, and returns its standard output and error output.
func runJobsdEnv(t *testing.T, dsn string, env []string, stdin string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(append(os.Environ(), "DATABASE_URL="+dsn), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "jobsd %s: %s", strings.Join(args, " "), stderr.String())
	return stdout.String(), stderr.String()
}

// stop ends a running service.
func (s *service) stop() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// TestRenormalize imports jobs with the project's vocabularies only, then
// serves with the reference data: serve warns that the data was normalized
// otherwise, and a title only the reference data knows finds nothing.
// After jobsd renormalize, the warning is gone and the title finds its
// job, derived from the values the source gave (kept beside the
// normalized ones).
func TestRenormalize(t *testing.T) {
	refData := os.Getenv("JOBSD_REFDATA")
	if refData == "" {
		t.Skip("JOBSD_REFDATA is not set: the reference data is the second vocabulary this test needs")
	}
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	postings := `{"id":"rn-1","title":"Roof Bolter II","company":"Gale Power","location":{"full":"Kalamazoo, MI"},"skills":["golang"]}
{"id":"rn-2","title":"Senior Backend Engineer","company":"Gale Power","skills":["k8s"]}
`
	out, _ := runJobsdEnv(t, dsn, []string{"JOBSD_REFDATA="}, postings, "import", "-")
	require.Contains(t, out, "2 jobs written")

	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	var given string
	require.NoError(t, db.QueryRow("SELECT given::text FROM jobs WHERE id = 'rn-1'").Scan(&given))
	assert.Contains(t, given, `"Kalamazoo, MI"`, "the location as given is kept beside the parsed one")
	assert.Contains(t, given, `"golang"`, "the skills as given are kept")

	serveWith := func() *service {
		s := startServiceOn(t, dsn, "JOBSD_REFDATA="+refData)
		s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "renormalize", "--replace"))
		return s
	}
	titleQuery := "/api/v1/jobs?title=" + url.QueryEscape("roof bolter")
	s := serveWith()
	assert.Contains(t, s.logs.String(), "normalized with other vocabularies", "serve warns")
	status, body, _ := s.get(t, titleQuery)
	require.Equal(t, http.StatusOK, status, "%v", body)
	title := body["meta"].(map[string]any)["normalized"].(map[string]any)["title"].(map[string]any)
	require.Contains(t, title, "category_role", "the reference data knows the title: %v", title)
	assert.Empty(t, ids(body["data"]), "the stored job was normalized without that knowledge")
	s.stop()

	out, _ = runJobsdEnv(t, dsn, []string{"JOBSD_REFDATA=" + refData}, "", "renormalize", "--if-due")
	assert.Contains(t, out, "2 jobs read", "due: the data was normalized with other vocabularies")
	assert.NotContains(t, out, " 0 changed")
	out, _ = runJobsdEnv(t, dsn, []string{"JOBSD_REFDATA=" + refData}, "", "renormalize", "--if-due")
	assert.Contains(t, out, "renormalize: not due", "once renormalized, --if-due does nothing")
	out, _ = runJobsdEnv(t, dsn, []string{"JOBSD_REFDATA=" + refData}, "", "renormalize")
	assert.Contains(t, out, "2 jobs read, 0 changed", "a second run finds nothing to change")

	s = serveWith()
	assert.NotContains(t, s.logs.String(), "vocabularies", "no warning once the data is renormalized")
	status, body, _ = s.get(t, titleQuery)
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, []string{"rn-1"}, ids(body["data"]))
	status, body, _ = s.get(t, "/api/v1/jobs?skills=go&city=kalamazoo")
	require.Equal(t, http.StatusOK, status, "%v", body)
	assert.Equal(t, []string{"rn-1"}, ids(body["data"]))
	require.NoError(t, db.QueryRow("SELECT given::text FROM jobs WHERE id = 'rn-1'").Scan(&given))
	assert.Contains(t, given, `"Kalamazoo, MI"`, "renormalizing keeps the given values")
}
