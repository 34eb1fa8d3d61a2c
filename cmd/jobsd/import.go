package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

// importJobs is `jobsd import`: the flags are checked, and a snapshot's
// scope, before anything is read.
func (e env) importJobs(ctx context.Context, args []string) error {
	fs := e.flagSet("import")
	dsn := e.dbFlag(fs)
	formats := strings.Join(importer.Formats(), ", ")
	format := fs.String("format", "ndjson", "input format: "+formats)
	company := fs.String("company", "", "company of the records that name none (Lever postings, Greenhouse boards without company_name); with --snapshot, also the company the snapshot lists")
	skip := fs.Bool("skip-invalid", false, "write the valid records and report the invalid ones, instead of writing nothing")
	snapshot := fs.Bool("snapshot", false, "the file is the complete list of the open postings of --source (and --company): close those of them it lacks")
	source := fs.String("source", "", "with --snapshot: the source the snapshot lists (the ids' prefix: greenhouse, lever, …)")
	allowMassClose := fs.Bool("allow-mass-close", false, "with --snapshot: close even more than half of the scope's open postings")
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
	scope, err := snapshotScope(*snapshot, *source, *company, *allowMassClose)
	if err != nil {
		return err
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
	return e.runImport(ctx, *dsn, *refData, in, importer.Options{
		Format: *format, DefaultCompany: strings.TrimSpace(*company), SkipInvalid: *skip,
		Snapshot: scope, AllowMassClose: *allowMassClose,
	})
}

// snapshotScope returns the scope of a snapshot import (nil without
// --snapshot), or the usage error of flags that do not go together:
// --snapshot needs --source, and --source and --allow-mass-close mean
// nothing without --snapshot. --company alone is the default company of
// the records that name none.
func snapshotScope(snapshot bool, source, company string, allowMassClose bool) (*domain.Scope, error) {
	source = strings.TrimSpace(source)
	company = strings.Join(strings.Fields(company), " ")
	if !snapshot {
		if source != "" || allowMassClose {
			return nil, usageError{"import: --source and --allow-mass-close are for a snapshot import; give --snapshot too"}
		}
		return nil, nil
	}
	if source == "" {
		return nil, usageError{"import: --snapshot needs --source NAME: a snapshot lists the postings of one source (and of one --company), and closes those of them it lacks"}
	}
	return &domain.Scope{Source: source, Company: company}, nil
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
	defer e.importGC()()
	// The store tells stderr when the import waits for another one.
	st := store.New(db).WithLog(slog.New(slog.NewTextHandler(e.stderr, nil)))
	res, err := importer.Import(ctx, in, norm, st, opts)
	for _, bad := range res.Invalid {
		fmt.Fprintln(e.stderr, "invalid:", bad)
	}
	var massClose *store.MassCloseError
	if errors.As(err, &massClose) {
		return fmt.Errorf("import: %s", massCloseReason(massClose))
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
	fmt.Fprintln(e.stdout, countsLine(res, opts.Snapshot))
	return nil
}

// importGCPercent and importMemoryLimit are how the garbage collector
// runs during an import, unless GOGC or GOMEMLIMIT say otherwise: an
// import's live heap is mostly the vocabularies, and the collector
// running at the default GOGC=100 took a tenth of its processor time;
// the limit keeps its peak well under 400 MB all the same.
const (
	importGCPercent   = 400
	importMemoryLimit = 320 << 20
)

// importGC sets the garbage collector for an import (importGCPercent,
// importMemoryLimit) where the environment leaves it at its defaults,
// and returns what puts it back.
func (e env) importGC() (restore func()) {
	var undo []func()
	if e.getenv("GOGC") == "" {
		old := debug.SetGCPercent(importGCPercent)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if e.getenv("GOMEMLIMIT") == "" {
		old := debug.SetMemoryLimit(importMemoryLimit)
		undo = append(undo, func() { debug.SetMemoryLimit(old) })
	}
	return func() {
		for _, f := range undo {
			f()
		}
	}
}

// countsLine says what an import did posting by posting: "import: 3
// opened, 1 updated, 8 unchanged, 2 closed; 1 of 3 tombstones ignored
// (unknown or already closed)", and which scope a snapshot listed.
func countsLine(res importer.Result, scope *domain.Scope) string {
	c := res.Counts
	line := fmt.Sprintf("import: %d opened, %d updated, %d unchanged, %d closed", c.Opened, c.Updated, c.Unchanged, c.Closed)
	if res.Tombstones > 0 || c.CloseIgnored > 0 {
		line += fmt.Sprintf("; %d of %d tombstones ignored (unknown or already closed)", c.CloseIgnored, res.Tombstones)
	}
	if scope != nil {
		line += "; snapshot of " + scope.String()
	}
	return line
}

// massCloseReason explains a snapshot refused by the mass-close guard.
func massCloseReason(e *store.MassCloseError) string {
	return fmt.Sprintf("snapshot refused, nothing was written: it would close %d of the %d open postings of %s, more than half; "+
		"an empty or broken crawl looks like this. Use --allow-mass-close if the crawl is really complete",
		e.Closing, e.Open, e.Scope)
}
