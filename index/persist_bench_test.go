// Benchmarks of writing and reading an index file at 1,000,000 jobs.

package index_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jobsd-dev/jobsd/index"
)

// BenchmarkPersist writes the synthetic index of 1,000,000 jobs to a file
// and reads it back (from the page cache), reporting the file's MB.
func BenchmarkPersist(b *testing.B) {
	if million == nil {
		million = synthetic(1_000_000)
	}
	path := filepath.Join(b.TempDir(), "index")
	write := func() int64 {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		n, err := million.WriteTo(f)
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	size := write()
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			write()
		}
		b.ReportMetric(float64(size)/1e6, "MB")
	})
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			ix, err := index.ReadIndex(f)
			f.Close()
			if err != nil || ix.Len() != million.Len() {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(size)/1e6, "MB")
	})
}
