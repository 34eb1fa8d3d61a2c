package main_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// importWithin runs `jobsd import ARGS…` reading input on standard input,
// and kills it after d: a sanity deadline, far above the milliseconds the
// import takes, for inputs whose normalization was quadratic.
func importWithin(t *testing.T, dsn string, d time.Duration, input string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"import"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dsn)
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "jobsd import did not finish in %v", d)
	return stdout.String(), stderr.String(), err
}

// TestImportBounds: a record over a field's bound is reported with its
// line number and the bound, and nothing is written; with --skip-invalid
// the others are.
func TestImportBounds(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	before := fingerprint(t, dsn)
	input := `{"id":"bounds-1","title":"Nurse","company":"Bounded Health","location":{"full":"Austin, TX"}}` + "\n" +
		`{"id":"bounds-2","title":"Nurse","company":"Bounded Health","location":{"full":"` + strings.Repeat("a/", 1<<19) + `"}}` + "\n" +
		`{"id":"bounds-3","title":"` + strings.Repeat("x", 501) + `","company":"Bounded Health"}` + "\n" +
		`{"id":"bounds-4","title":"Nurse","company":"Bounded Health","skills":["` + strings.Repeat(`go","`, 200) + `go"]}` + "\n"

	_, errOut, err := importWithin(t, dsn, time.Minute, input, "-")
	require.Error(t, err, "records over their bounds fail the import")
	assert.Contains(t, errOut, "invalid: line 2: location.full is longer than 1000 characters (1048576)")
	assert.Contains(t, errOut, "invalid: line 3: title is longer than 500 characters (501)")
	assert.Contains(t, errOut, "invalid: line 4: skills has 201 items, more than 200")
	assert.NotContains(t, errOut, "line 1:")
	assert.Contains(t, errOut, "3 of 4 lines; nothing was written")
	assert.Equal(t, before, fingerprint(t, dsn), "nothing was written")

	out, errOut, err := importWithin(t, dsn, time.Minute, input, "--skip-invalid", "-")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "1 jobs written from 4 lines, 3 invalid skipped")
}

// TestImportAndRenormalizeSanitize: an import stores description_raw
// sanitized and drops a url or company_logo that is not http(s), reporting
// it; jobsd renormalize cleans rows stored before, company logos too.
func TestImportAndRenormalizeSanitize(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	input := `{"id":"safe-1","title":"Nurse","company":"Safe Health","url":"javascript:alert(1)","company_logo":"data:image/png;base64,AAAA",` +
		`"description_raw":"<p onclick=\"steal()\">Care</p><script>steal()</script>"}` + "\n" +
		`{"id":"safe-2","title":"Nurse","company":"Other Health","url":"https://other.example/jobs/2","company_logo":"https://other.example/logo.png"}` + "\n"
	out, errOut, err := importWithin(t, dsn, time.Minute, input, "-")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "2 jobs written from 2 lines, 0 invalid skipped")
	assert.Contains(t, out, "1 jobs written without a url or company_logo that is not http or https")
	assert.Contains(t, errOut, "dropped: line 1: company_logo and url dropped to null: not an http or https URL")

	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	type stored struct{ raw, url, logo, companyLogo sql.NullString }
	read := func(id string) stored {
		var s stored
		require.NoError(t, db.QueryRow(`SELECT j.description_raw, j.url, j.company_logo, c.logo_url
			FROM jobs j JOIN companies c ON c.id = j.company_id WHERE j.id = $1`, id).Scan(&s.raw, &s.url, &s.logo, &s.companyLogo))
		return s
	}
	got := read("safe-1")
	assert.Equal(t, "<p>Care</p>", got.raw.String)
	assert.False(t, got.url.Valid, "url dropped")
	assert.False(t, got.logo.Valid, "company_logo dropped")
	assert.False(t, got.companyLogo.Valid, "the company has no logo")

	// Rows stored before sanitization: renormalize cleans them.
	_, err = db.Exec(`UPDATE jobs SET description_raw = '<p>Old</p><img src=x onerror=alert(1)>', url = 'javascript:alert(1)',
		company_logo = 'vbscript:x' WHERE id = 'safe-1'`)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE companies SET logo_url = 'javascript:alert(2)' WHERE name = 'Safe Health'`)
	require.NoError(t, err)
	out, errOut, err = runJobsd(dsn, nil, "renormalize")
	require.NoError(t, err, errOut)
	assert.Contains(t, out, "1 company logos that are not http or https dropped")
	got = read("safe-1")
	assert.Equal(t, `<p>Old</p><img src="x">`, got.raw.String)
	assert.False(t, got.url.Valid, "url dropped")
	assert.False(t, got.logo.Valid, "company_logo dropped")
	assert.False(t, got.companyLogo.Valid, "the company's logo dropped")
	safe := read("safe-2")
	assert.Equal(t, "https://other.example/jobs/2", safe.url.String)
	assert.Equal(t, "https://other.example/logo.png", safe.companyLogo.String, "a safe logo stays")
}
