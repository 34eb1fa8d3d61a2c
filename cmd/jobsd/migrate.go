package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/store"
)

func (e env) migrate(ctx context.Context, args []string) error {
	fs := e.flagSet("migrate")
	dsn := e.dbFlag(fs)
	create := fs.Bool("create-database", false, "create the database first when it does not exist")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *create {
		if err := createDatabase(ctx, *dsn, e); err != nil {
			return err
		}
	}
	action := "up"
	if fs.NArg() > 0 {
		action = fs.Arg(0)
	}
	db, err := openDB(ctx, *dsn, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	switch action {
	case "up":
		applied, err := migrations.Up(ctx, db)
		if err != nil {
			return err
		}
		if _, err := store.New(db).FillSlugs(ctx, fold.Slug); err != nil {
			return err
		}
		if len(applied) == 0 {
			fmt.Fprintln(e.stdout, "migrate: the schema is up to date")
			return nil
		}
		fmt.Fprintf(e.stdout, "migrate: applied %s\n", strings.Join(applied, ", "))
	case "status":
		ms, err := migrations.Status(ctx, db)
		if err != nil {
			return err
		}
		for _, m := range ms {
			state := "pending"
			if m.IsApplied() {
				state = "applied " + m.MigratedAt.UTC().Format("2006-01-02 15:04:05Z")
			}
			fmt.Fprintf(e.stdout, "%s\t%s\n", m.Name, state)
		}
	default:
		return usageError{fmt.Sprintf("migrate: unknown action %q (up or status)", action)}
	}
	return nil
}

// createDatabase creates the database a URL names, when it does not exist,
// through the server's maintenance database "postgres".
func createDatabase(ctx context.Context, dsn string, e env) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return fmt.Errorf("create database: parse URL: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" || name == "postgres" {
		return nil
	}
	u.Path = "/postgres"
	db, err := openDB(ctx, u.String(), store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.NewRaw("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ?)", name).Scan(ctx, &exists); err != nil {
		return fmt.Errorf("create database: %w", err)
	}
	if exists {
		return nil
	}
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+pgIdent(name)); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	fmt.Fprintf(e.stdout, "migrate: created database %s\n", name)
	return nil
}

// pgIdent quotes an SQL identifier.
func pgIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
