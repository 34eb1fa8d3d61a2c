package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeRefusesBadEnvironment: a variable serve cannot read is a usage
// error that names it, before serve touches the database, never a
// silent default.
func TestServeRefusesBadEnvironment(t *testing.T) {
	tests := []struct{ env, want string }{
		{"JOBSD_DB_MAX_CONNS=many", "JOBSD_DB_MAX_CONNS=many: invalid value for --db-max-conns"},
		{"JOBSD_DB_MAX_CONNS=0", "--db-max-conns must be ≥ 1"},
		{"JOBSD_RATE=fast", "JOBSD_RATE=fast: invalid value for --rate"},
		{"JOBSD_BURST=1.5", "JOBSD_BURST=1.5: invalid value for --burst"},
		{"JOBSD_REQUEST_TIMEOUT=10", "JOBSD_REQUEST_TIMEOUT=10: invalid value for --request-timeout"},
		{"JOBSD_INDEX=yes", "JOBSD_INDEX=yes: invalid value for --index"},
		{"JOBSD_INTROSPECTION=maybe", "JOBSD_INTROSPECTION=maybe: invalid value for --introspection"},
		{"JOBSD_TEXT_INDEX=off", "JOBSD_TEXT_INDEX=off: not true or false"},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0")
			// A database that cannot answer: the error must come first.
			cmd.Env = append(os.Environ(), "DATABASE_URL=postgres://nobody@127.0.0.1:1/none?connect_timeout=1", tt.env)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "serve must fail: %v", err)
			assert.Equal(t, 2, exit.ExitCode(), stderr.String())
			assert.Contains(t, stderr.String(), tt.want)
		})
	}
}
