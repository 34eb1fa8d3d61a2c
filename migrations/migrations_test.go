package migrations_test

import (
	"context"
	"database/sql"
	"sort"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/store"
)

// allNames returns the names of the embedded migrations, sorted.
func allNames(t *testing.T) []string {
	t.Helper()
	ms, err := migrations.New()
	require.NoError(t, err)
	var names []string
	for _, m := range ms.Sorted() {
		names = append(names, m.Name)
	}
	sort.Strings(names)
	return names
}

// open connects to dsn with a pool of conns, closed when the test ends.
func open(t *testing.T, dsn string, conns int) *bun.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn, store.Options{MaxOpenConns: conns})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// marked returns the names bun_migrations records as applied, sorted.
func marked(t *testing.T, db *bun.DB) []string {
	t.Helper()
	var names []string
	require.NoError(t, db.NewRaw("SELECT name FROM bun_migrations ORDER BY name").Scan(context.Background(), &names))
	return names
}

// TestConcurrentUp: migrations started at once on a fresh database, each
// with connections of its own (pools of one included), all succeed, and
// together apply every migration exactly once.
func TestConcurrentUp(t *testing.T) {
	for _, tt := range []struct {
		name      string
		instances int
		conns     int
	}{
		{"pools of four", 5, 4},
		{"pools of one", 3, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dsn := pgtest.NewURL(t)
			dbs := make([]*bun.DB, tt.instances)
			for i := range dbs {
				dbs[i] = open(t, dsn, tt.conns)
			}
			applied := make([][]string, tt.instances)
			errs := make([]error, tt.instances)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range dbs {
				wg.Go(func() {
					<-start
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					defer cancel()
					applied[i], errs[i] = migrations.Up(ctx, dbs[i])
				})
			}
			close(start)
			wg.Wait()
			var all []string
			for i, err := range errs {
				require.NoError(t, err, "instance %d", i)
				all = append(all, applied[i]...)
			}
			sort.Strings(all)
			assert.Equal(t, allNames(t), all, "every migration applied once, by one instance")
			assert.Equal(t, allNames(t), marked(t, dbs[0]))
		})
	}
}

// TestUpWaitsForTheLock: Up waits while another session holds the
// migration lock, and goes on once that session ends without unlocking,
// as when its process is killed.
func TestUpWaitsForTheLock(t *testing.T) {
	dsn := pgtest.NewURL(t)
	other, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer other.Close()
	ctx := context.Background()
	holder, err := other.Conn(ctx)
	require.NoError(t, err)
	_, err = holder.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrations.LockKey)
	require.NoError(t, err)

	db := open(t, dsn, 2)
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := migrations.Up(ctx, db)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("Up returned while the lock was held: %v", err)
	case <-time.After(time.Second):
	}
	// The holder's session ends without unlocking: its connection closes.
	require.NoError(t, holder.Raw(func(dc any) error { return dc.(interface{ Close() error }).Close() }))
	_ = holder.Close()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Up still waits after the lock holder's session ended")
	}
	assert.Equal(t, allNames(t), marked(t, db))
}

// TestUpIgnoresOldLockRow: a row of bun_migration_locks, as a process
// locking with bun's row lock leaves when stopped mid-migration, does not
// stop Up, which removes it.
func TestUpIgnoresOldLockRow(t *testing.T) {
	db := open(t, pgtest.NewURL(t), 2)
	ctx := context.Background()
	_, err := migrations.Up(ctx, db)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "INSERT INTO bun_migration_locks (table_name) VALUES ('bun_migrations')")
	require.NoError(t, err)
	for i := range 2 {
		applied, err := migrations.Up(ctx, db)
		require.NoError(t, err, "run %d", i)
		assert.Empty(t, applied)
	}
	var rows int
	require.NoError(t, db.NewRaw("SELECT count(*) FROM bun_migration_locks").Scan(ctx, &rows))
	assert.Zero(t, rows)
	_, err = migrations.Status(ctx, db)
	require.NoError(t, err)
}

// TestInterruptedMigrationIsNotMarked: a migration cut short (here it
// waits on another transaction until Up's context ends) is neither
// applied nor marked, and the next Up applies it.
func TestInterruptedMigrationIsNotMarked(t *testing.T) {
	dsn := pgtest.NewURL(t)
	db := open(t, dsn, 2)
	blocker, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer blocker.Close()
	tx, err := blocker.Begin()
	require.NoError(t, err)
	// The first migration creates companies: it waits for this
	// transaction, which creates it too.
	_, err = tx.Exec("CREATE TABLE companies (id int)")
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = migrations.Up(ctx, db)
	require.Error(t, err, "the first migration cannot finish")
	require.NoError(t, tx.Rollback())

	assert.Empty(t, marked(t, db), "a migration that did not commit is not marked applied")
	applied, err := migrations.Up(context.Background(), db)
	require.NoError(t, err)
	assert.Equal(t, allNames(t), applied)
	assert.Equal(t, allNames(t), marked(t, db))
}
