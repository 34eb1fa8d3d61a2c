// Source: the current rates of one file, reloaded when the file changes.

package currency

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// FileIn is where the rates file lies in a reference-data directory
// ("" when dir is "").
func FileIn(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "currencies", "eurofxref.csv")
}

// Source holds the rates of one file, current as of its last Reload. It is
// safe for concurrent use.
type Source struct {
	path string
	cur  atomic.Pointer[Rates]

	mu    sync.Mutex // one Reload at a time
	stamp stamp      // the file as last read
}

// stamp tells whether a file changed: its size and modification time.
type stamp struct {
	size int64
	mod  time.Time
	seen bool
}

// Open reads the rates file at path. A missing file (or an empty path) is
// no rates, not an error: salary filters then compare postings of the
// requested currency only. A file that does not parse is an error.
func Open(path string) (*Source, error) {
	s := &Source{path: path}
	if _, err := s.Reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Static returns a Source of fixed rates (nil: none), which Reload never
// changes; tests use it.
func Static(r *Rates) *Source {
	s := &Source{}
	s.cur.Store(r)
	return s
}

// Rates returns the current rates, nil when there are none.
func (s *Source) Rates() *Rates {
	if s == nil {
		return nil
	}
	return s.cur.Load()
}

// Path is the rates file's path ("" for Static rates).
func (s *Source) Path() string {
	if s == nil {
		return ""
	}
	return s.path
}

// Reload reads the file again if its size or modification time changed
// since the last read, and reports whether the rates changed. A file that
// went away means no rates; one that does not parse keeps the rates
// before it (and is an error).
func (s *Source) Reload() (bool, error) {
	if s.path == "" {
		return false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Stat(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.stamp = stamp{}
		return s.cur.Swap(nil) != nil, nil
	case err != nil:
		return false, err
	}
	now := stamp{size: fi.Size(), mod: fi.ModTime(), seen: true}
	if now == s.stamp {
		return false, nil
	}
	r, err := Load(s.path)
	if err != nil {
		return false, err
	}
	s.stamp = now
	old := s.cur.Swap(r)
	return !Same(old, r), nil
}

// Watch reloads the file every interval until ctx ends, logging each new
// table and each file that does not parse (the rates before it stay).
func (s *Source) Watch(ctx context.Context, every time.Duration, log *slog.Logger) {
	if s.path == "" {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		changed, err := s.Reload()
		switch {
		case err != nil:
			log.Warn("currency rates not reloaded; the rates before stay", "err", err)
		case changed && s.Rates() == nil:
			log.Warn("currency rates file removed: salary filters compare postings of the requested currency only", "path", s.path)
		case changed:
			log.Info("currency rates reloaded", "date", s.Rates().Date(), "currencies", len(s.Rates().perEUR))
		}
	}
}
