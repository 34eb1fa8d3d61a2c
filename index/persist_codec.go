// Persistence of bitmaps: roaring's format inside package wire's file.

package index

import (
	"bytes"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/internal/wire"
)

// writeBitmap writes a bitmap in roaring's format, prefixed with its
// length.
func writeBitmap(e *wire.Writer, b *roaring.Bitmap) {
	e.Uvarint(b.GetSerializedSizeInBytes())
	if e.Err() == nil {
		_, _ = b.WriteTo(e) // an error sticks in e
	}
}

// readBitmap reads a bitmap writeBitmap wrote whose values are all below
// n: it must take exactly its length.
func readBitmap(d *wire.Reader, n uint32) *roaring.Bitmap {
	p := d.Take(d.Count(1))
	b := roaring.New()
	if d.Err() != nil {
		return b
	}
	if read, err := b.ReadFrom(bytes.NewReader(p)); err != nil || read != int64(len(p)) {
		d.Fail("bitmap of %d bytes read as %d: %v", len(p), read, err)
		return roaring.New() // b may be left broken
	}
	if !b.IsEmpty() && b.Maximum() >= n {
		d.Fail("bitmap holds %d, of %d jobs", b.Maximum(), n)
	}
	return b
}
