package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

func (e env) importJobs(ctx context.Context, args []string) error {
	fs := e.flagSet("import")
	dsn := e.dbFlag(fs)
	formats := strings.Join(importer.Formats(), ", ")
	format := fs.String("format", "ndjson", "input format: "+formats)
	company := fs.String("company", "", "company of the records that name none (Lever postings, Greenhouse boards without company_name)")
	skip := fs.Bool("skip-invalid", false, "write the valid records and report the invalid ones, instead of writing nothing")
	refData := refDataFlag(fs, e.getenv)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"import: give one FILE, or - for standard input"}
	}
	if !slices.Contains(importer.Formats(), *format) {
		return usageError{fmt.Sprintf("import: unknown format %q (%s)", *format, formats)}
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
	return e.runImport(ctx, *dsn, *refData, in, importer.Options{Format: *format, DefaultCompany: strings.TrimSpace(*company), SkipInvalid: *skip})
}

// runImport imports the records of in (in opts.Format, NDJSON by default)
// into the database at dsn (migrating it first), normalized with the
// reference data of refData (none when empty), and reports the result.
func (e env) runImport(ctx context.Context, dsn, refData string, in io.Reader, opts importer.Options) error {
	db, err := openMigrated(ctx, dsn, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	norm, err := normalize.New(normalize.WithRefData(refData))
	if err != nil {
		return err
	}
	opts.Progress = e.stderr
	// The store tells stderr when the import waits for another one.
	st := store.New(db).WithLog(slog.New(slog.NewTextHandler(e.stderr, nil)))
	res, err := importer.Import(ctx, in, norm, st, opts)
	for _, bad := range res.Invalid {
		fmt.Fprintln(e.stderr, "invalid:", bad)
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	for _, d := range res.Dropped {
		fmt.Fprintln(e.stderr, "dropped:", d)
	}
	if len(res.Dropped) > 0 {
		fmt.Fprintf(e.stdout, "import: %d jobs written without a url or company_logo that is not http or https\n", len(res.Dropped))
	}
	rate := float64(res.Imported) / max(res.Elapsed.Seconds(), 1e-9)
	fmt.Fprintf(e.stdout, "import: %d jobs written from %d %ss, %d invalid skipped, in %.1fs (%.0f jobs/s)\n",
		res.Imported, res.Lines, res.Unit, len(res.Invalid), res.Elapsed.Seconds(), rate)
	return nil
}
