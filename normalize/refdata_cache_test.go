// Tests of the reference-data cache: sameness with a build from the files, bad files, concurrent writers, layout.

package normalize

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
	"github.com/jobsd-dev/jobsd/internal/wire"
)

// TestMain points the default cache directory (os.UserCacheDir) at a
// temporary one, so that no test writes to the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jobsd-normalize-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharing counts the distinct structures the normalizer's maps point to:
// a normalizer read from the cache shares them as one built does.
func sharing(n *Normalizer) string {
	var b strings.Builder
	for _, v := range n.vocabs() {
		// Package terms' maps, read by reflection.
		terms := map[uintptr]bool{}
		for _, field := range []string{"terms", "all", "byName"} {
			for it := reflect.ValueOf(v).Elem().FieldByName(field).MapRange(); it.Next(); {
				terms[it.Value().Pointer()] = true
			}
		}
		fmt.Fprintf(&b, "%d ", len(terms))
	}
	// Package places' maps of lists, read by reflection.
	distinct := func(fields ...string) int {
		seen := map[uintptr]bool{}
		for _, field := range fields {
			for it := reflect.ValueOf(n.geo).Elem().FieldByName(field).MapRange(); it.Next(); {
				for i := range it.Value().Len() {
					seen[it.Value().Index(i).Pointer()] = true
				}
			}
		}
		return len(seen)
	}
	cities, states := distinct("cities", "curated"), distinct("states", "codes")
	fmt.Fprintf(&b, "cities %d states %d", cities, states)
	return b.String()
}

// TestCacheSameFingerprint builds the normalizer from the files (writing
// the cache), then reads it from the cache, and compares everything both
// hold and answer.
func TestCacheSameFingerprint(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	if testing.Short() {
		t.Skip("loads the reference data twice")
	}
	cache := t.TempDir()
	cold, err := New(WithRefData(dir), WithCacheDir(cache))
	require.NoError(t, err)
	path, err := cacheFileName(cache, dir)
	require.NoError(t, err)
	before, err := os.Stat(path)
	require.NoError(t, err, "the cold build writes the cache")

	warm, err := New(WithRefData(dir), WithCacheDir(cache))
	require.NoError(t, err)
	after, err := os.Stat(path)
	require.NoError(t, err)
	require.True(t, os.SameFile(before, after), "the warm build reads the cache, it does not write it again")

	assert.Equal(t, cold.Digest(), warm.Digest())
	assert.Equal(t, cold.Sources(), warm.Sources())
	assert.Equal(t, sharing(cold), sharing(warm))
	want := fingerprintOf(t, cold, dir, "", true)
	got := fingerprintOf(t, warm, dir, "", true)
	for s, sum := range want {
		assert.Equal(t, sum, got[s], "the normalizer read from the cache differs in %s", s)
	}
	assert.Len(t, got, len(want))
}

// TestCacheBadFiles checks that a cache file that is empty, truncated,
// altered, of another key or not one at all is passed over: New builds
// from the files and writes a good one.
func TestCacheBadFiles(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	if testing.Short() {
		t.Skip("loads the reference data several times")
	}
	cache := t.TempDir()
	ref, err := New(WithRefData(dir), WithCacheDir(cache))
	require.NoError(t, err)
	path, err := cacheFileName(cache, dir)
	require.NoError(t, err)
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	// The key follows the magic, the format version and its own length.
	keyAt := len(cacheMagic) + 4 + 1
	key := good[keyAt : keyAt+sha256.Size]

	otherKey := cacheKey([]byte("other"))
	foreign := append([]byte{}, good...)
	copy(foreign[keyAt:], otherKey) // another key's file under this name
	flipped := append([]byte{}, good...)
	flipped[len(flipped)/2] ^= 0x40
	cases := map[string][]byte{
		"empty":     {},
		"truncated": good[:len(good)-100],
		"header":    good[:keyAt+sha256.Size],
		"flipped":   flipped,
		"foreign":   foreign,
		"garbage":   []byte(strings.Repeat("not a cache file ", 100)),
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := readCache(writeFile(t, content), key)
			require.Error(t, err)
			require.NoError(t, os.WriteFile(path, content, 0o644))
			n, err := New(WithRefData(dir), WithCacheDir(cache))
			require.NoError(t, err)
			assert.Equal(t, ref.Digest(), n.Digest())
			assert.Equal(t, sharing(ref), sharing(n))
			cat, ok := n.Title("Sr. Backend Engineer")
			wantCat, wantOK := ref.Title("Sr. Backend Engineer")
			assert.Equal(t, wantCat, cat)
			assert.Equal(t, wantOK, ok)
			assert.Equal(t, ref.ParseLocation("Cambridge, ON"), n.ParseLocation("Cambridge, ON"))
			body, err := readCache(path, key)
			require.NoError(t, err, "the bad file was rewritten")
			require.NoError(t, decodeState(body, &Normalizer{}))
		})
	}

	t.Run("unwritable", func(t *testing.T) {
		file := writeFile(t, []byte("a file where the cache directory would be"))
		n, err := New(WithRefData(dir), WithCacheDir(filepath.Join(file, "sub")))
		require.NoError(t, err)
		assert.Equal(t, ref.Digest(), n.Digest())
	})
}

func writeFile(t *testing.T, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, content, 0o644))
	return path
}

// TestCacheBodyChecks decodes bodies cut short and altered (as a file
// whose checksum was recomputed would hold): a body cut short is an error
// of the decoder's own checks, never a panic; an altered one decodes or
// is an error.
func TestCacheBodyChecks(t *testing.T) {
	body := stateBody(t, builtinNormalizer(t))
	require.NoError(t, decodeState(bodyReader(t, body), &Normalizer{}))
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		cut := r.IntN(len(body))
		err := decodeState(bodyReader(t, body[:cut]), &Normalizer{})
		require.Error(t, err, "cut at %d", cut)
		require.NotContains(t, err.Error(), "recovered", "cut at %d: caught by recover, not by a check", cut)
	}
	for range 300 {
		b := bytes.Clone(body)
		for range 1 + r.IntN(4) {
			b[r.IntN(len(b))] = byte(r.Uint32())
		}
		if err := decodeState(bodyReader(t, b), &Normalizer{}); err != nil {
			require.ErrorIs(t, err, wire.ErrCorrupt)
		}
	}
}

// testHeader is the header of the files of the tests' bodies.
var testHeader = wire.Header{Magic: cacheMagic, Version: cacheFormat, Key: []byte("test")}

// stateBody returns the body encodeState writes of n.
func stateBody(t *testing.T, n *Normalizer) []byte {
	t.Helper()
	var file bytes.Buffer
	w := wire.NewWriter(&file, testHeader)
	start := len(testHeader.Magic) + 4 + 1 + len(testHeader.Key) // magic, version, key
	encodeState(w, n)
	_, err := w.Close()
	require.NoError(t, err)
	return file.Bytes()[start : file.Len()-12]
}

// bodyReader returns a reader of a file holding body as it is.
func bodyReader(t *testing.T, body []byte) *wire.Reader {
	t.Helper()
	var file bytes.Buffer
	w := wire.NewWriter(&file, testHeader)
	w.Write(body)
	_, err := w.Close()
	require.NoError(t, err)
	r, err := wire.Open(file.Bytes(), testHeader)
	require.NoError(t, err)
	return r
}

// builtinNormalizer is a normalizer of the embedded vocabularies only,
// built without the cache.
func builtinNormalizer(t *testing.T) *Normalizer {
	t.Helper()
	sum, err := vocabularySum("")
	require.NoError(t, err)
	n, err := build(&options{}, sum)
	require.NoError(t, err)
	return n
}

// TestCacheBuiltinRoundTrip reads back the state of the embedded
// vocabularies and compares everything it holds and answers.
func TestCacheBuiltinRoundTrip(t *testing.T) {
	n := builtinNormalizer(t)
	m := &Normalizer{}
	require.NoError(t, decodeState(bodyReader(t, stateBody(t, n)), m))
	m.now, m.digest = n.now, n.digest
	assert.Equal(t, sharing(n), sharing(m))
	for _, s := range []string{"golang", "Kuberentes", "k8s", "SF", "Austin, TX", "Sr. Backend Engineer", "München", "401k",
		"Database Admin", "Client-Facing Product Manager"} {
		assert.Equal(t, n.Skills.Canonical(s), m.Skills.Canonical(s), s)
		assert.Equal(t, n.ParseLocation(s), m.ParseLocation(s), s)
		c1, ok1 := n.Title(s)
		c2, ok2 := m.Title(s)
		assert.Equal(t, c1, c2, s)
		assert.Equal(t, ok1, ok2, s)
	}
}

// TestCacheConcurrentWriters writes and reads one key's file from several
// goroutines at once: every read sees a whole file or none.
func TestCacheConcurrentWriters(t *testing.T) {
	n := builtinNormalizer(t)
	key := cacheKey([]byte("concurrent"))
	path := cachePath(t.TempDir(), key)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				assert.NoError(t, writeCache(path, key, n))
			}
		})
		wg.Go(func() {
			for range 10 {
				r, err := readCache(path, key)
				if os.IsNotExist(err) {
					continue
				}
				if assert.NoError(t, err) {
					assert.NoError(t, decodeState(r, &Normalizer{}))
				}
			}
		})
	}
	wg.Wait()
	entries, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")
}

// TestCacheLayout fails when a type the cache writes gains, loses or
// changes a field: refdata_codec.go or the part's codec must then write
// it, and cacheFormat
// be raised (and this signature updated).
func TestCacheLayout(t *testing.T) {
	// The parts' types have their own tests (packages places, terms and
	// titles).
	types := []any{Normalizer{}, Source{}}
	got := wire.Layout(types...)
	const want = "822bc5ffd7db9029"
	require.Equal(t, want, got, "a type the cache writes changed: update refdata_codec.go or the part's codec, raise cacheFormat (now %d), then this signature", cacheFormat)
}

// TestCacheIsPruned: writing a cache file removes the files of other keys
// unused for longer than CacheBounds.MaxAge (older binaries' and reference
// data's), and leaves recent ones and other files alone; reading one
// marks it used.
func TestCacheIsPruned(t *testing.T) {
	dir := refdatatest.Need(t, refdatatest.Cities)
	cache := t.TempDir()
	old := time.Now().Add(-CacheBounds.MaxAge - time.Hour)
	for name, at := range map[string]time.Time{"0000.bin": old, "1111.bin": time.Now(), "notes.txt": old} {
		path := filepath.Join(cache, name)
		require.NoError(t, os.WriteFile(path, []byte("x"), 0o600))
		require.NoError(t, os.Chtimes(path, at, at))
	}
	_, err := New(WithRefData(dir), WithCacheDir(cache))
	require.NoError(t, err)
	path, err := cacheFileName(cache, dir)
	require.NoError(t, err)
	assert.FileExists(t, path)
	assert.NoFileExists(t, filepath.Join(cache, "0000.bin"), "another key's, unused for long")
	assert.FileExists(t, filepath.Join(cache, "1111.bin"))
	assert.FileExists(t, filepath.Join(cache, "notes.txt"))

	require.NoError(t, os.Chtimes(path, old, old))
	_, err = New(WithRefData(dir), WithCacheDir(cache))
	require.NoError(t, err)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), info.ModTime(), time.Minute, "read, so used")
}
