// Package pgtest gives tests a fresh PostgreSQL database with jobsd's
// migrations applied, dropped when the test ends. The server comes from
// JOBSD_TEST_DATABASE_URL (a URL of a database on it, used to create and
// drop others), by default the local server; `make test` finds or starts
// one. A test that cannot reach the server fails: it never skips.
package pgtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

// DefaultAdminURL is used when JOBSD_TEST_DATABASE_URL is not set.
const DefaultAdminURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// AdminURL returns the URL tests create their databases through.
func AdminURL() string {
	if u := os.Getenv("JOBSD_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultAdminURL
}

// NewURL creates an empty database and returns its URL; the database is
// dropped when the test ends.
func NewURL(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	admin, err := store.Open(ctx, AdminURL(), store.Options{MaxOpenConns: 2})
	require.NoError(t, err, "PostgreSQL for tests (JOBSD_TEST_DATABASE_URL or %s); `make test` starts one", DefaultAdminURL)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "jobsd_test_" + hex.EncodeToString(b)
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err, "create test database")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		if err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
		_ = admin.Close()
	})
	u, err := url.Parse(AdminURL())
	require.NoError(t, err)
	u.Path = "/" + name
	return u.String()
}

// NewDB creates a migrated database and returns a connection to it, closed
// and dropped when the test ends.
func NewDB(t testing.TB) *bun.DB {
	t.Helper()
	ctx := context.Background()
	dsn := NewURL(t)
	db, err := store.Open(ctx, dsn, store.Options{MaxOpenConns: 4})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	_, err = migrations.Up(ctx, db)
	require.NoError(t, err, "migrate test database")
	return db
}

// NewLoadedURL creates a migrated database holding the jobs of the
// fixture testdata/jobs.ndjson, imported as jobsd imports them, and returns
// its URL; the database is dropped when the test ends.
func NewLoadedURL(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	dsn := NewURL(t)
	db, err := store.Open(ctx, dsn, store.Options{MaxOpenConns: 2})
	require.NoError(t, err)
	defer db.Close()
	_, err = migrations.Up(ctx, db)
	require.NoError(t, err, "migrate test database")
	norm, err := normalize.New()
	require.NoError(t, err)
	fixture, err := os.ReadFile(Fixture(t, "jobs.ndjson"))
	require.NoError(t, err)
	_, err = importer.NDJSON(ctx, bytes.NewReader(fixture), norm, store.New(db), importer.Options{})
	require.NoError(t, err, "import the fixture")
	return dsn
}

// Fixture returns the path of a file in the repository's testdata folder,
// from a package directory one or two levels below the root.
func Fixture(t testing.TB, name string) string {
	t.Helper()
	for _, dir := range []string{"../testdata", "../../testdata"} {
		p := dir + "/" + name
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("fixture %s not found", name)
	return ""
}
