// Package wire is the layout of jobsd's binary files, the index it saves
// (package index) and the normalizer it compiles from the reference data
// (package normalize): a header, a body of values, a trailer.
//
//	header   the kind's magic string, its format version (u32), and a key
//	         the reader expects back (a length and its bytes; empty for
//	         none)
//	body     values: varints, little-endian numbers, byte strings and
//	         arrays prefixed with their length (a uvarint)
//	trailer  the body's length (u64) and the CRC-32C of all before it (u32)
//
// A Writer writes one through a buffer, a Reader reads one held in memory
// once its header and trailer held. Both keep their first error: later
// calls do nothing (writes) or return zero values (reads), and the caller
// checks once at the end. A Reader checks every length against the bytes
// left before it allocates, so a damaged file is an error, never a huge
// allocation.
package wire

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"reflect"
	"unsafe"
)

// ErrFormat is Open's error for a file of another kind, format version or
// key.
var ErrFormat = errors.New("not a file of this kind, format version and key")

// ErrCorrupt is the error of a truncated or corrupt file: its length or
// checksum, or a value found wrong while reading it (wrapped with the
// first thing found wrong).
var ErrCorrupt = errors.New("truncated or corrupt file")

// Header names a kind of file: the magic string it starts with, the
// version of its format, and the key of what it holds (a hash of what it
// was made from; empty when the kind has none).
type Header struct {
	Magic   string
	Version uint32
	Key     []byte
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const trailerLen = 8 + 4

// Writer writes a file: NewWriter writes its header, the methods its body,
// Close its trailer.
type Writer struct {
	w         *bufio.Writer
	crc       hash.Hash32
	n         int64 // bytes written
	bodyStart int64
	err       error
	scratch   []byte
}

// NewWriter starts a file of the header's kind on w.
func NewWriter(w io.Writer, h Header) *Writer {
	e := &Writer{w: bufio.NewWriterSize(w, 1<<20), crc: crc32.New(castagnoli), scratch: make([]byte, 64<<10)}
	e.Write([]byte(h.Magic))
	e.U32(h.Version)
	e.Bytes(h.Key)
	e.bodyStart = e.n
	return e
}

// Write writes p as it is (for writers of their own formats, such as a
// bitmap's WriteTo); it makes the Writer an io.Writer.
func (e *Writer) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	k, err := e.w.Write(p)
	e.crc.Write(p[:k])
	e.n += int64(k)
	e.err = err
	return k, err
}

// Err returns the first error of a write.
func (e *Writer) Err() error { return e.err }

// Close writes the trailer and flushes the buffer, and returns the bytes
// written and the first error. It does not close the underlying writer.
func (e *Writer) Close() (int64, error) {
	body := uint64(e.n - e.bodyStart)
	sum := e.crc.Sum32()
	e.U64(body)
	e.U32(sum)
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.n, e.err
}

// Byte writes one byte.
func (e *Writer) Byte(v uint8) { e.Write(append(e.scratch[:0], v)) }

// Bool writes 1 or 0.
func (e *Writer) Bool(v bool) {
	if v {
		e.Byte(1)
	} else {
		e.Byte(0)
	}
}

// Uvarint writes an unsigned varint.
func (e *Writer) Uvarint(v uint64) { e.Write(binary.AppendUvarint(e.scratch[:0], v)) }

// Varint writes a signed varint.
func (e *Writer) Varint(v int64) { e.Write(binary.AppendVarint(e.scratch[:0], v)) }

// U32 writes 4 bytes, little-endian.
func (e *Writer) U32(v uint32) { e.Write(binary.LittleEndian.AppendUint32(e.scratch[:0], v)) }

// U64 writes 8 bytes, little-endian.
func (e *Writer) U64(v uint64) { e.Write(binary.LittleEndian.AppendUint64(e.scratch[:0], v)) }

// I64 writes an int64 as U64.
func (e *Writer) I64(v int64) { e.U64(uint64(v)) }

// F32 writes a float32's bits as U32.
func (e *Writer) F32(v float32) { e.U32(math.Float32bits(v)) }

// Bytes writes a length and the bytes.
func (e *Writer) Bytes(b []byte) {
	e.Uvarint(uint64(len(b)))
	e.Write(b)
}

// String writes a length and the string's bytes.
func (e *Writer) String(s string) {
	e.Uvarint(uint64(len(s)))
	e.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// putAll writes a length and fixed-size numbers, converted in chunks of
// the scratch buffer.
func putAll[T any](e *Writer, s []T, size int, put func([]byte, T)) {
	e.Uvarint(uint64(len(s)))
	per := len(e.scratch) / size
	for len(s) > 0 && e.err == nil {
		k := min(per, len(s))
		for i, v := range s[:k] {
			put(e.scratch[i*size:], v)
		}
		e.Write(e.scratch[:k*size])
		s = s[k:]
	}
}

// U16s writes a length and 2-byte numbers.
func (e *Writer) U16s(s []uint16) { putAll(e, s, 2, binary.LittleEndian.PutUint16) }

// U32s writes a length and 4-byte numbers.
func (e *Writer) U32s(s []uint32) { putAll(e, s, 4, binary.LittleEndian.PutUint32) }

// I64s writes a length and 8-byte numbers.
func (e *Writer) I64s(s []int64) {
	putAll(e, s, 8, func(b []byte, v int64) { binary.LittleEndian.PutUint64(b, uint64(v)) })
}

// F64s writes a length and the numbers' 8-byte bits.
func (e *Writer) F64s(s []float64) {
	putAll(e, s, 8, func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) })
}

// Reader reads the body of a file held in memory.
type Reader struct {
	b   []byte
	s   string // b's bytes, for views
	err error
}

// Open checks a whole file of the header's kind (magic, version, key;
// else ErrFormat) and its trailer (length and checksum; else ErrCorrupt),
// and returns a Reader of its body. The Reader keeps data, which must not
// change after: the strings View returns are slices of it.
func Open(data []byte, h Header) (*Reader, error) {
	head := &Reader{b: data}
	if len(data) < len(h.Magic) || string(data[:len(h.Magic)]) != h.Magic {
		return nil, fmt.Errorf("%w: not a file of its kind", ErrFormat)
	}
	head.b = data[len(h.Magic):]
	if v := head.U32(); head.err != nil || v != h.Version {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrFormat, v, h.Version)
	}
	if k := head.Take(head.Count(1)); head.err != nil || !bytes.Equal(k, h.Key) {
		return nil, fmt.Errorf("%w: another key", ErrFormat)
	}
	start := len(data) - len(head.b)
	if len(head.b) < trailerLen {
		return nil, fmt.Errorf("%w: truncated", ErrCorrupt)
	}
	end := len(data) - trailerLen
	if body := binary.LittleEndian.Uint64(data[end:]); body != uint64(end-start) {
		return nil, fmt.Errorf("%w: a body of %d bytes, %d read (truncated?)", ErrCorrupt, body, end-start)
	}
	if sum := binary.LittleEndian.Uint32(data[end+8:]); sum != crc32.Checksum(data[:end], castagnoli) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	body := data[start:end:end]
	r := &Reader{b: body}
	if len(body) > 0 {
		r.s = unsafe.String(&body[0], len(body))
	}
	return r, nil
}

// Fail records the first thing found wrong, as ErrCorrupt.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

// Err returns the first thing found wrong.
func (r *Reader) Err() error { return r.err }

// Done returns the first thing found wrong, or an error when bytes are
// left after the values read.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) > 0 {
		r.Fail("%d bytes after the values", len(r.b))
	}
	return r.err
}

// Take returns the next k bytes, a slice of the file's.
func (r *Reader) Take(k int) []byte {
	if r.err != nil {
		return nil
	}
	if k < 0 || k > len(r.b) {
		r.Fail("%d bytes needed, %d left", k, len(r.b))
		return nil
	}
	p := r.b[:k:k]
	r.b = r.b[k:]
	return p
}

// Count reads a length of items of at least size bytes each, and fails
// when the bytes left cannot hold them.
func (r *Reader) Count(size int) int {
	k := r.Uvarint()
	if r.err == nil && k > uint64(len(r.b))/uint64(size) {
		r.Fail("%d items of %d bytes, %d bytes left", k, size, len(r.b))
		return 0
	}
	return int(k)
}

// Byte reads one byte.
func (r *Reader) Byte() uint8 {
	if p := r.Take(1); p != nil {
		return p[0]
	}
	return 0
}

// Bool reads 1 or 0; anything else fails.
func (r *Reader) Bool() bool {
	switch v := r.Byte(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.Fail("bool %d", v)
		return false
	}
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.Fail("bad varint")
		return 0
	}
	r.b = r.b[k:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.Fail("bad varint")
		return 0
	}
	r.b = r.b[k:]
	return v
}

// U32 reads 4 bytes, little-endian.
func (r *Reader) U32() uint32 {
	if p := r.Take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

// U64 reads 8 bytes, little-endian.
func (r *Reader) U64() uint64 {
	if p := r.Take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// I64 reads an int64 written by I64.
func (r *Reader) I64() int64 { return int64(r.U64()) }

// F32 reads a float32 written by F32.
func (r *Reader) F32() float32 { return math.Float32frombits(r.U32()) }

// Bytes reads a length and that many bytes, copied.
func (r *Reader) Bytes() []byte { return bytes.Clone(r.Take(r.Count(1))) }

// String reads a length and that many bytes as a string of its own.
func (r *Reader) String() string { return string(r.Take(r.Count(1))) }

// View reads a string as String does, without copying it: the string is a
// slice of the file's bytes, which it keeps alive. For readers that keep
// most of what they read, so that the strings share one copy of the body.
func (r *Reader) View() string {
	k := r.Count(1)
	p := r.Take(k)
	if p == nil {
		return ""
	}
	at := len(r.s) - len(r.b) - k
	return r.s[at : at+k]
}

// The readers of number arrays below are written out, each with its
// conversion inlined: a saved index holds arrays of a million numbers.

// U16s reads a length and 2-byte numbers.
func (r *Reader) U16s() []uint16 {
	k := r.Count(2)
	p, out := r.Take(2*k), make([]uint16, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(p[2*i:])
	}
	return out
}

// U32s reads a length and 4-byte numbers.
func (r *Reader) U32s() []uint32 {
	k := r.Count(4)
	p, out := r.Take(4*k), make([]uint32, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(p[4*i:])
	}
	return out
}

// I64s reads a length and 8-byte numbers.
func (r *Reader) I64s() []int64 {
	k := r.Count(8)
	p, out := r.Take(8*k), make([]int64, k)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return out
}

// F64s reads a length and 8-byte numbers' bits.
func (r *Reader) F64s() []float64 {
	k := r.Count(8)
	p, out := r.Take(8*k), make([]float64, k)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return out
}

// index reads a reference into a table of n entries, -1 (and a failure)
// when it is out of the table.
func (r *Reader) index(n int) int {
	i := r.Uvarint()
	if i >= uint64(n) {
		r.Fail("index %d out of a table of %d", i, n)
		return -1
	}
	return int(i)
}

// Table numbers the values a file holds once and refers to by number
// (pointers that several structures share), in the order they are first
// added; a reader rebuilds the sharing with ReadRef.
type Table[T comparable] struct {
	// Items are the values in the order of their numbers.
	Items []T
	index map[T]uint32
}

// Add numbers v unless it has a number.
func (t *Table[T]) Add(v T) {
	if t.index == nil {
		t.index = map[T]uint32{}
	}
	if _, ok := t.index[v]; !ok {
		t.index[v] = uint32(len(t.Items))
		t.Items = append(t.Items, v)
	}
}

// WriteRef writes the number of v, which Add numbered.
func (t *Table[T]) WriteRef(e *Writer, v T) { e.Uvarint(uint64(t.index[v])) }

// ReadRef reads a number WriteRef wrote and returns that value of refs (the
// values read back, in the table's order); the zero value, and a failure,
// for a number out of it.
func ReadRef[T any](r *Reader, refs []T) T {
	if i := r.index(len(refs)); i >= 0 {
		return refs[i]
	}
	var zero T
	return zero
}

// Layout returns a signature of the fields of the struct types of values
// (names and types): a codec's test compares it with the one the codec was
// written for, so that a field added to a type a file holds fails until
// the codec writes it and its format version is raised.
func Layout(values ...any) string {
	h := sha256.New()
	for _, v := range values {
		rt := reflect.TypeOf(v)
		fmt.Fprintf(h, "%s{", rt.Name())
		for i := range rt.NumField() {
			fmt.Fprintf(h, "%s %s;", rt.Field(i).Name, rt.Field(i).Type)
		}
		fmt.Fprint(h, "}\n")
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Strings writes a length and each string.
func (e *Writer) Strings(s []string) {
	e.Uvarint(uint64(len(s)))
	for _, x := range s {
		e.String(x)
	}
}

// Views reads strings Strings wrote, as View reads each; none is nil.
func (r *Reader) Views() []string {
	n := r.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.View()
	}
	return out
}

// Int32 reads a varint that must fit an int32.
func (r *Reader) Int32() int32 {
	x := r.Varint()
	if x < math.MinInt32 || x > math.MaxInt32 {
		r.Fail("int32 out of range")
		return 0
	}
	return int32(x)
}

// WriteMap writes a length and each key and value of m, in the map's
// order (a reader builds a map again; the bytes differ between writes).
func WriteMap[K comparable, V any](e *Writer, m map[K]V, key func(K), val func(V)) {
	e.Uvarint(uint64(len(m)))
	for k, v := range m {
		key(k)
		val(v)
	}
}

// ReadMap reads a map WriteMap wrote, each key and value with key and val.
func ReadMap[K comparable, V any](r *Reader, key func() K, val func() V) map[K]V {
	n := r.Count(1)
	m := make(map[K]V, n)
	for range n {
		k := key()
		m[k] = val()
		if r.err != nil {
			break
		}
	}
	return m
}

// StringSet writes a set of strings (a map to true or false).
func (e *Writer) StringSet(m map[string]bool) { WriteMap(e, m, e.String, e.Bool) }

// StringMap writes a map of strings.
func (e *Writer) StringMap(m map[string]string) { WriteMap(e, m, e.String, e.String) }

// ViewSet reads a StringSet, its strings as View reads them.
func (r *Reader) ViewSet() map[string]bool { return ReadMap(r, r.View, r.Bool) }

// ViewMap reads a StringMap, its strings as View reads them.
func (r *Reader) ViewMap() map[string]string { return ReadMap(r, r.View, r.View) }
