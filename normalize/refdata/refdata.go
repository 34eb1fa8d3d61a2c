// Package refdata opens the files of the reference data the normalizer's
// parts read (normalize/places, terms, titles): plain or gzip-compressed by
// their names (klauspost's gzip, faster than the standard library's on
// GeoNames' 8 MB), and tab-separated rows.
package refdata

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// Open opens the file at path, through gzip when its name ends in .gz; the
// reader's Close closes the file.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return gzipFile{zr, f}, nil
}

// gzipFile reads a file through gzip.
type gzipFile struct {
	io.Reader
	f *os.File
}

// Close implements io.Closer.
func (r gzipFile) Close() error { return r.f.Close() }

// ReadTSV calls row with the columns of each line of a tab-separated file
// after its header; a .gz file is decompressed.
func ReadTSV(path string, minCols int, row func(cols []string) error) error {
	r, err := Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var cols []string // reused: row may keep the strings, not the slice
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			continue
		}
		cols = splitTabs(cols[:0], sc.Text())
		if len(cols) < minCols {
			return fmt.Errorf("%s line %d: %d columns, want %d", filepath.Base(path), line, len(cols), minCols)
		}
		if err := row(cols); err != nil {
			return fmt.Errorf("%s line %d: %w", filepath.Base(path), line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return nil
}

// splitTabs appends the tab-separated columns of line to cols, as
// strings.Split(line, "\t") returns them.
func splitTabs(cols []string, line string) []string {
	for {
		col, rest, ok := strings.Cut(line, "\t")
		cols = append(cols, col)
		if !ok {
			return cols
		}
		line = rest
	}
}
