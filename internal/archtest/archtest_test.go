package archtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	module  = "github.com/jobsd-dev/jobsd"
	docPath = "../../docs/architecture.md"
)

// TestImportsFollowTheArchitecture reads the import graph of the module's
// code (tests aside) and fails on every arrow docs/architecture.md does
// not allow: a package importing one of its own row or above, a package
// the document does not name, a library imported outside its packages or
// not named at all.
func TestImportsFollowTheArchitecture(t *testing.T) {
	rows, libraries := readArchitecture(t)
	rowOf := map[string]int{}
	for i, row := range rows {
		for _, p := range row {
			rowOf[p] = i
		}
	}
	imports := moduleImports(t)
	for pkg := range imports {
		if _, ok := rowOf[pkg]; !ok {
			t.Errorf("package %s is not in the package table of docs/architecture.md", pkg)
		}
	}
	for pkg, deps := range imports {
		from, ok := rowOf[pkg]
		if !ok {
			continue
		}
		for _, dep := range deps {
			switch {
			case dep == module || strings.HasPrefix(dep, module+"/"):
				rel := strings.TrimPrefix(strings.TrimPrefix(dep, module), "/")
				if to, ok := rowOf[rel]; ok && to <= from {
					t.Errorf("%s imports %s, which the package table puts in its own row or above it", pkg, rel)
				}
			case !strings.Contains(strings.SplitN(dep, "/", 2)[0], "."):
				// The standard library.
			default:
				users, named := libraryOf(libraries, dep)
				if !named {
					t.Errorf("%s imports %s, a library the libraries' table of docs/architecture.md does not name", pkg, dep)
				} else if !slices.Contains(users, pkg) {
					t.Errorf("%s imports %s, which the libraries' table allows only to %s", pkg, dep, strings.Join(users, ", "))
				}
			}
		}
	}
}

// TestArchitectureTablesAreRead guards the test above against reading
// nothing: the tables have their rows, and a known arrow is refused.
func TestArchitectureTablesAreRead(t *testing.T) {
	rows, libraries := readArchitecture(t)
	require.GreaterOrEqual(t, len(rows), 15)
	flat := slices.Concat(rows...)
	for _, p := range []string{"cmd/jobsd", "search", "domain", "graph/scalar", "internal/archtest"} {
		assert.Contains(t, flat, p)
	}
	indexOf := func(p string) int {
		return slices.IndexFunc(rows, func(r []string) bool { return slices.Contains(r, p) })
	}
	assert.Less(t, indexOf("search"), indexOf("domain"), "search is above domain")
	users, ok := libraryOf(libraries, "github.com/99designs/gqlgen/graphql/handler")
	require.True(t, ok)
	assert.NotContains(t, users, "domain")
	assert.Contains(t, users, "graph")
}

// readArchitecture reads the two tables of docs/architecture.md's Packages
// section: the package rows, top first, and each library's packages.
func readArchitecture(t *testing.T) ([][]string, map[string][]string) {
	t.Helper()
	doc, err := os.ReadFile(docPath)
	require.NoError(t, err)
	section, _, _ := strings.Cut(string(doc[bytes.Index(doc, []byte("## Packages")):]), "\n## ")
	var rows [][]string
	libraries := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(section))
	for sc.Scan() {
		cells := strings.Split(sc.Text(), " | ")
		if len(cells) < 2 || !strings.HasPrefix(cells[0], "| `") {
			continue
		}
		names := codeSpans(cells[0])
		if strings.Contains(names[0], ".") { // a library: a module path
			for _, lib := range names {
				libraries[lib] = codeSpans(cells[1])
			}
			continue
		}
		rows = append(rows, names)
	}
	require.NoError(t, sc.Err())
	return rows, libraries
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// codeSpans returns the text of each code span of a table cell.
func codeSpans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// libraryOf returns the packages that may import the package path, by the
// library (a module path) it belongs to.
func libraryOf(libraries map[string][]string, path string) ([]string, bool) {
	for lib, users := range libraries {
		if path == lib || strings.HasPrefix(path, lib+"/") {
			return users, true
		}
	}
	return nil, false
}

// moduleImports returns each package of the module (relative to it) and
// what its code imports, tests aside.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err, "go list")
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		rel := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		imports[rel] = fields[1:]
	}
	require.Contains(t, imports, "domain")
	return imports
}

// TestReadmeNamesEveryPackage: the README's Layout section names every
// package of the module (as `path/`).
func TestReadmeNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	at := bytes.Index(readme, []byte("\n## Layout"))
	require.GreaterOrEqual(t, at, 0, "the README has a Layout section")
	section, _, _ := strings.Cut(string(readme[at+1:]), "\n## ")
	named := codeSpans(section)
	for pkg := range moduleImports(t) {
		assert.Contains(t, named, pkg+"/", "the README's Layout does not name %s/", pkg)
	}
}
