// Package cachedir bounds a cache directory: files unused for long, and
// the least lately used beyond a total size, are removed.
package cachedir

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Bounds are how long a cache file may go unused and how many bytes the
// cache's files may take together. A file counts as used when it was
// last written or touched (Touch): its modification time.
type Bounds struct {
	MaxAge   time.Duration
	MaxBytes int64
}

// String says the bounds as a help text does: "unused for 14 days is
// removed, and the least lately used while they take more than 2048 MiB".
func (b Bounds) String() string {
	return fmt.Sprintf("unused for %d days is removed, and the least lately used while they take more than %d MiB",
		int(b.MaxAge.Hours()/24), b.MaxBytes>>20)
}

// Touch marks path used now, so that Prune keeps it longer; a file that
// cannot be touched is left as it is.
func Touch(path string, now time.Time) {
	_ = os.Chtimes(path, now, now)
}

// Prune removes from dir the regular files whose names match one of
// patterns (filepath.Match) that were unused for longer than b.MaxAge,
// then, while the others take more than b.MaxBytes, the least lately used
// of them, never keep (the file just written or read). Temporary files (of
// tempPatterns) are removed once older than tempAge. It returns how many
// files it removed; other files are left alone.
func Prune(dir string, patterns, tempPatterns []string, b Bounds, tempAge time.Duration, keep string, now time.Time) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	type file struct {
		path string
		used time.Time
		size int64
	}
	var files []file
	var total int64
	removed := 0
	remove := func(path string) {
		if os.Remove(path) == nil {
			removed++
		}
	}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		switch {
		case matchAny(tempPatterns, name):
			if now.Sub(info.ModTime()) > tempAge {
				remove(path)
			}
		case !matchAny(patterns, name):
		case path != keep && b.MaxAge > 0 && now.Sub(info.ModTime()) > b.MaxAge:
			remove(path)
		default:
			files = append(files, file{path, info.ModTime(), info.Size()})
			total += info.Size()
		}
	}
	if b.MaxBytes <= 0 || total <= b.MaxBytes {
		return removed
	}
	slices.SortFunc(files, func(x, y file) int { return cmp.Or(x.used.Compare(y.used), cmp.Compare(x.path, y.path)) })
	for _, f := range files {
		if total <= b.MaxBytes {
			break
		}
		if f.path == keep {
			continue
		}
		if os.Remove(f.path) == nil {
			removed++
			total -= f.size
		}
	}
	return removed
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}
