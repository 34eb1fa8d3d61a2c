package main

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

// renormalize derives every stored job again from the values its source
// gave, with the vocabularies in use now, and records their digest as the
// data's only one. With --if-due it does so only when the stored jobs were
// normalized otherwise (what serve warns of).
func (e env) renormalize(ctx context.Context, args []string) error {
	fs := e.flagSet("renormalize")
	dsn := e.dbFlag(fs)
	refData := refDataFlag(fs, e.getenv)
	ifDue := fs.Bool("if-due", false, "only when the stored jobs were normalized with other vocabularies, reference data or rules than this binary's (make run uses it)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageError{"renormalize: takes no arguments"}
	}
	db, err := openMigrated(ctx, *dsn, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	norm, err := normalize.New(normalize.WithRefData(*refData))
	if err != nil {
		return err
	}
	if *ifDue {
		st := store.New(db)
		digests, anyJob, err := st.Vocabularies(ctx)
		if err != nil {
			return fmt.Errorf("renormalize: read the data's vocabularies: %w", err)
		}
		if !anyJob || slices.Equal(digests, []string{norm.Digest()}) {
			fmt.Fprintf(e.stdout, "renormalize: not due; the data is normalized with vocabulary %s\n", norm.Digest())
			return nil
		}
	}
	start := time.Now()
	next := 100_000
	res, err := store.New(db).Renormalize(ctx, norm.Digest(), norm.Rederive, func(read int) {
		if read >= next {
			fmt.Fprintf(e.stderr, "renormalize: %d jobs read\n", read)
			next += 100_000
		}
	})
	if err != nil {
		return err
	}
	// Company logos are the logos jobs gave: those that are not http(s)
	// go as they do at import.
	logos, err := store.New(db).DropCompanyLogos(ctx, func(logo string) bool { _, ok := normalize.SafeURL(logo); return ok })
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "renormalize: %d jobs read, %d changed and rewritten, in %.1fs; vocabulary %s\n",
		res.Jobs, res.Changed, time.Since(start).Seconds(), norm.Digest())
	if logos > 0 {
		fmt.Fprintf(e.stdout, "renormalize: %d company logos that are not http or https dropped\n", logos)
	}
	return nil
}

// warnIfNormalizedOtherwise logs a warning when the stored jobs were
// normalized with other vocabularies than digest: a filter then reads
// values one way and the stored jobs were written another, and jobsd
// renormalize makes them agree.
func warnIfNormalizedOtherwise(ctx context.Context, log *slog.Logger, st *store.Store, digest string) {
	digests, anyJob, err := st.Vocabularies(ctx)
	switch {
	case err != nil:
		log.Warn("cannot read the vocabularies the data was normalized with", "err", err)
	case !anyJob:
	case len(digests) == 0:
		log.Warn("the stored jobs were normalized with unrecorded vocabularies; run jobsd renormalize with this service's --refdata",
			"vocabulary", digest)
	case len(digests) > 1 || !slices.Contains(digests, digest):
		log.Warn("the stored jobs were normalized with other vocabularies than this service's; run jobsd renormalize with this service's --refdata",
			"data_vocabularies", strings.Join(digests, ","), "vocabulary", digest)
	}
}
