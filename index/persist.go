// Persistence: a base index written to a file and read back, to start without a build.

package index

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/wire"
)

// The file format (package wire's layout). Bump formatVersion whenever
// the body below changes: ReadIndex reads its own version only.
//
//	header   magic "JOBSDIX\x00", formatVersion, no key
//	body     the base's fields in the order of writeBody: numbers
//	         little-endian, strings and arrays prefixed with their length,
//	         bitmaps in roaring's format prefixed with theirs
//
// Maps are written in the order of their keys, so one index always makes
// the same bytes. Derived structures (every job set, value positions by
// name, company positions and trigrams, orders' ranks) are rebuilt on
// read.
var fileHeader = wire.Header{Magic: "JOBSDIX\x00", Version: formatVersion}

// formatVersion: 2, the rates' digest after the version; 3, package
// wire's layout (lengths as varints).
const formatVersion = 3

// ErrFormat is ReadIndex's error for a file that is not an index file of
// this format version (wire.ErrFormat).
var ErrFormat = wire.ErrFormat

// ErrCorrupt is ReadIndex's error for a truncated or corrupt index file
// (wire.ErrCorrupt, wrapped with the first thing found wrong).
var ErrCorrupt = wire.ErrCorrupt

// errLayered is WriteTo's error for an index with a delta layer.
var errLayered = errors.New("index: only a base index (without applied changes) can be written")

// Forms of a forward index in the file.
const (
	formSingle = iota // single, with multi, offsets and narrow when multi
	formNarrow        // offsets and narrow for every job
	formWide          // offsets and wide for every job
)

// WriteTo writes the base index ix (one without applied changes; an
// error otherwise) to w in the file format ReadIndex reads, through a
// buffer, and returns the bytes written.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	if ix.delta != nil {
		return 0, errLayered
	}
	e := wire.NewWriter(w, fileHeader)
	ix.writeBody(e)
	return e.Close()
}

func (ix *Index) writeBody(e *wire.Writer) {
	e.I64(ix.version)
	e.String(ix.ratesDigest)
	e.U32(ix.n)
	e.Bytes(ix.ids)
	e.U32s(ix.idEnd)
	e.I64s(ix.posted)
	writeBitmap(e, ix.undated)
	e.F64s(ix.salMin)
	e.F64s(ix.salMax)
	writeSalaryIndex(e, ix.byMin)
	writeSalaryIndex(e, ix.byMax)

	e.Uvarint(uint64(len(ix.keys)))
	for _, k := range slices.Sorted(maps.Keys(ix.keys)) {
		e.String(k)
		writeBitmap(e, ix.keys[k])
	}

	e.Uvarint(uint64(len(ix.companies)))
	for _, c := range ix.companies {
		e.I64(c.id)
		writeValue(e, &c.value)
		e.Bool(c.logo != nil)
		if c.logo != nil {
			e.String(*c.logo)
		}
		e.String(c.slug)
	}
	// The facets but the company one, whose values are the companies.
	fields := slices.DeleteFunc(slices.Sorted(maps.Keys(ix.facets)), func(f string) bool { return f == domain.FacetCompany })
	e.Uvarint(uint64(len(fields)))
	for _, field := range fields {
		fc := ix.facets[field]
		e.String(field)
		e.Uvarint(uint64(len(fc.values)))
		for _, v := range fc.values {
			writeValue(e, v)
		}
		writeForward(e, fc.fwd)
	}
	writeForward(e, ix.facets[domain.FacetCompany].fwd)

	e.Uvarint(uint64(len(ix.salary)))
	for _, b := range ix.salary {
		writeBitmap(e, b)
	}
	for _, s := range sorts[1:] { // the default order is the numbering
		e.U32s(ix.orders[s].docs)
	}
	e.U32s(ix.byID)
	e.Bool(ix.idsByteOrdered)
}

func writeValue(e *wire.Writer, v *value) {
	e.String(v.name)
	e.I64(int64(v.collate))
	writeBitmap(e, v.docs)
}

func writeForward(e *wire.Writer, f *forward) {
	e.Bool(f != nil)
	switch {
	case f == nil:
	case f.wide != nil:
		e.Byte(formWide)
		e.U32s(f.offsets)
		e.U32s(f.wide)
	case f.single == nil:
		e.Byte(formNarrow)
		e.U32s(f.offsets)
		e.U16s(f.narrow)
	default:
		e.Byte(formSingle)
		e.U16s(f.single)
		e.Bool(f.multi != nil)
		if f.multi != nil {
			e.U32s(f.multi)
			e.U32s(f.offsets)
			e.U16s(f.narrow)
		}
	}
}

func writeSalaryIndex(e *wire.Writer, s *salaryIndex) {
	e.F64s(s.bounds)
	for _, b := range s.atLeast { // len(bounds)+1 of them
		writeBitmap(e, b)
	}
	for _, m := range s.members { // len(bounds) of them
		e.U32s(m)
	}
	writeBitmap(e, s.known)
}

// ReadIndex reads an index written by WriteTo. A file of another format
// version is ErrFormat; a truncated or corrupt one (its checksum, a length
// or a reference found wrong) is an error too, never a wrong index. The
// index read answers every query and takes Apply as the one written.
func ReadIndex(r io.Reader) (ix *Index, err error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("index: reading: %w", err)
	}
	d, err := wire.Open(data, fileHeader)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	// The checksum held: what follows guards against a writer's fault,
	// and a panic of the decoding is an error like any other.
	defer func() {
		if p := recover(); p != nil {
			ix, err = nil, fmt.Errorf("%w: recovered: %v", ErrCorrupt, p)
		}
	}()
	ix = readBody(d)
	if err := d.Done(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return ix, nil
}

// readAll reads r to its end, in one allocation when r tells its size (a
// file, a bytes.Reader).
func readAll(r io.Reader) ([]byte, error) {
	size := int64(0)
	switch s := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := s.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
			if sk, ok := r.(io.Seeker); ok {
				if at, err := sk.Seek(0, io.SeekCurrent); err == nil {
					size -= at
				}
			}
		}
	case interface{ Len() int }:
		size = int64(s.Len())
	}
	buf := bytes.NewBuffer(make([]byte, 0, max(size, 0)+bytes.MinRead))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

func readBody(d *wire.Reader) *Index {
	ix := &Index{facets: map[string]*facet{}, orders: map[domain.JobSort]*ordering{}, histRate: 1}
	ix.version = d.I64()
	// The salaries are in euros at the rates of this digest: the reader
	// gives the index those rates (UseRates), or builds anew.
	ix.ratesDigest = d.String()
	ix.n = d.U32()
	n := ix.n
	ix.ids = d.Bytes()
	ix.idEnd = d.U32s()
	ix.posted = d.I64s()
	ix.undated = readBitmap(d, n)
	ix.salMin = d.F64s()
	ix.salMax = d.F64s()
	ix.byMin = readSalaryIndex(d, ix.salMin, n)
	ix.byMax = readSalaryIndex(d, ix.salMax, n)

	keys := d.Count(1)
	ix.keys = make(map[string]*roaring.Bitmap, keys)
	for range keys {
		k := d.String()
		ix.keys[k] = readBitmap(d, n)
	}

	companies := d.Count(1)
	ix.companies = make([]*company, 0, companies)
	for range companies {
		c := &company{id: d.I64()}
		c.value = readValue(d, n)
		c.lower = strings.ToLower(c.name)
		if d.Bool() {
			logo := d.String()
			c.logo = &logo
		}
		c.slug = d.String()
		ix.companies = append(ix.companies, c)
	}
	fields := d.Count(1)
	for range fields {
		field := d.String()
		values := d.Count(1)
		fc := &facet{values: make([]*value, 0, values), pos: make(map[string]int32, values)}
		for i := range values {
			v := readValue(d, n)
			fc.values = append(fc.values, &v)
			fc.pos[v.name] = int32(i)
		}
		if len(fc.pos) != len(fc.values) {
			d.Fail("facet %q repeats a value", field)
		}
		fc.fwd = readForward(d, n, len(fc.values))
		ix.facets[field] = fc
	}
	if len(ix.facets) != fields || ix.facets[domain.FacetCompany] != nil {
		d.Fail("facet fields repeated")
	}
	cf := &facet{values: make([]*value, len(ix.companies))} // companies go by id: no pos
	for i, c := range ix.companies {
		cf.values[i] = &c.value
	}
	cf.fwd = readForward(d, n, len(cf.values))
	ix.facets[domain.FacetCompany] = cf

	if k := d.Count(1); k != SalaryBuckets+1 && d.Err() == nil {
		d.Fail("%d salary buckets", k)
	}
	ix.salary = make([]*roaring.Bitmap, SalaryBuckets+1)
	for i := range ix.salary {
		ix.salary[i] = readBitmap(d, n)
	}
	ix.orders[domain.JobSortNewest] = &ordering{desc: true, key: ix.sortKeyOf(domain.JobSortNewest)}
	for _, s := range sorts[1:] {
		o := &ordering{docs: d.U32s(), desc: sortDesc(s), key: ix.sortKeyOf(s)}
		o.rank = inverse(d, o.docs, n)
		ix.orders[s] = o
	}
	ix.byID = d.U32s()
	inverse(d, ix.byID, n)
	ix.idsByteOrdered = d.Bool()
	if d.Err() != nil {
		return nil
	}
	ix.check(d)
	ix.all = roaring.New()
	ix.all.AddRange(0, uint64(n))
	ix.baseAll = ix.all
	ix.placeCompanies()
	if len(ix.companyPos) != len(ix.companies) {
		d.Fail("company ids repeated")
	}
	return ix
}

func readValue(d *wire.Reader, n uint32) value {
	v := value{name: d.String(), collate: int(d.I64())}
	v.docs = readBitmap(d, n)
	v.n = v.docs.GetCardinality()
	return v
}

// readForward reads a forward index of a field of values values over n
// jobs, checking that every reference is in range.
func readForward(d *wire.Reader, n uint32, values int) *forward {
	if !d.Bool() {
		return nil
	}
	f := &forward{}
	// rowsOK checks compressed rows of rows jobs over vals values.
	rowsOK := func(rows, vals int) {
		if len(f.offsets) != rows+1 || f.offsets[0] != 0 || int(f.offsets[rows]) != vals {
			d.Fail("forward rows: %d offsets for %d jobs, %d values", len(f.offsets), rows, vals)
			return
		}
		for k := range rows {
			if f.offsets[k] > f.offsets[k+1] {
				d.Fail("forward offsets descend at %d", k)
				return
			}
		}
	}
	switch form := d.Byte(); form {
	case formWide:
		f.offsets, f.wide = d.U32s(), d.U32s()
		rowsOK(int(n), len(f.wide))
		if slices.ContainsFunc(f.wide, func(v uint32) bool { return v >= uint32(values) }) {
			d.Fail("forward value out of range")
		}
	case formNarrow:
		f.offsets, f.narrow = d.U32s(), d.U16s()
		rowsOK(int(n), len(f.narrow))
	case formSingle:
		f.single = d.U16s()
		if len(f.single) != int(n) && d.Err() == nil {
			d.Fail("forward of %d jobs, %d", len(f.single), n)
		}
		multi := 0
		for _, v := range f.single {
			if v == many {
				multi++
			} else if int(v) > values {
				d.Fail("forward value out of range")
				break
			}
		}
		if d.Bool() {
			f.multi, f.offsets, f.narrow = d.U32s(), d.U32s(), d.U16s()
			rowsOK(len(f.multi), len(f.narrow))
		}
		if len(f.multi) != multi && d.Err() == nil {
			d.Fail("forward lists %d jobs of many values, marks %d", len(f.multi), multi)
		}
		for k, doc := range f.multi {
			if doc >= n || k > 0 && doc <= f.multi[k-1] || f.single[doc] != many {
				d.Fail("forward's job %d of many values", doc)
				break
			}
		}
	default:
		d.Fail("forward form %d", form)
	}
	if f.narrow != nil && slices.ContainsFunc(f.narrow, func(v uint16) bool { return int(v) >= values }) {
		d.Fail("forward value out of range")
	}
	return f
}

func readSalaryIndex(d *wire.Reader, values []float64, n uint32) *salaryIndex {
	s := &salaryIndex{values: values, bounds: d.F64s()}
	if len(s.bounds) > salaryLevels {
		d.Fail("%d salary levels", len(s.bounds))
		return s
	}
	if !slices.IsSorted(s.bounds) {
		d.Fail("salary levels out of order")
	}
	s.atLeast = make([]*roaring.Bitmap, len(s.bounds)+1)
	for i := range s.atLeast {
		s.atLeast[i] = readBitmap(d, n)
	}
	s.members = make([][]uint32, len(s.bounds))
	for i := range s.members {
		s.members[i] = d.U32s()
		if slices.ContainsFunc(s.members[i], func(j uint32) bool { return j >= n }) {
			d.Fail("salary level holds job %d of %d", i, n)
		}
	}
	s.known = readBitmap(d, n)
	return s
}

// inverse returns the positions of a permutation of the n jobs, or fails
// when docs is not one.
func inverse(d *wire.Reader, docs []uint32, n uint32) []uint32 {
	if len(docs) != int(n) {
		d.Fail("an order of %d jobs, %d", len(docs), n)
		return nil
	}
	const unset = ^uint32(0)
	rank := make([]uint32, n)
	for i := range rank {
		rank[i] = unset
	}
	for pos, doc := range docs {
		if doc >= n || rank[doc] != unset {
			d.Fail("an order is no permutation at %d", pos)
			return nil
		}
		rank[doc] = uint32(pos)
	}
	return rank
}

// check fails d unless the per-job arrays are of the n jobs and the ids'
// ends are in order.
func (ix *Index) check(d *wire.Reader) {
	n := int(ix.n)
	if len(ix.idEnd) != n || len(ix.posted) != n || len(ix.salMin) != n || len(ix.salMax) != n {
		d.Fail("per-job arrays not of %d jobs", n)
		return
	}
	last := uint32(0)
	for _, end := range ix.idEnd {
		if end < last {
			d.Fail("ids out of order")
			return
		}
		last = end
	}
	if int(last) != len(ix.ids) {
		d.Fail("ids of %d bytes, %d", last, len(ix.ids))
	}
}
