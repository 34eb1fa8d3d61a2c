// Tests of WriteTo and ReadIndex: an index read back answers and takes Apply as the one written; bad files are errors.

package index_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// roundTrip writes ix and reads it back, checking that the copy writes the
// same bytes.
func roundTrip(t *testing.T, ix *index.Index) (*index.Index, []byte) {
	t.Helper()
	var buf bytes.Buffer
	n, err := ix.WriteTo(&buf)
	require.NoError(t, err)
	require.Equal(t, int64(buf.Len()), n)
	got, err := index.ReadIndex(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.True(t, got.UseRates(ix.Rates()), "read back at the rates it was built with")
	var again bytes.Buffer
	_, err = got.WriteTo(&again)
	require.NoError(t, err)
	require.True(t, bytes.Equal(buf.Bytes(), again.Bytes()), "the index read writes other bytes")
	return got, buf.Bytes()
}

// withVisas gives some of the world's jobs a field that most jobs have
// one value of at most and a few have two: the forward index's form with
// exceptions.
func withVisas(w *world) {
	for _, id := range slices.Sorted(maps.Keys(w.docs)) {
		d := w.docs[id]
		switch k := w.r.IntN(20); {
		case k < 8:
		case k < 18:
			d.Facets["visas"] = []string{fmt.Sprint("Visa ", k%9)}
		default:
			d.Facets["visas"] = []string{"Visa 1", fmt.Sprint("visa ", 9+k)}
		}
		for _, v := range d.Facets["visas"] {
			d.Keys = append(d.Keys, "visas:"+strings.ToLower(v))
		}
	}
}

// TestReadIndexAnswersAndAppliesAsWritten: an index read back answers
// random queries (pages, cursors, facets, companies) as the one written,
// and the same batches applied to both keep them answering alike.
func TestReadIndexAnswersAndAppliesAsWritten(t *testing.T) {
	for seed, size := range []struct{ jobs, companies int }{{600, 30}, {300, 5}, {2000, 60}, {40, 3}, {0, 2}} {
		t.Run(fmt.Sprint(size.jobs, " jobs ", size.companies, " companies"), func(t *testing.T) {
			w := newWorld(uint64(100+seed), size.jobs, size.companies)
			if seed%2 == 0 {
				withVisas(w)
			}
			written := w.build(t, 1)
			read, _ := roundTrip(t, written)
			assert.Equal(t, written.Version(), read.Version())
			assert.Equal(t, written.SizeInBytes(), read.SizeInBytes())
			w.same(t, written, read, nil)
			for version := int64(2); version < 8; version++ {
				prev := maps.Clone(w.docs)
				ch := w.change()
				var err error
				written, err = written.Apply(version, ch, collation)
				require.NoError(t, err)
				read, err = read.Apply(version, ch, collation)
				require.NoError(t, err)
				var gone []*index.Doc
				for id, d := range prev {
					if _, ok := w.docs[id]; !ok {
						gone = append(gone, d)
					}
				}
				assert.Equal(t, written.DeltaLen(), read.DeltaLen())
				w.same(t, written, read, gone)
			}
		})
	}
}

// TestReadIndexWideForward: a field of 65,535 values or more (the forward
// index's wide form) reads back and answers alike.
func TestReadIndexWideForward(t *testing.T) {
	b := index.NewBuilder(3)
	const n = 70_000
	for i := range n {
		tag := fmt.Sprint("Tag ", i%66_000)
		b.Add(&index.Doc{ID: fmt.Sprintf("w-%06d", i), Posted: int64(n - i), Dated: true, CompanyID: int64(i % 7),
			SalaryMin: float64(i % 1000), SalaryMax: float64(i%1000 + 10),
			Keys: []string{"tag:" + strings.ToLower(tag), fmt.Sprint("parity:", i%2)}, Facets: map[string][]string{"tag": {tag}}})
		b.SetIDRank(uint32(i), uint32(i))
	}
	written := b.Build(b.Names())
	read, _ := roundTrip(t, written)
	for _, q := range []domain.JobQuery{
		{Sort: domain.JobSortSalaryAsc, Limit: 10, Offset: 33},
		{Sort: domain.JobSortNewest, Limit: 5, Filters: []domain.KeyFilter{{Field: "parity", Keys: []string{"parity:1"}}}},
	} {
		wf, _ := written.Facets(q, []string{"tag", domain.FacetCompany, domain.FacetSalary}, 20)
		rf, _ := read.Facets(q, []string{"tag", domain.FacetCompany, domain.FacetSalary}, 20)
		assert.Equal(t, wf, rf)
		wp, _ := written.Search(q)
		rp, _ := read.Search(q)
		assert.Equal(t, wp, rp)
	}
}

func TestWriteToRefusesALayeredIndex(t *testing.T) {
	w := newWorld(5, 50, 4)
	ix, err := w.build(t, 1).Apply(2, w.change(), collation)
	require.NoError(t, err)
	_, err = ix.WriteTo(&bytes.Buffer{})
	assert.Error(t, err)
}

func TestReadIndexFromAFile(t *testing.T) {
	w := newWorld(6, 500, 20)
	written := w.build(t, 4)
	path := filepath.Join(t.TempDir(), "index")
	f, err := os.Create(path)
	require.NoError(t, err)
	_, err = written.WriteTo(f)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	f, err = os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	read, err := index.ReadIndex(f)
	require.NoError(t, err)
	require.True(t, read.UseRates(written.Rates()))
	w.same(t, written, read, nil)
}

// reseal recomputes the trailer of a file whose body was changed, so that
// the decoding itself meets the change.
func reseal(data []byte) {
	end := len(data) - 12
	binary.LittleEndian.PutUint32(data[end+8:], crc32.Checksum(data[:end], crc32.MakeTable(crc32.Castagnoli)))
}

// TestReadIndexRejectsBadFiles: another magic or format version, a file
// cut anywhere, a byte changed anywhere are errors; a changed body with a
// checksum made to match is an error or an index, never a panic.
func TestReadIndexRejectsBadFiles(t *testing.T) {
	w := newWorld(7, 400, 15)
	withVisas(w)
	_, good := roundTrip(t, w.build(t, 1))
	read := func(data []byte) error {
		_, err := index.ReadIndex(bytes.NewReader(data))
		return err
	}
	require.NoError(t, read(good))

	bad := slices.Clone(good)
	bad[0] = 'X'
	assert.ErrorIs(t, read(bad), index.ErrFormat, "magic")
	bad = slices.Clone(good)
	binary.LittleEndian.PutUint32(bad[8:], binary.LittleEndian.Uint32(bad[8:])+1)
	assert.ErrorIs(t, read(bad), index.ErrFormat, "version")
	assert.Error(t, read(nil), "empty")

	r := rand.New(rand.NewPCG(1, 2))
	cuts := []int{0, 5, 12, 13, 24, len(good) - 12, len(good) - 1}
	for range 200 {
		cuts = append(cuts, r.IntN(len(good)))
	}
	for _, at := range cuts {
		assert.Error(t, read(good[:at]), "cut at %d of %d", at, len(good))
	}
	assert.ErrorIs(t, read(append(slices.Clone(good), 0)), index.ErrCorrupt, "a byte after")

	for range 300 {
		at := r.IntN(len(good))
		bad = slices.Clone(good)
		bad[at] ^= byte(1 + r.IntN(255))
		assert.Error(t, read(bad), "byte %d of %d changed", at, len(good))
	}
	// Past the checksum: lengths and references are checked, so the
	// decoding meets no panic (ReadIndex's safety net would say
	// "recovered").
	for range 2000 {
		bad = slices.Clone(good)
		for range 1 + r.IntN(3) {
			at := 12 + r.IntN(len(good)-24)
			bad[at] ^= byte(1 + r.IntN(255))
		}
		reseal(bad)
		if err := read(bad); err != nil {
			assert.NotContains(t, err.Error(), "recovered")
		}
	}
	// A count too large for the bytes left is an error, not an allocation.
	// The ids' length follows the header (magic, version, an empty key),
	// the index's version, its rates' digest and the number of jobs.
	bad = slices.Clone(good)
	digest := 8 + 4 + 1 + 8
	digestLen, k := binary.Uvarint(bad[digest:])
	binary.PutUvarint(bad[digest+k+int(digestLen)+4:], 1<<60)
	reseal(bad)
	assert.ErrorIs(t, read(bad), index.ErrCorrupt)
}
