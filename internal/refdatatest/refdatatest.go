// Package refdatatest finds, for tests, the reference data (GeoNames,
// O*NET, the skills lists): the directory of $JOBSD_REFDATA, else the copy
// beside the repository (../shared/data next to the module's root, where
// `make test` looks too). A test that needs a part of it skips without it
// (Need) or runs without it (Find); CI fails instead, before any test runs,
// when the reference data is missing (scripts/test.sh with CI set).
package refdatatest

import (
	"os"
	"path/filepath"
	"testing"
)

// The parts of the reference data the tests ask for, as paths under its
// directory.
const (
	Cities      = "locations/geonames_cities15000.txt.gz"
	Skills      = "skills/stackoverflow_tags.csv.gz"
	Occupations = "occupations/onet_occupation_data.tsv"
)

// Dir returns where the reference data is looked for: $JOBSD_REFDATA, else
// ../shared/data beside the module's root (found from the working
// directory, a package's directory under go test). It does not check that
// anything is there.
func Dir() string {
	if dir := os.Getenv("JOBSD_REFDATA"); dir != "" {
		return dir
	}
	dir, err := os.Getwd()
	for err == nil {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared", "data")
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return filepath.Join("..", "shared", "data") // no module root above
}

// Find returns Dir when it holds part (a file or directory under it, such
// as Cities), else "".
func Find(part string) string {
	dir := Dir()
	if _, err := os.Stat(filepath.Join(dir, part)); err != nil {
		return ""
	}
	return dir
}

// Need returns Dir when it holds part, and skips t when it does not.
func Need(t testing.TB, part string) string {
	t.Helper()
	dir := Find(part)
	if dir == "" {
		t.Skipf("no reference data: %s is not under %s (set JOBSD_REFDATA, or put a copy at ../shared/data beside the repository)", part, Dir())
	}
	return dir
}
