// Reference-data cache: the compiled normalizer kept in a file, keyed by the data and the code that compile it.

package normalize

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/jobsd-dev/jobsd/internal/cachedir"
	"github.com/jobsd-dev/jobsd/internal/wire"
)

// cacheFormat numbers the layout of the cache files (package wire's
// header, and the body refdata_codec.go writes with the parts' own
// sections: the codecs of places, terms and titles). Raise it with every
// change to any of those codecs or to the types they write; rulesVersion
// covers changes to what the loaders build. 9: package wire's layout;
// 10: the titles' topics and trainee words.
const cacheFormat = 12

// cacheMagic starts every cache file.
const cacheMagic = "jobsd-normalize\n"

// cacheHeader is the header of the cache file of key. A file whose
// header, length or checksum is not as expected is ignored, and rewritten.
func cacheHeader(key []byte) wire.Header {
	return wire.Header{Magic: cacheMagic, Version: cacheFormat, Key: key}
}

// WithCacheDir sets the directory where New keeps the normalizer it
// compiles from the reference data (WithRefData), one file per key: the
// reference data's files, the embedded vocabularies, the rules and cache
// format versions, the Go version and the module versions built in. A
// later New with the same key reads the file instead of the reference
// data. "" disables the cache. The default is jobsd/normalize under
// os.UserCacheDir (none when it has none).
func WithCacheDir(dir string) Option {
	return func(o *options) { o.cacheDir, o.cacheDirSet = dir, true }
}

// cacheDirOf returns the cache directory the options name, "" for none.
func (o *options) cacheDirOf() string {
	if o.cacheDirSet {
		return o.cacheDir
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "jobsd", "normalize")
}

// cacheKey names the compiled state of the vocabularies hashed to sum
// (vocabularySum) built by this binary.
func cacheKey(sum []byte) []byte {
	h := sha256.New()
	fmt.Fprintf(h, "jobsd normalize cache %d rules %d %s\n", cacheFormat, rulesVersion, runtime.Version())
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Replace != nil {
				m = m.Replace
			}
			fmt.Fprintf(h, "%s %s %s\n", m.Path, m.Version, m.Sum)
		}
	}
	h.Write(sum)
	return h.Sum(nil)
}

// cachePath is the file of key under dir.
func cachePath(dir string, key []byte) string {
	return filepath.Join(dir, hex.EncodeToString(key)+".bin")
}

// readCache returns a reader of the body of the cache file at path if it
// holds key and is whole; fs.ErrNotExist when there is none.
func readCache(path string, key []byte) (*wire.Reader, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return wire.Open(b, cacheHeader(key))
}

// writeCache writes n's state as key's cache file at path: to a temporary
// file of the same directory, renamed into place, so that readers see a
// whole file or none, and processes writing the same key at once each
// rename a whole file of their own.
func writeCache(path string, key []byte, n *Normalizer) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := wire.NewWriter(f, cacheHeader(key))
	encodeState(w, n)
	if _, err = w.Close(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// newCached returns the normalizer of o: read from the cache file of its
// key when there is a good one, else built (build) and written to it.
// A cache that cannot be read or written is logged and passed over.
func newCached(o *options, dir string, build func(sum []byte) (*Normalizer, error)) (*Normalizer, error) {
	sum, err := vocabularySum(o.refData)
	if err != nil {
		return nil, err
	}
	key := cacheKey(sum)
	path := cachePath(dir, key)
	body, err := readCache(path, key)
	if err == nil {
		n := &Normalizer{}
		if err = decodeState(body, n); err == nil {
			n.now = o.clock()
			n.digest = digestName(o.refData, sum)
			cachedir.Touch(path, time.Now()) // in use: pruned last
			return n, nil
		}
	}
	if !errors.Is(err, fs.ErrNotExist) {
		slog.Warn("normalize: reference-data cache unusable, rebuilding it", "path", path, "err", err)
	}
	n, err := build(sum)
	if err != nil {
		return nil, err
	}
	if err := writeCache(path, key, n); err != nil {
		slog.Warn("normalize: reference-data cache not written", "path", path, "err", err)
	}
	if k := cachedir.Prune(dir, []string{"*.bin"}, []string{"*.bin.*.tmp"}, CacheBounds, time.Hour, path, time.Now()); k > 0 {
		slog.Info("normalize: cache files of other reference data or binaries removed", "dir", dir, "files", k)
	}
	return n, nil
}

// CacheBounds bound the normalizer's cache directory: a cache file of
// reference data, vocabularies or a binary no longer in use is removed
// after 30 days, and the least lately used while the files take more than
// 512 MiB (one is about 35 MB).
var CacheBounds = cachedir.Bounds{MaxAge: 30 * 24 * time.Hour, MaxBytes: 512 << 20}

// cacheFileName returns the cache file New uses for the reference data
// under refData with the cache directory dir, for tests.
func cacheFileName(dir, refData string) (string, error) {
	sum, err := vocabularySum(refData)
	if err != nil {
		return "", err
	}
	return cachePath(dir, cacheKey(sum)), nil
}
