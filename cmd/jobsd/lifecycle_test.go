package main_test

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// posting is an NDJSON record line; extra members are appended as given
// (`"valid_through":"…"`).
func posting(id, title, company string, extra ...string) string {
	return fmt.Sprintf(`{"id":%q,"title":%q,"company":%q`, id, title, company) + members(extra) + "}"
}

// tombstone is an NDJSON tombstone line, with extra members as given.
func tombstone(id string, extra ...string) string {
	return fmt.Sprintf(`{"id":%q,"closed":true`, id) + members(extra) + "}"
}

func members(extra []string) string {
	out := ""
	for _, e := range extra {
		out += "," + e
	}
	return out
}

// importLines runs `jobsd import [args] -` with lines on standard input
// and returns its standard output and error, and its exit code.
func importLines(dsn string, args []string, lines ...string) (string, string, int) {
	out, errOut, err := runJobsd(dsn, strings.NewReader(strings.Join(lines, "\n")+"\n"), append(append([]string{"import"}, args...), "-")...)
	return out, errOut, exitCodeOf(err)
}

func exitCodeOf(err error) int {
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}

// listed returns the ids GET /api/v1/jobs lists, sorted.
func (s *service) listed(t *testing.T) []string {
	t.Helper()
	status, body, _ := s.get(t, "/api/v1/jobs?limit=100")
	require.Equal(t, 200, status, "%v", body)
	got := ids(body["data"])
	sort.Strings(got)
	return got
}

// lifecycleService migrates a new database, imports lines, and serves it
// with a key.
func lifecycleService(t *testing.T, lines ...string) *service {
	t.Helper()
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	if len(lines) > 0 {
		_, errOut, code := importLines(dsn, nil, lines...)
		require.Zero(t, code, errOut)
	}
	s := startServiceOn(t, dsn)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "lifecycle", "--rate", "100000", "--burst", "100000"))
	return s
}

// TestImportLifecycle imports, updates, closes by tombstone, closes by
// snapshot, refuses a mass close, allows it when asked, and reopens, each
// step's report and the served list checked.
func TestImportLifecycle(t *testing.T) {
	s := lifecycleService(t)
	dsn := s.dsn

	out, errOut, code := importLines(dsn, nil,
		posting("greenhouse-1", "Backend Engineer", "Acme"),
		posting("greenhouse-2", "Frontend Engineer", "Acme"),
		posting("greenhouse-3", "Data Engineer", "Acme"),
		posting("greenhouse-4", "Site Reliability Engineer", "Acme"),
		posting("lever-1", "Nurse", "Mercy"))
	require.Zero(t, code, errOut)
	assert.Contains(t, out, "import: 5 jobs written from 5 lines, 0 invalid skipped")
	assert.Contains(t, out, "import: 5 opened, 0 updated, 0 unchanged, 0 closed\n")
	assert.Equal(t, []string{"greenhouse-1", "greenhouse-2", "greenhouse-3", "greenhouse-4", "lever-1"}, s.listed(t))

	t.Run("updates, unchanged and tombstones", func(t *testing.T) {
		out, errOut, code := importLines(dsn, nil,
			posting("greenhouse-1", "Senior Backend Engineer", "Acme"),
			posting("greenhouse-2", "Frontend Engineer", "Acme"),
			tombstone("greenhouse-3"),
			tombstone("greenhouse-99"))
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "import: 2 jobs written from 4 lines, 0 invalid skipped")
		assert.Contains(t, out, "import: 0 opened, 1 updated, 1 unchanged, 1 closed; 1 of 2 tombstones ignored (unknown or already closed)\n")
		assert.Equal(t, []string{"greenhouse-1", "greenhouse-2", "greenhouse-4", "lever-1"}, s.listed(t))
	})

	t.Run("a tombstone after a record of its id closes it, a record after a tombstone opens it", func(t *testing.T) {
		out, errOut, code := importLines(dsn, nil,
			posting("lever-2", "Pharmacist", "Mercy"),
			tombstone("lever-2"),
			tombstone("lever-1"),
			posting("lever-1", "Nurse", "Mercy"))
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "import: 2 opened, 0 updated, 0 unchanged, 2 closed; 0 of 2 tombstones ignored")
		assert.Equal(t, []string{"greenhouse-1", "greenhouse-2", "greenhouse-4", "lever-1"}, s.listed(t))
	})

	t.Run("a snapshot closes the scope's postings it lacks", func(t *testing.T) {
		out, errOut, code := importLines(dsn, []string{"--snapshot", "--source", "greenhouse", "--company", "Acme"},
			posting("greenhouse-1", "Senior Backend Engineer", "Acme"),
			posting("greenhouse-2", "Frontend Engineer", "Acme"))
		require.Zero(t, code, errOut)
		assert.Contains(t, out, `import: 0 opened, 0 updated, 2 unchanged, 1 closed; snapshot of source "greenhouse", company "Acme"`)
		assert.Equal(t, []string{"greenhouse-1", "greenhouse-2", "lever-1"}, s.listed(t), "the other source is outside the scope")
	})

	t.Run("a record outside the snapshot's scope is invalid", func(t *testing.T) {
		_, errOut, code := importLines(dsn, []string{"--snapshot", "--source", "greenhouse", "--company", "Acme"},
			posting("greenhouse-1", "Senior Backend Engineer", "Acme"),
			posting("greenhouse-2", "Frontend Engineer", "Acme"),
			posting("greenhouse-7", "Welder", "Northwind"))
		assert.Equal(t, 1, code)
		assert.Contains(t, errOut, `invalid: line 3: company "Northwind" is outside the snapshot's scope (company "Acme")`)
		assert.Contains(t, errOut, "1 of 3 lines; nothing was written")
	})

	t.Run("the mass-close guard refuses, and --allow-mass-close passes", func(t *testing.T) {
		args := []string{"--snapshot", "--source", "greenhouse", "--company", "Acme"}
		lines := []string{posting("greenhouse-5", "Platform Engineer", "Acme")}
		out, errOut, code := importLines(dsn, args, lines...)
		assert.Equal(t, 1, code, out)
		assert.Contains(t, errOut, `snapshot refused, nothing was written: it would close 2 of the 2 open postings of source "greenhouse", company "Acme", more than half`)
		assert.Contains(t, errOut, "Use --allow-mass-close if the crawl is really complete")
		assert.Equal(t, []string{"greenhouse-1", "greenhouse-2", "lever-1"}, s.listed(t), "nothing written")

		out, errOut, code = importLines(dsn, append(args, "--allow-mass-close"), lines...)
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "import: 1 opened, 0 updated, 0 unchanged, 2 closed; snapshot of")
		assert.Equal(t, []string{"greenhouse-5", "lever-1"}, s.listed(t))
	})

	t.Run("importing a closed posting again reopens it", func(t *testing.T) {
		out, errOut, code := importLines(dsn, nil, posting("greenhouse-3", "Data Engineer", "Acme"))
		require.Zero(t, code, errOut)
		assert.Contains(t, out, "import: 1 opened, 0 updated, 0 unchanged, 0 closed\n")
		assert.Equal(t, []string{"greenhouse-3", "greenhouse-5", "lever-1"}, s.listed(t))
		status, body, _ := s.get(t, "/api/v1/jobs/greenhouse-3")
		assert.Equal(t, 200, status, "%v", body)
	})

	t.Run("invalid tombstones are line errors", func(t *testing.T) {
		_, errOut, code := importLines(dsn, nil,
			tombstone("greenhouse-5", `"title":"x"`),
			`{"closed":true}`,
			tombstone("greenhouse-5", `"closed_at":"2999-01-01T00:00:00Z"`))
		assert.Equal(t, 1, code)
		assert.Contains(t, errOut, `invalid: line 1: a tombstone ("closed": true) has no member but id, closed and closed_at; this one also has title`)
		assert.Contains(t, errOut, "invalid: line 2: id is required")
		assert.Contains(t, errOut, `invalid: line 3: closed_at "2999-01-01T00:00:00Z" is in the future`)
		assert.Equal(t, []string{"greenhouse-3", "greenhouse-5", "lever-1"}, s.listed(t))
	})
}

// TestImportSnapshotUsage: the snapshot flags that do not go together are
// usage errors, before the input is read (the file does not exist).
func TestImportSnapshotUsage(t *testing.T) {
	dsn := "postgres://nobody@127.0.0.1:1/none?sslmode=disable" // never reached
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--snapshot"}, "import: --snapshot needs --source NAME"},
		{[]string{"--snapshot", "--source", " "}, "import: --snapshot needs --source NAME"},
		{[]string{"--source", "greenhouse"}, "import: --source and --allow-mass-close are for a snapshot import; give --snapshot too"},
		{[]string{"--allow-mass-close"}, "give --snapshot too"},
		{[]string{"--source", "greenhouse", "--company", "Acme"}, "give --snapshot too"},
	} {
		_, errOut, err := runJobsd(dsn, nil, append(append([]string{"import"}, tc.args...), "/does/not/exist.ndjson")...)
		assert.Equal(t, 2, exitCodeOf(err), tc.args)
		assert.Contains(t, errOut, tc.want, tc.args)
		assert.NotContains(t, errOut, "no such file", tc.args)
	}
}

// TestExpiryWhileServing: a posting leaves the list within about a second
// of its valid_through while serve runs, with no write by anyone; a record
// whose valid_through has passed is written closed.
func TestExpiryWhileServing(t *testing.T) {
	s := lifecycleService(t, posting("test-1", "Welder", "Northwind"))
	until := time.Now().Add(3 * time.Second).UTC()
	out, errOut, code := importLines(s.dsn, nil,
		posting("test-2", "Electrician", "Northwind", `"valid_through":"`+until.Format(time.RFC3339Nano)+`"`),
		posting("test-3", "Plumber", "Northwind", `"valid_through":"2001-01-01"`),
		posting("test-4", "Carpenter", "Northwind", `"valid_through":"2999-12-31"`))
	require.Zero(t, code, errOut)
	assert.Contains(t, out, "import: 2 opened, 0 updated, 0 unchanged, 0 closed")
	require.Equal(t, []string{"test-1", "test-2", "test-4"}, s.listed(t), "test-3 was written closed")

	// An import under way all along (its input still open) does not hold
	// the expiry back; what it writes shows once it commits.
	input, feedInput := io.Pipe()
	imported := make(chan string, 1)
	go func() {
		out, errOut, _ := runJobsd(s.dsn, input, "import", "-")
		imported <- out + errOut
	}()
	_, err := io.WriteString(feedInput, posting("test-5", "Roofer", "Northwind")+"\n")
	require.NoError(t, err)
	db, err := sql.Open("pgx", s.dsn)
	require.NoError(t, err)
	defer db.Close()
	require.Eventually(t, func() bool {
		var importing bool
		err := db.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ExclusiveLock' AND granted
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`).Scan(&importing)
		return err == nil && importing
	}, 5*time.Second, 20*time.Millisecond, "the import holds the import lock")
	require.True(t, time.Now().Before(until), "the import began after test-2's valid_through: a slow machine")

	var left time.Time
	for deadline := until.Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got := s.listed(t); len(got) == 2 {
			left = time.Now()
			assert.Equal(t, []string{"test-1", "test-4"}, got)
			break
		}
	}
	require.False(t, left.IsZero(), "test-2 is still listed 5s after its valid_through")
	assert.False(t, left.Before(until), "test-2 left before its valid_through")
	assert.Less(t, left.Sub(until), 1500*time.Millisecond, "test-2 left the list %v after its valid_through", left.Sub(until))

	require.NoError(t, feedInput.Close())
	assert.Contains(t, <-imported, "import: 1 opened")
	require.Eventually(t, func() bool { return len(s.listed(t)) == 3 }, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, []string{"test-1", "test-4", "test-5"}, s.listed(t))
}

// TestPurge removes postings closed before an instant, given as a
// duration or a timestamp; bad values are usage errors.
func TestPurge(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	twoDaysAgo := time.Now().Add(-48 * time.Hour).UTC().Format(time.RFC3339)
	_, errOut, code := importLines(dsn, nil,
		posting("test-1", "Welder", "Northwind"),
		posting("test-2", "Electrician", "Northwind"),
		posting("test-3", "Plumber", "Northwind"),
		tombstone("test-1", `"closed_at":"`+twoDaysAgo+`"`),
		tombstone("test-2"))
	require.Zero(t, code, errOut)

	out := jobsd(t, dsn, "purge", "--closed-before", "24h")
	assert.Contains(t, out, "purge: 1 closed postings removed (closed before ")
	out = jobsd(t, dsn, "purge", "--closed-before", "24h")
	assert.Contains(t, out, "purge: 0 closed postings removed")

	// A purged posting is unknown: its tombstone is ignored.
	out, errOut, code = importLines(dsn, nil, tombstone("test-1"))
	require.Zero(t, code, errOut)
	assert.Contains(t, out, "1 of 1 tombstones ignored")

	out = jobsd(t, dsn, "purge", "--closed-before", time.Now().Add(time.Minute).UTC().Format(time.RFC3339))
	assert.Contains(t, out, "purge: 1 closed postings removed")

	s := startServiceOn(t, dsn)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "purge"))
	assert.Equal(t, []string{"test-3"}, s.listed(t))
	for _, id := range []string{"test-1", "test-2"} {
		status, _, _ := s.get(t, "/api/v1/jobs/"+id)
		assert.Equal(t, 404, status, "%s is purged", id)
	}

	for _, args := range [][]string{
		{},
		{"--closed-before", "yesterday"},
		{"--closed-before", "-5h"},
		{"--closed-before", "2026-13-01T00:00:00Z"},
		{"--closed-before", "24h", "extra"},
	} {
		_, errOut, err := runJobsd(dsn, nil, append([]string{"purge"}, args...)...)
		assert.Equal(t, 2, exitCodeOf(err), "%v: %s", args, errOut)
		assert.Contains(t, errOut, "purge", args)
	}
}
