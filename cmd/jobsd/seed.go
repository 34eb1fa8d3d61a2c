package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

func (e env) seed(ctx context.Context, args []string) error {
	fs := e.flagSet("seed")
	dsn := e.dbFlag(fs)
	n := fs.Int("n", 2000, "number of postings")
	seedValue := fs.Uint64("seed", 1, "generator seed: the same seed gives the same postings")
	ifEmpty := fs.Bool("if-empty", false, "do nothing when the database already has jobs")
	lifecycle := fs.Bool("lifecycle", false, fmt.Sprintf("give the postings a life as of now, as make run's demo data: every %dth expires within 14 days (valid_through), every %dth is closed by a tombstone", seed.ExpiringEvery, seed.ClosedEvery))
	out := fs.String("out", "", "write the postings to this NDJSON file (- for standard output) instead of importing them")
	refData := refDataFlag(fs, e.getenv)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *n < 1 {
		return usageError{"seed: --n must be at least 1"}
	}
	opts := seed.Options{N: *n, Seed: *seedValue}
	if *lifecycle {
		opts.Lifecycle = time.Now()
	}
	if *out != "" {
		w := e.stdout
		if *out != "-" {
			f, err := os.Create(*out)
			if err != nil {
				return fmt.Errorf("seed: %w", err)
			}
			defer f.Close()
			w = f
		}
		return seed.Write(w, opts)
	}
	if *ifEmpty {
		db, err := openDB(ctx, *dsn, store.Options{})
		if err != nil {
			return err
		}
		var exists bool
		err = db.NewRaw("SELECT to_regclass('jobs') IS NOT NULL AND EXISTS (SELECT 1 FROM jobs)").Scan(ctx, &exists)
		if err != nil {
			// The jobs table may not exist yet: then it is empty.
			exists = false
		}
		db.Close()
		if exists {
			fmt.Fprintln(e.stdout, "seed: the database has jobs already; nothing to do")
			return nil
		}
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(seed.Write(pw, opts)) }()
	defer pr.Close()
	return e.runImport(ctx, *dsn, *refData, pr, importer.Options{})
}
