package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchitecturePackageOrder: docs/architecture.md's package table names
// every package of the module, in an order where each imports only
// packages below it, as the page says.
func TestArchitecturePackageOrder(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	require.NoError(t, err)
	rank := map[string]int{}
	row := regexp.MustCompile("(?m)^\\| (`[^|]+`) \\|")
	for i, m := range row.FindAllStringSubmatch(string(doc), -1) {
		for _, name := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[1], -1) {
			rank[name[1]] = i
		}
	}
	require.NotEmpty(t, rank)

	out, err := exec.Command("go", "list", "-json", "github.com/jobsd-dev/jobsd/...").Output()
	require.NoError(t, err)
	const module = "github.com/jobsd-dev/jobsd/"
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		require.NoError(t, dec.Decode(&p))
		name := strings.TrimPrefix(p.ImportPath, module)
		if strings.Contains(name, "/") && !slices.Contains([]string{"cmd/jobsd", "examples/web"}, name) &&
			!strings.HasPrefix(name, "internal/") {
			continue // a package's own subpackage (graph/scalar, graph/fastgen, search/searchtest, …)
		}
		r, ok := rank[name]
		if !assert.True(t, ok, "docs/architecture.md's table lacks %s", name) {
			continue
		}
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if d, listed := rank[dep]; listed {
				assert.Greater(t, d, r, "%s imports %s, which the table puts above it", name, dep)
			}
		}
	}
}
