package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

func (e env) importJobs(ctx context.Context, args []string) error {
	fs := e.flagSet("import")
	dsn := e.dbFlag(fs)
	format := fs.String("format", "ndjson", "input format: ndjson")
	skip := fs.Bool("skip-invalid", false, "write the valid records and report the invalid ones, instead of writing nothing")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"import: give one FILE, or - for standard input"}
	}
	if *format != "ndjson" {
		return usageError{fmt.Sprintf("import: unknown format %q (ndjson)", *format)}
	}
	in := e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		in = f
	}
	return e.runImport(ctx, *dsn, in, importer.Options{SkipInvalid: *skip})
}

// runImport imports NDJSON from in into the database at dsn (migrating it
// first) and reports the result.
func (e env) runImport(ctx context.Context, dsn string, in io.Reader, opts importer.Options) error {
	db, err := openDB(ctx, dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := migrations.Up(ctx, db); err != nil {
		return err
	}
	norm, err := normalize.New()
	if err != nil {
		return err
	}
	opts.Progress = e.stderr
	res, err := importer.NDJSON(ctx, in, norm, store.New(db), opts)
	for _, bad := range res.Invalid {
		fmt.Fprintln(e.stderr, "invalid:", bad)
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	rate := float64(res.Imported) / max(res.Elapsed.Seconds(), 1e-9)
	fmt.Fprintf(e.stdout, "import: %d jobs written from %d lines, %d invalid skipped, in %.1fs (%.0f jobs/s)\n",
		res.Imported, res.Lines, len(res.Invalid), res.Elapsed.Seconds(), rate)
	return nil
}
