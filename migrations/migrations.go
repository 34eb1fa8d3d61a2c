// Package migrations holds jobsd's SQL schema migrations, embedded in the
// binary and applied with bun's migrate package.
//
// Several instances may start at once (a rolling deploy): they apply the
// migrations one at a time under a PostgreSQL session-level advisory lock
// (LockKey), each waiting for the one before, and those that come after
// find nothing left to do. The lock belongs to a connection, so a process
// stopped mid-migration releases it when its connection closes; and a
// migration is marked applied in its own transaction, so one cut short is
// neither applied nor marked. The migrations run on connections of their
// own: a server-side pooler must not share sessions (PgBouncer's
// transaction pooling would lose the lock).
package migrations

import (
	"context"
	"database/sql/driver"
	"embed"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

//go:embed *.sql
var files embed.FS

// LockKey is the key of the advisory lock (pg_advisory_lock) held while
// migrations are applied or listed. Advisory locks are per database, so
// databases on one server do not wait for each other.
const LockKey int64 = 0x6a6f6273645f6d67 // "jobsd_mg"

// New returns the migrations discovered in the embedded SQL files.
func New() (*migrate.Migrations, error) {
	m := migrate.NewMigrations()
	if err := m.Discover(files); err != nil {
		return nil, fmt.Errorf("discover migrations: %w", err)
	}
	return m, nil
}

// Up applies every pending migration under the migration lock, waiting for
// it as long as ctx allows, and returns the names of those it applied.
func Up(ctx context.Context, db *bun.DB) ([]string, error) {
	var names []string
	err := locked(ctx, db, func(m *migrate.Migrator) error {
		group, err := m.Migrate(ctx)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		for _, mig := range group.Migrations {
			names = append(names, mig.Name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// Status lists every migration with whether it is applied, once no other
// process is migrating.
func Status(ctx context.Context, db *bun.DB) (migrate.MigrationSlice, error) {
	var ms migrate.MigrationSlice
	err := locked(ctx, db, func(m *migrate.Migrator) error {
		var err error
		ms, err = m.MigrationsWithStatus(ctx)
		if err != nil {
			return fmt.Errorf("migration status: %w", err)
		}
		return nil
	})
	return ms, err
}

// locked calls f with a migrator over the embedded migrations while it
// holds the advisory lock on a connection of db's kept for that purpose;
// bun's bookkeeping tables are created under the lock too, since creating
// them concurrently fails.
func locked(ctx context.Context, db *bun.DB, f func(*migrate.Migrator) error) (err error) {
	// The lock's connection is held throughout and the migrations need one
	// more: a pool of one gets room for both meanwhile.
	if n := db.Stats().MaxOpenConnections; n == 1 {
		db.SetMaxOpenConns(2)
		defer db.SetMaxOpenConns(n)
	}
	conn, err := db.DB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migration lock: connect: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", LockKey); err != nil {
		return fmt.Errorf("migration lock: wait for it: %w", err)
	}
	defer func() {
		// Unlocked even when ctx is done. A connection that cannot unlock
		// is discarded rather than returned to the pool holding the lock:
		// closing it ends the session, and the lock with it.
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, uerr := conn.ExecContext(uctx, "SELECT pg_advisory_unlock($1)", LockKey); uerr != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	ms, err := New()
	if err != nil {
		return err
	}
	m := migrate.NewMigrator(db, ms,
		// A migration's row in bun_migrations is written in the migration's
		// own transaction (markInTx), and again, idempotently, once it
		// committed: never marked without being applied.
		migrate.WithMarkAppliedOnSuccess(true),
		migrate.WithUpsert(true),
		migrate.AfterMigration(markInTx(db)),
	)
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("init migrations: %w", err)
	}
	// No row of bun_migration_locks survives Up: the advisory lock does
	// not depend on bun's row lock, and a row left by a process stopped
	// mid-migration would block every binary that does lock with it.
	if _, err := db.NewDelete().TableExpr("bun_migration_locks").Where("TRUE").Exec(ctx); err != nil {
		return fmt.Errorf("remove old migration lock rows: %w", err)
	}
	return f(m)
}

// markInTx returns the hook that records a migration as applied on the
// connection that ran it: inside its transaction for a .tx migration.
func markInTx(db *bun.DB) migrate.MigrationHook {
	return func(ctx context.Context, conn bun.IConn, mig *migrate.Migration) error {
		rec := &migrate.Migration{Name: mig.Name, GroupID: mig.GroupID}
		if _, err := db.NewInsert().Conn(conn).Model(rec).ModelTableExpr("bun_migrations").
			On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("mark %s applied: %w", mig.Name, err)
		}
		return nil
	}
}
