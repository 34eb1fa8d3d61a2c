package main_test

import (
	"bytes"
	"context"
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
