package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeRefusesBadEnvironment: a variable serve cannot read is a usage
// error that names it, before serve touches the database, never a
// silent default; a flag given on the command line wins over its
// variable, bad or not.
func TestServeRefusesBadEnvironment(t *testing.T) {
	tests := []struct {
		env   string
		flags []string
		code  int
		want  string
	}{
		{"JOBSD_DB_MAX_CONNS=many", nil, 2, "JOBSD_DB_MAX_CONNS=many: invalid value for --db-max-conns"},
		{"JOBSD_DB_MAX_CONNS=0", nil, 2, "--db-max-conns must be ≥ 1"},
		{"JOBSD_RATE=fast", nil, 2, "JOBSD_RATE=fast: invalid value for --rate"},
		{"JOBSD_RATE=NaN", nil, 2, "--rate must be > 0"},
		{"JOBSD_BURST=1.5", nil, 2, "JOBSD_BURST=1.5: invalid value for --burst"},
		{"JOBSD_REQUEST_TIMEOUT=10", nil, 2, "JOBSD_REQUEST_TIMEOUT=10: invalid value for --request-timeout"},
		{"JOBSD_INDEX=yes", nil, 2, "JOBSD_INDEX=yes: invalid value for --index"},
		{"JOBSD_INTROSPECTION=maybe", nil, 2, "JOBSD_INTROSPECTION=maybe: invalid value for --introspection"},
		{"JOBSD_TEXT_INDEX=off", nil, 2, "JOBSD_TEXT_INDEX=off: not true or false"},
		// The flag wins: serve goes on to the database, which cannot answer.
		{"JOBSD_INDEX=yes", []string{"--index=false"}, 1, "database"},
		{"JOBSD_TEXT_INDEX=off", []string{"--no-text-index"}, 1, "database"},
		{"JOBSD_RATE=fast", []string{"-h"}, 2, "Usage of jobsd serve"},
		// The GraphQL limits: 0 or less is an error, not the default.
		{"", []string{"--graphql-max-aliases", "0"}, 2, "--graphql-max-aliases must be ≥ 1"},
		{"", []string{"--graphql-complexity-limit", "-1"}, 2, "--graphql-complexity-limit must be ≥ 1"},
		{"", []string{"--graphql-expensive-total", "-1"}, 2, "--graphql-expensive-total must be ≥ 0"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(append([]string{tt.env}, tt.flags...), " "), func(t *testing.T) {
			cmd := exec.Command(binary, append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.flags...)...)
			// A database that cannot answer: a usage error must come first.
			cmd.Env = append(os.Environ(), "DATABASE_URL=postgres://nobody@127.0.0.1:1/none?connect_timeout=1", tt.env)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "serve must fail: %v", err)
			assert.Equal(t, tt.code, exit.ExitCode(), stderr.String())
			assert.Contains(t, stderr.String(), tt.want)
			if tt.code != 2 {
				assert.NotContains(t, stderr.String(), tt.env, "the flag must win over the variable")
			}
		})
	}
}

// TestHelpMasksDatabasePassword: the help of every command that uses the
// database prints DATABASE_URL as --database-url's default with its
// password masked; the value used is still the whole URL.
func TestHelpMasksDatabasePassword(t *testing.T) {
	for _, args := range [][]string{
		{"serve"}, {"migrate"}, {"import"}, {"seed"}, {"renormalize"}, {"textindex"}, {"apikey", "create"}, {"apikey", "list"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := exec.Command(binary, append(args, "-h")...)
			cmd.Env = append(os.Environ(), "DATABASE_URL=postgres://jobsd:s3cret-pw@db.example:5432/jobs?sslmode=require")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "-h exits with a usage code: %v", err)
			assert.Equal(t, 2, exit.ExitCode())
			assert.Contains(t, stderr.String(), "-database-url URL")
			assert.Contains(t, stderr.String(), "postgres://jobsd:xxxxx@db.example:5432/jobs?sslmode=require")
			assert.NotContains(t, stderr.String(), "s3cret-pw")
		})
	}

	// The URL given reaches the connection, and its error masks the
	// password too.
	cmd := exec.Command(binary, "migrate", "--database-url", "postgres://nobody:s3cret-pw@127.0.0.1:1/none?connect_timeout=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.Error(t, cmd.Run())
	assert.Contains(t, stderr.String(), "nobody:xxxxx@127.0.0.1:1")
	assert.NotContains(t, stderr.String(), "s3cret-pw")
}
