package main_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestSchemaLint runs graphql-schema-linter (pinned in
// clients/apollo-test/package.json) over the SDL the real binary serves at
// /graphql/schema.graphqls, with the rules of
// clients/apollo-test/.graphql-schema-linterrc.yml: the Relay rules and the
// naming ones, each waived rule with its reason there.
func TestSchemaLint(t *testing.T) {
	node := nodeClient(t, "graphql-schema-linter")
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	s := startServiceOn(t, dsn)
	res, err := http.Get(s.base + "/graphql/schema.graphqls")
	require.NoError(t, err)
	sdl, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", sdl)
	file := filepath.Join(t.TempDir(), "schema.graphqls")
	require.NoError(t, os.WriteFile(file, sdl, 0o644))

	config, err := filepath.Abs(nodeClients)
	require.NoError(t, err)
	cmd := exec.Command(node, filepath.Join(config, "node_modules", "graphql-schema-linter", "lib", "cli.js"),
		"--config-directory", config, "--format", "text", file)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "graphql-schema-linter finds in the served schema:\n%s", out)
}
