package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/jobsd-dev/jobsd/store"
)

// textIndex indexes the descriptions that wait for keyword search now, as
// serve does in the background, on as many connections as there are
// processors, and returns when none is left.
func (e env) textIndex(ctx context.Context, args []string) error {
	fs := e.flagSet("textindex")
	dsn := e.dbFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageError{"textindex: takes no arguments"}
	}
	workers := runtime.NumCPU()
	db, err := openMigrated(ctx, *dsn, store.Options{MaxOpenConns: workers})
	if err != nil {
		return err
	}
	defer db.Close()
	start, next := time.Now(), 100_000
	var mu sync.Mutex
	n, err := store.New(db).IndexTexts(ctx, workers, func(indexed int) {
		mu.Lock()
		defer mu.Unlock()
		if indexed >= next {
			fmt.Fprintf(e.stderr, "textindex: %d jobs indexed\n", indexed)
			next += 100_000
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "textindex: %d descriptions indexed for keyword search in %.1fs\n", n, time.Since(start).Seconds())
	return nil
}
