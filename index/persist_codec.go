// Persistence codec: the little-endian primitives WriteTo writes and ReadIndex reads back.

package index

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"math"

	"github.com/RoaringBitmap/roaring/v2"
)

// ErrCorrupt is ReadIndex's error for a truncated or corrupt index file
// (wrapped with the first thing found wrong).
var ErrCorrupt = errors.New("index: corrupt index file")

// encoder writes the file's values through a buffer, summing every byte
// into crc and counting them. Its first error sticks: later writes do
// nothing, and the caller checks err once at the end.
type encoder struct {
	w       *bufio.Writer
	crc     hash.Hash32
	n       int64
	err     error
	scratch []byte
}

// Write makes the encoder an io.Writer, for roaring's WriteTo.
func (e *encoder) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	k, err := e.w.Write(p)
	e.crc.Write(p[:k])
	e.n += int64(k)
	e.err = err
	return k, err
}

func (e *encoder) u8(v uint8)   { e.Write([]byte{v}) }
func (e *encoder) u32(v uint32) { e.Write(binary.LittleEndian.AppendUint32(e.scratch[:0], v)) }
func (e *encoder) u64(v uint64) { e.Write(binary.LittleEndian.AppendUint64(e.scratch[:0], v)) }
func (e *encoder) i64(v int64)  { e.u64(uint64(v)) }

func (e *encoder) flag(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

// bytes writes a length-prefixed byte string.
func (e *encoder) bytes(b []byte) {
	e.u64(uint64(len(b)))
	e.Write(b)
}

func (e *encoder) str(s string) {
	e.u64(uint64(len(s)))
	e.Write([]byte(s))
}

// putAll writes a length-prefixed array of fixed-size numbers, converted
// in chunks of scratch.
func putAll[T any](e *encoder, s []T, size int, put func([]byte, T)) {
	e.u64(uint64(len(s)))
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

func (e *encoder) u16s(s []uint16) { putAll(e, s, 2, binary.LittleEndian.PutUint16) }
func (e *encoder) u32s(s []uint32) { putAll(e, s, 4, binary.LittleEndian.PutUint32) }
func (e *encoder) i64s(s []int64) {
	putAll(e, s, 8, func(b []byte, v int64) { binary.LittleEndian.PutUint64(b, uint64(v)) })
}
func (e *encoder) f64s(s []float64) {
	putAll(e, s, 8, func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) })
}

// bitmap writes a bitmap in roaring's format, prefixed with its length.
func (e *encoder) bitmap(b *roaring.Bitmap) {
	e.u64(b.GetSerializedSizeInBytes())
	if e.err == nil {
		if _, err := b.WriteTo(e); err != nil && e.err == nil {
			e.err = err
		}
	}
}

// decoder reads values from an in-memory body whose checksum held. Every
// length is checked against the bytes left before anything is allocated,
// so a bad file gives an error, never a huge allocation. Its first error
// sticks: later reads return zero values.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

// take returns the next k bytes.
func (d *decoder) take(k uint64) []byte {
	if d.err != nil {
		return nil
	}
	if k > uint64(len(d.b)) {
		d.fail("%d bytes needed, %d left", k, len(d.b))
		return nil
	}
	p := d.b[:k:k]
	d.b = d.b[k:]
	return p
}

func (d *decoder) u8() uint8 {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *decoder) i64() int64 { return int64(d.u64()) }

func (d *decoder) flag() bool {
	switch v := d.u8(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		d.fail("flag %d", v)
		return false
	}
}

// count reads a length prefix of items of size bytes each, at most the
// bytes left allow.
func (d *decoder) count(size int) int {
	k := d.u64()
	if d.err == nil && k > uint64(len(d.b))/uint64(size) {
		d.fail("%d items of %d bytes, %d bytes left", k, size, len(d.b))
		return 0
	}
	return int(k)
}

func (d *decoder) bytes() []byte {
	return append([]byte(nil), d.take(uint64(d.count(1)))...)
}

func (d *decoder) str() string { return string(d.take(uint64(d.count(1)))) }

func (d *decoder) u16s() []uint16 {
	k := d.count(2)
	p, out := d.take(2*uint64(k)), make([]uint16, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(p[2*i:])
	}
	return out
}

func (d *decoder) u32s() []uint32 {
	k := d.count(4)
	p, out := d.take(4*uint64(k)), make([]uint32, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(p[4*i:])
	}
	return out
}

func (d *decoder) i64s() []int64 {
	k := d.count(8)
	p, out := d.take(8*uint64(k)), make([]int64, k)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return out
}

func (d *decoder) f64s() []float64 {
	k := d.count(8)
	p, out := d.take(8*uint64(k)), make([]float64, k)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return out
}

// bitmap reads a length-prefixed bitmap whose values are all below n: it
// must take exactly its length.
func (d *decoder) bitmap(n uint32) *roaring.Bitmap {
	p := d.take(uint64(d.count(1)))
	b := roaring.New()
	if d.err != nil {
		return b
	}
	if read, err := b.ReadFrom(bytes.NewReader(p)); err != nil || read != int64(len(p)) {
		d.fail("bitmap of %d bytes read as %d: %v", len(p), read, err)
		return roaring.New() // b may be left broken
	}
	if !b.IsEmpty() && b.Maximum() >= n {
		d.fail("bitmap holds %d, of %d jobs", b.Maximum(), n)
	}
	return b
}
