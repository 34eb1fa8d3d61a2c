package wire_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/wire"
)

var header = wire.Header{Magic: "TEST\x00", Version: 3, Key: []byte("key-1")}

// write makes a file of header with body's values.
func write(t *testing.T, h wire.Header, body func(w *wire.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := wire.NewWriter(&buf, h)
	body(w)
	n, err := w.Close()
	require.NoError(t, err)
	require.Equal(t, int64(buf.Len()), n)
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	data := write(t, header, func(w *wire.Writer) {
		w.Byte(7)
		w.Bool(true)
		w.Bool(false)
		w.Uvarint(1 << 40)
		w.Varint(-12345)
		w.U32(0xdeadbeef)
		w.U64(math.MaxUint64)
		w.I64(-1)
		w.F32(48.8566)
		w.Bytes([]byte("ids"))
		w.String("Zürich")
		w.String("")
		w.U16s([]uint16{1, 65535})
		w.U32s(make([]uint32, 20000)) // more than one scratch buffer
		w.I64s([]int64{-5, 5})
		w.F64s([]float64{math.Inf(1), 0.5})
		w.String("view")
	})
	r, err := wire.Open(data, header)
	require.NoError(t, err)
	assert.Equal(t, uint8(7), r.Byte())
	assert.True(t, r.Bool())
	assert.False(t, r.Bool())
	assert.Equal(t, uint64(1<<40), r.Uvarint())
	assert.Equal(t, int64(-12345), r.Varint())
	assert.Equal(t, uint32(0xdeadbeef), r.U32())
	assert.Equal(t, uint64(math.MaxUint64), r.U64())
	assert.Equal(t, int64(-1), r.I64())
	assert.Equal(t, float32(48.8566), r.F32())
	assert.Equal(t, []byte("ids"), r.Bytes())
	assert.Equal(t, "Zürich", r.String())
	assert.Equal(t, "", r.View())
	assert.Equal(t, []uint16{1, 65535}, r.U16s())
	assert.Len(t, r.U32s(), 20000)
	assert.Equal(t, []int64{-5, 5}, r.I64s())
	assert.Equal(t, []float64{math.Inf(1), 0.5}, r.F64s())
	assert.Equal(t, "view", r.View())
	assert.NoError(t, r.Done())
}

// TestOpenRefuses: another kind, version or key is ErrFormat; a file cut
// short or changed is ErrCorrupt.
func TestOpenRefuses(t *testing.T) {
	data := write(t, header, func(w *wire.Writer) { w.String("body") })
	for name, h := range map[string]wire.Header{
		"another magic":   {Magic: "TEST\x01", Version: 3, Key: []byte("key-1")},
		"another version": {Magic: "TEST\x00", Version: 4, Key: []byte("key-1")},
		"another key":     {Magic: "TEST\x00", Version: 3, Key: []byte("key-2")},
		"no key":          {Magic: "TEST\x00", Version: 3},
	} {
		_, err := wire.Open(data, h)
		assert.ErrorIs(t, err, wire.ErrFormat, name)
	}
	for cut := 1; cut < len(data)-len(header.Magic); cut++ {
		_, err := wire.Open(data[:len(data)-cut], header)
		assert.Error(t, err, "cut %d", cut)
	}
	for i := len(header.Magic) + 4 + 1 + len(header.Key); i < len(data); i++ {
		changed := bytes.Clone(data)
		changed[i] ^= 0x20
		_, err := wire.Open(changed, header)
		assert.ErrorIs(t, err, wire.ErrCorrupt, "byte %d changed", i)
	}
}

// TestReaderChecksLengths: a length past the end fails without
// allocating it, the first failure sticks, and bytes left over are an
// error.
func TestReaderChecksLengths(t *testing.T) {
	data := write(t, header, func(w *wire.Writer) {
		w.Uvarint(math.MaxInt64) // a count no body holds
		w.Write(binary.LittleEndian.AppendUint32(nil, 1))
	})
	r, err := wire.Open(data, header)
	require.NoError(t, err)
	assert.Empty(t, r.U32s(), "no slice of the count is made (it would not fit in memory)")
	assert.ErrorIs(t, r.Err(), wire.ErrCorrupt)
	assert.Zero(t, r.U32(), "nothing is read after a failure")
	assert.ErrorContains(t, r.Done(), "items of 4 bytes")

	data = write(t, header, func(w *wire.Writer) { w.U32(1); w.Byte(2) })
	r, err = wire.Open(data, header)
	require.NoError(t, err)
	r.U32()
	assert.ErrorContains(t, r.Done(), "1 bytes after the values")
	data = write(t, header, func(w *wire.Writer) { w.Byte(2) })
	r, _ = wire.Open(data, header)
	r.Bool()
	assert.ErrorContains(t, r.Err(), "bool 2")
}

// TestCompounds: string lists, maps, and an int32 out of its range.
func TestCompounds(t *testing.T) {
	m := map[string]int64{"x": 1, "y": -2}
	data := write(t, header, func(w *wire.Writer) {
		w.Strings([]string{"a", "bc"})
		w.Strings(nil)
		wire.WriteMap(w, m, w.String, w.Varint)
		w.StringSet(map[string]bool{"a": true, "b": false})
		w.StringMap(map[string]string{"k8s": "Kubernetes"})
		w.Varint(math.MaxInt32 + 1)
	})
	r, err := wire.Open(data, header)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "bc"}, r.Views())
	assert.Nil(t, r.Views(), "none is nil")
	assert.Equal(t, m, wire.ReadMap(r, r.View, r.Varint))
	assert.Equal(t, map[string]bool{"a": true, "b": false}, r.ViewSet())
	assert.Equal(t, map[string]string{"k8s": "Kubernetes"}, r.ViewMap())
	assert.Zero(t, r.Int32())
	assert.ErrorContains(t, r.Err(), "int32 out of range")
}

// TestTable: shared values are written once each and referred to by
// number; a number out of the table is a failure, not a panic.
func TestTable(t *testing.T) {
	a, b := new(int), new(int)
	var table wire.Table[*int]
	for _, p := range []*int{a, b, a} {
		table.Add(p)
	}
	assert.Equal(t, []*int{a, b}, table.Items, "each once, in the order first added")
	data := write(t, header, func(w *wire.Writer) {
		table.WriteRef(w, b)
		table.WriteRef(w, a)
		w.Uvarint(7)
	})
	r, err := wire.Open(data, header)
	require.NoError(t, err)
	x, y := new(int), new(int)
	refs := []*int{x, y}
	assert.Same(t, y, wire.ReadRef(r, refs))
	assert.Same(t, x, wire.ReadRef(r, refs))
	assert.Nil(t, wire.ReadRef(r, refs))
	assert.ErrorContains(t, r.Err(), "index 7 out of a table of 2")
}
