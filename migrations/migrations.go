// Package migrations holds jobsd's SQL schema migrations, embedded in the
// binary and applied with bun's migrate package.
package migrations

import (
	"context"
	"embed"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

//go:embed *.sql
var files embed.FS

// New returns the migrations discovered in the embedded SQL files.
func New() (*migrate.Migrations, error) {
	m := migrate.NewMigrations()
	if err := m.Discover(files); err != nil {
		return nil, fmt.Errorf("discover migrations: %w", err)
	}
	return m, nil
}

// Up applies every pending migration under the migration lock and returns
// the names of those it applied.
func Up(ctx context.Context, db *bun.DB) ([]string, error) {
	m, err := newMigrator(ctx, db)
	if err != nil {
		return nil, err
	}
	if err := m.Lock(ctx); err != nil {
		return nil, fmt.Errorf("lock migrations: %w", err)
	}
	defer m.Unlock(ctx) //nolint:errcheck // the lock row is removed on the next successful unlock
	group, err := m.Migrate(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	var names []string
	for _, mig := range group.Migrations {
		names = append(names, mig.Name)
	}
	return names, nil
}

// Status lists every migration with whether it is applied.
func Status(ctx context.Context, db *bun.DB) (migrate.MigrationSlice, error) {
	m, err := newMigrator(ctx, db)
	if err != nil {
		return nil, err
	}
	return m.MigrationsWithStatus(ctx)
}

// newMigrator returns a migrator over the embedded migrations, with bun's
// bookkeeping tables created.
func newMigrator(ctx context.Context, db *bun.DB) (*migrate.Migrator, error) {
	ms, err := New()
	if err != nil {
		return nil, err
	}
	m := migrate.NewMigrator(db, ms)
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("init migrations: %w", err)
	}
	return m, nil
}
