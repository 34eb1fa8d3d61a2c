// Distance order: the pages of a near query, its points walked nearest first.

package index

import (
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// searchByDistance answers a query sorted by distance (domain.JobSortDistance):
// the jobs at the query's points nearest first, a job at its nearest
// point; jobs at one distance newest first, then by id; then the jobs the
// filter adds for being remote (the matches at none of its points),
// newest first. Its points are already nearest first, so the order is a
// walk of their bitmaps, each job taken at the first point that has it.
func (ix *Index) searchByDistance(q domain.JobQuery) (Page, bool) {
	nq := q.Near
	if nq == nil {
		return Page{}, false
	}
	match := ix.match(ix.clauses(q), "")
	page := Page{Total: int(match.GetCardinality())}
	skip := q.Offset
	from, exact := 0, false // the cursor's place among the distances
	if c := q.After; c != nil {
		from, exact = nq.Rank(c.Number)
		skip = 0
	}
	if q.Limit <= 0 || skip >= page.Total {
		return page, true
	}
	newest := ix.orders[domain.JobSortNewest]
	var deltaNewest *deltaOrder
	if ix.delta != nil {
		deltaNewest = ix.delta.orders[domain.JobSortNewest]
	}
	docs := make([]uint32, 0, q.Limit)
	// take adds a group's jobs (at km), from after the cursor's job in
	// the cursor's group.
	take := func(group *roaring.Bitmap, km float64, atCursor bool) {
		var after *domain.Cursor
		if atCursor {
			after = q.After
		}
		for _, d := range ix.newestFirst(newest, deltaNewest, group, after, skip+q.Limit-len(docs)) {
			if skip > 0 {
				skip--
				continue
			}
			docs, page.Km = append(docs, d), append(page.Km, km)
		}
	}
	seen := roaring.New() // the jobs of the groups walked
	for i := 0; i < len(nq.Keys) && len(docs) < q.Limit; {
		// The points at one distance are one group.
		j := i + 1
		for j < len(nq.Keys) && nq.Km[j] == nq.Km[i] {
			j++
		}
		var bms []*roaring.Bitmap
		for _, k := range nq.Keys[i:j] {
			bms = ix.appendKeyDocs(bms, k)
		}
		group := roaring.FastOr(bms...)
		group.And(match)
		group.AndNot(seen)
		seen.Or(group)
		if i >= from { // groups nearer than the cursor's are only seen
			take(group, nq.Km[i], i == from && exact)
		}
		i = j
	}
	if len(docs) < q.Limit {
		rest := match.Clone() // the jobs added for being remote
		rest.AndNot(seen)
		take(rest, math.NaN(), from == len(nq.Keys) && exact)
	}
	for _, d := range docs {
		page.IDs = append(page.IDs, ix.id(d))
	}
	return page, true
}

// distances returns the distances of jobs from a near query's point: the
// first of its points (nearest first) that has the job, NaN for none.
func (ix *Index) distances(nq *domain.NearQuery, docs []uint32) []float64 {
	out := make([]float64, len(docs))
	left := len(docs)
	for i := range out {
		out[i] = math.NaN()
	}
	var bms []*roaring.Bitmap
	for k := 0; k < len(nq.Keys) && left > 0; k++ {
		bms = ix.appendKeyDocs(bms[:0], nq.Keys[k])
		for _, b := range bms {
			for i, d := range docs {
				if math.IsNaN(out[i]) && b.Contains(d) {
					out[i] = nq.Km[k]
					left--
				}
			}
		}
	}
	return out
}

// appendKeyDocs appends the bitmaps of key k's jobs in both layers.
func (ix *Index) appendKeyDocs(bms []*roaring.Bitmap, k string) []*roaring.Bitmap {
	if b := ix.keys[k]; b != nil {
		bms = append(bms, b)
	}
	if ix.delta != nil {
		if b := ix.delta.keys[k]; b != nil {
			bms = append(bms, b)
		}
	}
	return bms
}

// newestFirst returns up to limit of the jobs of group in the default
// order (newest first, then id), from after the job the cursor names
// (by its posted time and id) when after is not nil.
func (ix *Index) newestFirst(o *ordering, do *deltaOrder, group *roaring.Bitmap, after *domain.Cursor, limit int) []uint32 {
	start := uint32(0)
	var key float64
	if after != nil {
		key = float64(after.Time.UnixMicro())
		start, _ = ix.seek(o, key, after.ID)
	}
	// The base's jobs are numbered in the default order.
	base := make([]uint32, 0, limit)
	it := group.Iterator()
	it.AdvanceIfNeeded(start)
	for it.HasNext() && len(base) < limit {
		d := it.Next()
		if d >= ix.n {
			break
		}
		base = append(base, d)
	}
	if ix.delta == nil || group.CardinalityInRange(uint64(ix.n), uint64(ix.span())) == 0 {
		return base
	}
	var delta []uint32
	it = group.Iterator()
	it.AdvanceIfNeeded(ix.n)
	for it.HasNext() {
		d := it.Next()
		k := do.keys[d-ix.delta.first]
		if after != nil && (k > key || k == key && ix.id(d) <= after.ID) {
			continue // at or before the cursor's job
		}
		delta = append(delta, d)
	}
	slices.SortFunc(delta, func(a, b uint32) int { return int(do.rank[a-ix.delta.first]) - int(do.rank[b-ix.delta.first]) })
	out := make([]uint32, 0, limit)
	for len(out) < limit && (len(base) > 0 || len(delta) > 0) {
		if len(delta) == 0 || len(base) > 0 && ix.precedes(o, do, base[0], delta[0]) {
			out, base = append(out, base[0]), base[1:]
		} else {
			out, delta = append(out, delta[0]), delta[1:]
		}
	}
	return out
}
