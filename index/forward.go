// Forward index: each job's values of a facet field, to count the values of a few jobs.

package index

import (
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// forwardMinValues is how many values a facet field needs for a forward
// index. With fewer, intersecting each value's bitmap with the filter costs
// little; with more, a selective filter would intersect every value before
// the top ones are known.
const forwardMinValues = 8

// forward lists each job's values of one facet field (positions in the
// field's values), in the smallest of three forms:
//   - single: a field of one value a job at most keeps it in single
//     (position + 1, 0 for none): 2 bytes a job;
//   - single with exceptions: when at most a quarter of the jobs have more
//     than one value (locations, visas), those jobs are marked many in
//     single and listed in multi, their values compressed-row style:
//     multi[k]'s are narrow[offsets[k]:offsets[k+1]];
//   - rows: otherwise (skills) every job's, job d's at
//     narrow[offsets[d]:offsets[d+1]], or wide for fields of 65,535 values
//     or more.
//
// The forms keep the index's heap small at a million jobs: 2-byte
// positions, and offsets only for the jobs that need them, rather than a
// 4-byte position and an offset for every job of every multi-valued field.
type forward struct {
	single  []uint16
	multi   []uint32
	offsets []uint32
	narrow  []uint16
	wide    []uint32
}

// many marks, in forward.single, a job listed in forward.multi.
const many = math.MaxUint16

func newForward(vs []*value, n uint32) *forward {
	per := make([]uint8, n) // values a job, up to 2
	for _, v := range vs {
		v.docs.Iterate(func(d uint32) bool {
			per[d] = min(per[d]+1, 2)
			return true
		})
	}
	var multi []uint32
	for d, k := range per {
		if k > 1 {
			multi = append(multi, uint32(d))
		}
	}
	f := &forward{}
	switch {
	case len(vs) >= many:
		f.offsets, f.wide = rows[uint32](vs, n, nil)
		return f
	case len(multi) > int(n)/4:
		f.offsets, f.narrow = rows[uint16](vs, n, nil)
		return f
	}
	f.single = make([]uint16, n)
	for i, v := range vs {
		v.docs.Iterate(func(d uint32) bool {
			if per[d] > 1 {
				f.single[d] = many
			} else {
				f.single[d] = uint16(i + 1)
			}
			return true
		})
	}
	if len(multi) > 0 {
		f.multi = multi
		f.offsets, f.narrow = rows[uint16](vs, n, multi)
	}
	return f
}

// rows lays out the values of the jobs of only (every job when only is
// nil) compressed-row style: the k-th job's values are
// vals[offsets[k]:offsets[k+1]].
func rows[T uint16 | uint32](vs []*value, n uint32, only []uint32) ([]uint32, []T) {
	row := func(d uint32) (int, bool) { return int(d), true }
	rowsN := int(n)
	if only != nil {
		rowsN = len(only)
		row = func(d uint32) (int, bool) { return slices.BinarySearch(only, d) }
	}
	offsets := make([]uint32, rowsN+1)
	for _, v := range vs {
		v.docs.Iterate(func(d uint32) bool {
			if k, ok := row(d); ok {
				offsets[k+1]++
			}
			return true
		})
	}
	for k := range rowsN {
		offsets[k+1] += offsets[k]
	}
	vals := make([]T, offsets[rowsN])
	fill := slices.Clone(offsets[:rowsN])
	for i, v := range vs {
		v.docs.Iterate(func(d uint32) bool {
			if k, ok := row(d); ok {
				vals[fill[k]] = T(i)
				fill[k]++
			}
			return true
		})
	}
	return offsets, vals
}

// singleOnly reports whether every job has one value at most, each in
// single (the company facet's form).
func (f *forward) singleOnly() bool { return f.single != nil && f.multi == nil }

// seek returns the position of d in the ascending list, looking from
// from: a few steps, then a binary search of the rest.
func seek(list []uint32, from int, d uint32) int {
	for end := min(from+8, len(list)); from < end; from++ {
		if list[from] >= d {
			return from
		}
	}
	at, _ := slices.BinarySearch(list[from:], d)
	return from + at
}

// sizeInBytes is the forward index's memory.
func (f *forward) sizeInBytes() uint64 {
	return 2*uint64(len(f.single)+len(f.narrow)) + 4*uint64(len(f.multi)+len(f.offsets)+len(f.wide))
}

// count returns how many of docs below end (the jobs it indexes) have each
// value.
func (f *forward) count(docs *roaring.Bitmap, values int, end uint32) []uint32 {
	counts := make([]uint32, values+1) // by position + 1: counts[0] is single's "none"
	it := docs.ManyIterator()
	buf := make([]uint32, 256)
	next := 0 // in multi: jobs are ascending
	for k, last := it.NextMany(buf), false; k > 0 && !last; k = it.NextMany(buf) {
		if buf[k-1] >= end {
			k, _ = slices.BinarySearch(buf[:k], end)
			last = true
		}
		switch {
		case f.single != nil:
			for _, d := range buf[:k] {
				v := f.single[d]
				if v != many {
					counts[v]++
					continue
				}
				next = seek(f.multi, next, d)
				for _, v := range f.narrow[f.offsets[next]:f.offsets[next+1]] {
					counts[v+1]++
				}
			}
		case f.wide != nil:
			for _, d := range buf[:k] {
				for _, v := range f.wide[f.offsets[d]:f.offsets[d+1]] {
					counts[v+1]++
				}
			}
		default:
			for _, d := range buf[:k] {
				for _, v := range f.narrow[f.offsets[d]:f.offsets[d+1]] {
					counts[v+1]++
				}
			}
		}
	}
	return counts[1:]
}
