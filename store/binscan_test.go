package store_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

// TestScanBinaryAsPgx decodes values of every type and shape a job row
// has, NULLs and empty arrays included, with scanBinary and with pgx's
// own Scan into the same targets, and wants the same Go values.
func TestScanBinaryAsPgx(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.NewURL(t))
	require.NoError(t, err)
	defer conn.Close(ctx)

	const query = `SELECT
	  'plain'::text, ''::text, 'Zürich — 東京 "quoted"'::text,
	  'x'::text, NULL::text, 'v'::varchar,
	  42::int8, -9007199254740993::int8,
	  1.5::float8, NULL::float8, 'NaN'::float8, -0.0::float8,
	  '2026-11-22 10:30:00.123456+00'::timestamptz, NULL::timestamptz, '1999-12-31 23:59:59.999999+00'::timestamptz,
	  '{}'::text[], NULL::text[], '{a,"b c","",NULL-ish,"Zürich"}'::text[], ARRAY['x']::varchar[]`
	newTargets := func() []any {
		var (
			s1, s2, s3     string
			p1, p2, p3     *string
			i1, i2         int64
			f1, f2, f3, f4 *float64
			t1, t2, t3     *time.Time
			a1, a2, a3, a4 []string
		)
		return []any{&s1, &s2, &s3, &p1, &p2, &p3, &i1, &i2, &f1, &f2, &f3, &f4, &t1, &t2, &t3, &a1, &a2, &a3, &a4}
	}

	want := newTargets()
	require.NoError(t, conn.QueryRow(ctx, query).Scan(want...))

	got := newTargets()
	rr := conn.PgConn().ExecParams(ctx, query, nil, nil, nil, store.BinaryResults)
	require.True(t, rr.NextRow())
	require.NoError(t, store.ScanBinary(rr.FieldDescriptions(), rr.Values(), got))
	_, err = rr.Close()
	require.NoError(t, err)

	for i := range want {
		if w, ok := want[i].(**float64); ok && *w != nil {
			// By their bits: NaN is not equal to itself, and -0 equals 0.
			g := *got[i].(**float64)
			require.NotNil(t, g, "column %d", i+1)
			assert.Equal(t, math.Float64bits(**w), math.Float64bits(*g), "column %d", i+1)
			continue
		}
		assert.Equal(t, want[i], got[i], "column %d", i+1)
	}
	// Empty arrays are empty, not nil, and NULL arrays nil, as pgx has them.
	assert.NotNil(t, *got[15].(*[]string))
	assert.Nil(t, *got[16].(*[]string))
}

// TestScanBinaryRefuses checks the values scanBinary will not guess at.
func TestScanBinaryRefuses(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.NewURL(t))
	require.NoError(t, err)
	defer conn.Close(ctx)

	var (
		s  string
		i  int64
		ts *time.Time
		a  []string
		f  *float64
	)
	for _, tc := range []struct {
		name, query string
		target      any
		wantErr     string
	}{
		{"NULL into a string", "SELECT NULL::text", &s, "NULL where a value is required"},
		{"NULL into an int", "SELECT NULL::int8", &i, "NULL where a value is required"},
		{"int4 into int64", "SELECT 1::int4", &i, "column type oid 23"},
		{"text into a float", "SELECT '1'::text", &f, "column type oid 25"},
		{"infinity", "SELECT 'infinity'::timestamptz", &ts, "an infinite timestamp"},
		{"NULL element", "SELECT '{a,NULL}'::text[]", &a, "a NULL array element"},
		{"two dimensions", "SELECT '{{a},{b}}'::text[]", &a, "an array of 2 dimensions"},
		{"unknown target", "SELECT 'a'::text", new(int), "cannot scan into *int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rr := conn.PgConn().ExecParams(ctx, tc.query, nil, nil, nil, store.BinaryResults)
			require.True(t, rr.NextRow())
			err := store.ScanBinary(rr.FieldDescriptions(), rr.Values(), []any{tc.target})
			_, closeErr := rr.Close()
			require.NoError(t, closeErr)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
}

// TestJobByIDPreparesAgain checks that a whole job is still read after
// its prepared statement went stale on the connection: after a migration
// changed a column's type, and after the server forgot the statement.
func TestJobByIDPreparesAgain(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, pgtest.NewURL(t), store.Options{MaxOpenConns: 1}) // one connection: the statement's
	require.NoError(t, err)
	defer db.Close()
	_, err = migrations.Up(ctx, db)
	require.NoError(t, err)
	norm, err := normalize.New()
	require.NoError(t, err)
	st := store.New(db)
	fixture, err := os.ReadFile(pgtest.Fixture(t, "jobs.ndjson"))
	require.NoError(t, err)
	_, err = importer.NDJSON(ctx, bytes.NewReader(fixture), norm, st, importer.Options{})
	require.NoError(t, err)

	before, err := st.JobByID(ctx, "test-1")
	require.NoError(t, err)
	for _, stale := range []string{
		"ALTER TABLE jobs ALTER COLUMN url TYPE varchar", // 0A000: cached plan must not change result type
		"DEALLOCATE ALL", // 26000: no such prepared statement
	} {
		_, err = db.ExecContext(ctx, stale)
		require.NoError(t, err)
		after, err := st.JobByID(ctx, "test-1")
		require.NoError(t, err, "after %s", stale)
		assert.Equal(t, before, after, "after %s", stale)
	}
}
