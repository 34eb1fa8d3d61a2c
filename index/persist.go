// Persistence: a base index written to a file and read back, to start without a build.

package index

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// The file format. Bump formatVersion whenever the layout below changes:
// ReadIndex reads its own version only.
//
//	header   magic "JOBSDIX\x00", formatVersion (u32)
//	body     the base's fields in the order of writeBody: numbers
//	         little-endian, strings and arrays prefixed with their length
//	         (u64), bitmaps in roaring's format prefixed with theirs
//	trailer  the body's length (u64), CRC-32C of header and body (u32)
//
// Maps are written in the order of their keys, so one index always makes
// the same bytes. Derived structures (every job set, value positions by
// name, company positions and trigrams, orders' ranks) are rebuilt on
// read.
const (
	formatMagic   = "JOBSDIX\x00"
	formatVersion = 2 // 2: the rates' digest after the version
	headerLen     = len(formatMagic) + 4
	trailerLen    = 8 + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat is ReadIndex's error for a file that is not an index file of
// this format version.
var ErrFormat = errors.New("index: not an index file of this format version")

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
	e := &encoder{w: bufio.NewWriterSize(w, 1<<20), crc: crc32.New(castagnoli), scratch: make([]byte, 64<<10)}
	e.Write([]byte(formatMagic))
	e.u32(formatVersion)
	start := e.n
	ix.writeBody(e)
	body := uint64(e.n - start)
	sum := e.crc.Sum32()
	e.u64(body)
	e.u32(sum)
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.n, e.err
}

func (ix *Index) writeBody(e *encoder) {
	e.i64(ix.version)
	e.str(ix.ratesDigest)
	e.u32(ix.n)
	e.bytes(ix.ids)
	e.u32s(ix.idEnd)
	e.i64s(ix.posted)
	e.bitmap(ix.undated)
	e.f64s(ix.salMin)
	e.f64s(ix.salMax)
	writeSalaryIndex(e, ix.byMin)
	writeSalaryIndex(e, ix.byMax)

	e.u64(uint64(len(ix.keys)))
	for _, k := range slices.Sorted(maps.Keys(ix.keys)) {
		e.str(k)
		e.bitmap(ix.keys[k])
	}

	e.u64(uint64(len(ix.companies)))
	for _, c := range ix.companies {
		e.i64(c.id)
		writeValue(e, &c.value)
		e.flag(c.logo != nil)
		if c.logo != nil {
			e.str(*c.logo)
		}
		e.str(c.slug)
	}
	// The facets but the company one, whose values are the companies.
	fields := slices.DeleteFunc(slices.Sorted(maps.Keys(ix.facets)), func(f string) bool { return f == domain.FacetCompany })
	e.u64(uint64(len(fields)))
	for _, field := range fields {
		fc := ix.facets[field]
		e.str(field)
		e.u64(uint64(len(fc.values)))
		for _, v := range fc.values {
			writeValue(e, v)
		}
		writeForward(e, fc.fwd)
	}
	writeForward(e, ix.facets[domain.FacetCompany].fwd)

	e.u64(uint64(len(ix.salary)))
	for _, b := range ix.salary {
		e.bitmap(b)
	}
	for _, s := range sorts[1:] { // the default order is the numbering
		e.u32s(ix.orders[s].docs)
	}
	e.u32s(ix.byID)
	e.flag(ix.idsByteOrdered)
}

func writeValue(e *encoder, v *value) {
	e.str(v.name)
	e.i64(int64(v.collate))
	e.bitmap(v.docs)
}

func writeForward(e *encoder, f *forward) {
	e.flag(f != nil)
	switch {
	case f == nil:
	case f.wide != nil:
		e.u8(formWide)
		e.u32s(f.offsets)
		e.u32s(f.wide)
	case f.single == nil:
		e.u8(formNarrow)
		e.u32s(f.offsets)
		e.u16s(f.narrow)
	default:
		e.u8(formSingle)
		e.u16s(f.single)
		e.flag(f.multi != nil)
		if f.multi != nil {
			e.u32s(f.multi)
			e.u32s(f.offsets)
			e.u16s(f.narrow)
		}
	}
}

func writeSalaryIndex(e *encoder, s *salaryIndex) {
	e.f64s(s.bounds)
	for _, b := range s.atLeast { // len(bounds)+1 of them
		e.bitmap(b)
	}
	for _, m := range s.members { // len(bounds) of them
		e.u32s(m)
	}
	e.bitmap(s.known)
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
	if len(data) < headerLen || string(data[:len(formatMagic)]) != formatMagic {
		return nil, fmt.Errorf("%w: no index file header", ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(data[len(formatMagic):]); v != formatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrFormat, v, formatVersion)
	}
	if len(data) < headerLen+trailerLen {
		return nil, fmt.Errorf("%w: truncated", ErrCorrupt)
	}
	end := len(data) - trailerLen
	body := binary.LittleEndian.Uint64(data[end:])
	if body != uint64(end-headerLen) {
		return nil, fmt.Errorf("%w: a body of %d bytes, %d read (truncated?)", ErrCorrupt, body, end-headerLen)
	}
	if sum := binary.LittleEndian.Uint32(data[end+8:]); sum != crc32.Checksum(data[:end], castagnoli) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	// The checksum held: what follows guards against a writer's fault,
	// and a panic of the decoding is an error like any other.
	defer func() {
		if p := recover(); p != nil {
			ix, err = nil, fmt.Errorf("%w: recovered: %v", ErrCorrupt, p)
		}
	}()
	d := &decoder{b: data[headerLen:end]}
	ix = readBody(d)
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes after the index", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
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

func readBody(d *decoder) *Index {
	ix := &Index{facets: map[string]*facet{}, orders: map[domain.JobSort]*ordering{}, histRate: 1}
	ix.version = d.i64()
	// The salaries are in euros at the rates of this digest: the reader
	// gives the index those rates (UseRates), or builds anew.
	ix.ratesDigest = d.str()
	ix.n = d.u32()
	n := ix.n
	ix.ids = d.bytes()
	ix.idEnd = d.u32s()
	ix.posted = d.i64s()
	ix.undated = d.bitmap(n)
	ix.salMin = d.f64s()
	ix.salMax = d.f64s()
	ix.byMin = readSalaryIndex(d, ix.salMin, n)
	ix.byMax = readSalaryIndex(d, ix.salMax, n)

	keys := d.count(1)
	ix.keys = make(map[string]*roaring.Bitmap, keys)
	for range keys {
		k := d.str()
		ix.keys[k] = d.bitmap(n)
	}

	companies := d.count(1)
	ix.companies = make([]*company, 0, companies)
	for range companies {
		c := &company{id: d.i64()}
		c.value = readValue(d, n)
		c.lower = strings.ToLower(c.name)
		if d.flag() {
			logo := d.str()
			c.logo = &logo
		}
		c.slug = d.str()
		ix.companies = append(ix.companies, c)
	}
	fields := d.count(1)
	for range fields {
		field := d.str()
		values := d.count(1)
		fc := &facet{values: make([]*value, 0, values), pos: make(map[string]int32, values)}
		for i := range values {
			v := readValue(d, n)
			fc.values = append(fc.values, &v)
			fc.pos[v.name] = int32(i)
		}
		if len(fc.pos) != len(fc.values) {
			d.fail("facet %q repeats a value", field)
		}
		fc.fwd = readForward(d, n, len(fc.values))
		ix.facets[field] = fc
	}
	if len(ix.facets) != fields || ix.facets[domain.FacetCompany] != nil {
		d.fail("facet fields repeated")
	}
	cf := &facet{values: make([]*value, len(ix.companies))} // companies go by id: no pos
	for i, c := range ix.companies {
		cf.values[i] = &c.value
	}
	cf.fwd = readForward(d, n, len(cf.values))
	ix.facets[domain.FacetCompany] = cf

	if k := d.count(1); k != SalaryBuckets+1 && d.err == nil {
		d.fail("%d salary buckets", k)
	}
	ix.salary = make([]*roaring.Bitmap, SalaryBuckets+1)
	for i := range ix.salary {
		ix.salary[i] = d.bitmap(n)
	}
	ix.orders[domain.JobSortNewest] = &ordering{desc: true, key: ix.sortKeyOf(domain.JobSortNewest)}
	for _, s := range sorts[1:] {
		o := &ordering{docs: d.u32s(), desc: sortDesc(s), key: ix.sortKeyOf(s)}
		o.rank = inverse(d, o.docs, n)
		ix.orders[s] = o
	}
	ix.byID = d.u32s()
	inverse(d, ix.byID, n)
	ix.idsByteOrdered = d.flag()
	if d.err != nil {
		return nil
	}
	ix.check(d)
	ix.all = roaring.New()
	ix.all.AddRange(0, uint64(n))
	ix.baseAll = ix.all
	ix.placeCompanies()
	if len(ix.companyPos) != len(ix.companies) {
		d.fail("company ids repeated")
	}
	return ix
}

func readValue(d *decoder, n uint32) value {
	v := value{name: d.str(), collate: int(d.i64())}
	v.docs = d.bitmap(n)
	v.n = v.docs.GetCardinality()
	return v
}

// readForward reads a forward index of a field of values values over n
// jobs, checking that every reference is in range.
func readForward(d *decoder, n uint32, values int) *forward {
	if !d.flag() {
		return nil
	}
	f := &forward{}
	// rowsOK checks compressed rows of rows jobs over vals values.
	rowsOK := func(rows, vals int) {
		if len(f.offsets) != rows+1 || f.offsets[0] != 0 || int(f.offsets[rows]) != vals {
			d.fail("forward rows: %d offsets for %d jobs, %d values", len(f.offsets), rows, vals)
			return
		}
		for k := range rows {
			if f.offsets[k] > f.offsets[k+1] {
				d.fail("forward offsets descend at %d", k)
				return
			}
		}
	}
	switch form := d.u8(); form {
	case formWide:
		f.offsets, f.wide = d.u32s(), d.u32s()
		rowsOK(int(n), len(f.wide))
		if slices.ContainsFunc(f.wide, func(v uint32) bool { return v >= uint32(values) }) {
			d.fail("forward value out of range")
		}
	case formNarrow:
		f.offsets, f.narrow = d.u32s(), d.u16s()
		rowsOK(int(n), len(f.narrow))
	case formSingle:
		f.single = d.u16s()
		if len(f.single) != int(n) && d.err == nil {
			d.fail("forward of %d jobs, %d", len(f.single), n)
		}
		multi := 0
		for _, v := range f.single {
			if v == many {
				multi++
			} else if int(v) > values {
				d.fail("forward value out of range")
				break
			}
		}
		if d.flag() {
			f.multi, f.offsets, f.narrow = d.u32s(), d.u32s(), d.u16s()
			rowsOK(len(f.multi), len(f.narrow))
		}
		if len(f.multi) != multi && d.err == nil {
			d.fail("forward lists %d jobs of many values, marks %d", len(f.multi), multi)
		}
		for k, doc := range f.multi {
			if doc >= n || k > 0 && doc <= f.multi[k-1] || f.single[doc] != many {
				d.fail("forward's job %d of many values", doc)
				break
			}
		}
	default:
		d.fail("forward form %d", form)
	}
	if f.narrow != nil && slices.ContainsFunc(f.narrow, func(v uint16) bool { return int(v) >= values }) {
		d.fail("forward value out of range")
	}
	return f
}

func readSalaryIndex(d *decoder, values []float64, n uint32) *salaryIndex {
	s := &salaryIndex{values: values, bounds: d.f64s()}
	if len(s.bounds) > salaryLevels {
		d.fail("%d salary levels", len(s.bounds))
		return s
	}
	if !slices.IsSorted(s.bounds) {
		d.fail("salary levels out of order")
	}
	s.atLeast = make([]*roaring.Bitmap, len(s.bounds)+1)
	for i := range s.atLeast {
		s.atLeast[i] = d.bitmap(n)
	}
	s.members = make([][]uint32, len(s.bounds))
	for i := range s.members {
		s.members[i] = d.u32s()
		if slices.ContainsFunc(s.members[i], func(j uint32) bool { return j >= n }) {
			d.fail("salary level holds job %d of %d", i, n)
		}
	}
	s.known = d.bitmap(n)
	return s
}

// inverse returns the positions of a permutation of the n jobs, or fails
// when docs is not one.
func inverse(d *decoder, docs []uint32, n uint32) []uint32 {
	if len(docs) != int(n) {
		d.fail("an order of %d jobs, %d", len(docs), n)
		return nil
	}
	const unset = ^uint32(0)
	rank := make([]uint32, n)
	for i := range rank {
		rank[i] = unset
	}
	for pos, doc := range docs {
		if doc >= n || rank[doc] != unset {
			d.fail("an order is no permutation at %d", pos)
			return nil
		}
		rank[doc] = uint32(pos)
	}
	return rank
}

// check fails d unless the per-job arrays are of the n jobs and the ids'
// ends are in order.
func (ix *Index) check(d *decoder) {
	n := int(ix.n)
	if len(ix.idEnd) != n || len(ix.posted) != n || len(ix.salMin) != n || len(ix.salMax) != n {
		d.fail("per-job arrays not of %d jobs", n)
		return
	}
	last := uint32(0)
	for _, end := range ix.idEnd {
		if end < last {
			d.fail("ids out of order")
			return
		}
		last = end
	}
	if int(last) != len(ix.ids) {
		d.fail("ids of %d bytes, %d", last, len(ix.ids))
	}
}
