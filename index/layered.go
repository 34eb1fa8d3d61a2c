// Layered queries: pages, cursors and facet counts over a base and its delta, merged.

package index

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// span bounds the job numbers of both layers: the base's from 0, then the
// delta's.
func (ix *Index) span() uint32 {
	if ix.delta == nil {
		return ix.n
	}
	return ix.delta.first + uint32(len(ix.delta.docs))
}

// split returns how many of docs are the base's and how many the delta's.
func (ix *Index) split(docs *roaring.Bitmap) (base, delta uint64) {
	card := docs.GetCardinality()
	if ix.delta == nil {
		return card, 0
	}
	delta = docs.CardinalityInRange(uint64(ix.delta.first), uint64(ix.span()))
	return card - delta, delta
}

// where adds to out the delta's jobs for which keep holds; a nil delta
// has none.
func (dl *delta) where(out *roaring.Bitmap, keep func(*Doc) bool) {
	if dl == nil {
		return
	}
	for i := range dl.docs {
		if keep(&dl.docs[i]) {
			out.Add(dl.first + uint32(i))
		}
	}
}

// countIn returns, by local value, the jobs of docs among the delta's
// (card of them, numbered from first) that have it, and the largest count.
func (df *deltaField) countIn(docs *roaring.Bitmap, first uint32, card uint64) ([]uint32, uint32) {
	if df == nil || card == 0 {
		return nil, 0
	}
	if card == uint64(len(df.offsets)-1) {
		return df.counts, df.most
	}
	counts := make([]uint32, len(df.names))
	it := docs.Iterator()
	it.AdvanceIfNeeded(first)
	for it.HasNext() {
		i := it.Next() - first
		for _, v := range df.vals[df.offsets[i]:df.offsets[i+1]] {
			counts[v]++
		}
	}
	return counts, slices.Max(append(counts, 0))
}

// searchLayered is search over a base and its delta: each layer's first
// jobs in the order, merged by (sort key, id).
func (ix *Index) searchLayered(q domain.JobQuery, o *ordering) (Page, []uint32, bool) {
	dl := ix.delta
	do := dl.orders[q.Sort]
	baseStart, deltaStart, skip := uint32(0), uint32(0), q.Offset
	if c := q.After; c != nil {
		key := cursorKey(c)
		var inBase, inDelta bool
		baseStart, inBase = ix.seek(o, key, c.ID)
		inBase = inBase && !dl.deleted.Contains(o.at(baseStart-1))
		deltaStart, inDelta = dl.seek(do, o.desc, key, c.ID)
		if !inBase && !inDelta {
			return Page{}, nil, false // as a fresh build, which lacks the cursor's job
		}
		skip = 0
	}
	cl := ix.clauses(q)
	need := skip + q.Limit
	var page Page
	var match *roaring.Bitmap
	var has func(uint32) bool
	if set := soleCompanies(cl); set != nil && ix.walkCheaper(set.n, need) {
		page.Total, has = int(set.n), set.has
	} else {
		match = ix.match(cl, "")
		page.Total, has = int(match.GetCardinality()), match.Contains
	}
	if q.Limit <= 0 || skip >= page.Total {
		return page, nil, true
	}
	fromBase := func(skip, limit int) []uint32 {
		if match == nil {
			return ix.walk(o, has, baseStart, skip, limit)
		}
		return ix.page(o, match, baseStart, skip, limit)
	}
	deltaDocs := dl.page(do, match, has, deltaStart, need)
	// With m < need of the delta's jobs in the way, the base's first
	// skip-m jobs are skipped whatever their place among them.
	baseSkip := 0
	if len(deltaDocs) < need {
		baseSkip = max(0, skip-len(deltaDocs))
	}
	baseDocs := fromBase(baseSkip, skip-baseSkip+q.Limit)
	if baseSkip > 0 && len(baseDocs) == 0 { // fewer base jobs than skipped
		baseSkip, baseDocs = 0, fromBase(0, need)
	}
	rest := skip - baseSkip
	if baseSkip > 0 {
		// The delta's jobs before the first base job kept were skipped
		// too: each has fewer than baseSkip base jobs and m delta jobs
		// before it.
		before := 0
		for before < len(deltaDocs) && ix.precedes(o, do, deltaDocs[before], baseDocs[0]) {
			before++
		}
		deltaDocs, rest = deltaDocs[before:], rest-before
	}
	var docs []uint32
	for len(page.IDs) < q.Limit && (len(baseDocs) > 0 || len(deltaDocs) > 0) {
		var d uint32
		if len(deltaDocs) == 0 || len(baseDocs) > 0 && ix.precedes(o, do, baseDocs[0], deltaDocs[0]) {
			d, baseDocs = baseDocs[0], baseDocs[1:]
		} else {
			d, deltaDocs = deltaDocs[0], deltaDocs[1:]
		}
		if rest > 0 {
			rest--
			continue
		}
		page.IDs, docs = append(page.IDs, ix.id(d)), append(docs, d)
	}
	return page, docs, true
}

// cursorKey is the sort key a cursor names.
func cursorKey(c *domain.Cursor) float64 {
	if c.Sort == domain.JobSortNewest || c.Sort == domain.JobSortOldest {
		return float64(c.Time.UnixMicro())
	}
	return c.Number
}

// precedes reports whether job a (of either layer) comes before job b in
// the order: by key, then id.
func (ix *Index) precedes(o *ordering, do *deltaOrder, a, b uint32) bool {
	ka, kb := ix.keyOf(o, do, a), ix.keyOf(o, do, b)
	if ka != kb {
		return (ka > kb) == o.desc
	}
	return ix.id(a) < ix.id(b)
}

func (ix *Index) keyOf(o *ordering, do *deltaOrder, d uint32) float64 {
	if d >= ix.n {
		return do.keys[d-ix.delta.first]
	}
	return o.key(d)
}

// seek returns the first position of the base's order o past (key, id),
// and whether the job before it is (key, id) itself. Ties of key are in
// the ids' byte order.
func (ix *Index) seek(o *ordering, key float64, id string) (uint32, bool) {
	n := int(ix.n)
	lo := sort.Search(n, func(pos int) bool { return !keyBefore(o.key(o.at(uint32(pos))), key, o.desc, true) })
	hi := sort.Search(n, func(pos int) bool { return !keyBefore(o.key(o.at(uint32(pos))), key, o.desc, false) })
	p := lo + sort.Search(hi-lo, func(i int) bool { return ix.id(o.at(uint32(lo+i))) > id })
	return uint32(p), p > lo && ix.id(o.at(uint32(p-1))) == id
}

// seek is ix.seek in the delta's order do.
func (dl *delta) seek(do *deltaOrder, desc bool, key float64, id string) (uint32, bool) {
	n := len(do.docs)
	lo := sort.Search(n, func(pos int) bool { return !keyBefore(do.keys[do.docs[pos]], key, desc, true) })
	hi := sort.Search(n, func(pos int) bool { return !keyBefore(do.keys[do.docs[pos]], key, desc, false) })
	p := lo + sort.Search(hi-lo, func(i int) bool { return dl.docs[do.docs[lo+i]].ID > id })
	return uint32(p), p > lo && dl.docs[do.docs[p-1]].ID == id
}

// keyBefore reports whether key k comes before key (strictly, or at it
// too) in an order descending or not.
func keyBefore(k, key float64, desc, strict bool) bool {
	if k == key {
		return !strict
	}
	return (k > key) == desc
}

// page returns the first need of the delta's jobs in match (or for which
// has holds) from position start of its order do.
func (dl *delta) page(do *deltaOrder, match *roaring.Bitmap, has func(uint32) bool, start uint32, need int) []uint32 {
	k, n := uint32(len(do.docs)), dl.first
	var out []uint32
	if match != nil {
		m := match.CardinalityInRange(uint64(n), uint64(n+k))
		if m == 0 {
			return nil
		}
		// Walking the order costs about need·k/m looks; ranking the
		// matches m·log(m).
		if uint64(need)*uint64(k)/m >= m*uint64(bits.Len64(m)) {
			ranks := make([]uint32, 0, m)
			it := match.Iterator()
			it.AdvanceIfNeeded(n)
			for it.HasNext() {
				if r := do.rank[it.Next()-n]; r >= start {
					ranks = append(ranks, r)
				}
			}
			slices.Sort(ranks)
			for _, r := range ranks[:min(len(ranks), need)] {
				out = append(out, n+do.docs[r])
			}
			return out
		}
	}
	for pos := start; pos < k && len(out) < need; pos++ {
		if d := n + do.docs[pos]; has(d) {
			out = append(out, d)
		}
	}
	return out
}

// topLayered is facet.top over a base and its delta: the base's values
// walked by their base counts (an upper bound once the delta's largest
// count is added), then the values only the delta has.
func (ix *Index) topLayered(field string, docs *roaring.Bitmap, limit int) []domain.FacetValue {
	dl := ix.delta
	fc, df := ix.facets[field], dl.fields[field]
	baseCard, deltaCard := ix.split(docs)
	counts, most := df.countIn(docs, dl.first, deltaCard)
	type hit struct {
		name       string
		collate, n int
	}
	var hits []hit
	better := func(a, b hit) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.collate, b.collate)
	}
	// consider places a value of n jobs, collate being its place in the
	// collation (looked up only for a value that may enter).
	consider := func(name string, n int, collate func() int) {
		if n == 0 || len(hits) >= limit && n < hits[len(hits)-1].n {
			return
		}
		h := hit{name, collate(), n}
		if len(hits) >= limit && better(h, hits[len(hits)-1]) >= 0 {
			return
		}
		at, _ := slices.BinarySearchFunc(hits, h, better)
		hits = slices.Insert(hits, at, h)
		if len(hits) > limit {
			hits = hits[:limit]
		}
	}
	if limit > 0 && fc != nil {
		counter := dl.counter(fc, field, docs, baseCard, ix.n)
		next := 0 // in df.byBase
		for i, v := range fc.values {
			if len(hits) >= limit && uint64(hits[len(hits)-1].n) > v.n+uint64(most) {
				break
			}
			k := counter.count(i)
			if counts != nil {
				for next < len(df.byBase) && df.base[df.byBase[next]] < int32(i) {
					next++
				}
				if next < len(df.byBase) && df.base[df.byBase[next]] == int32(i) {
					k += uint64(counts[df.byBase[next]])
				}
			}
			consider(v.name, int(k), func() int { return dl.collateOf(field, v) })
		}
	}
	if limit > 0 && counts != nil {
		for v, base := range df.base {
			if base < 0 {
				consider(df.names[v], int(counts[v]), func() int { return dl.rank[df.names[v]] })
			}
		}
	}
	out := make([]domain.FacetValue, len(hits))
	for i, h := range hits {
		out[i] = domain.FacetValue{Value: h.name, Count: h.n}
	}
	return out
}

// counter is facet.counter for the base's part of docs (card jobs of n),
// which when they are every live job of the base are counted as the
// values' own counts less the removed jobs'.
func (dl *delta) counter(fc *facet, field string, docs *roaring.Bitmap, card uint64, n uint32) counter {
	if gone := dl.gone[field]; gone != nil && card == uint64(n)-dl.deleted.GetCardinality() {
		return counter{fc: fc, all: true, minus: gone}
	}
	return fc.counter(docs, card, n)
}

// countGone counts, by value of each of the base's facet fields, the
// base's removed jobs.
func (dl *delta) countGone(ix *Index) {
	if dl.deleted.IsEmpty() {
		return
	}
	dl.gone = make(map[string][]uint32, len(ix.facets))
	for field, fc := range ix.facets {
		if fc.fwd != nil {
			dl.gone[field] = fc.fwd.count(dl.deleted, len(fc.values), ix.n)
			continue
		}
		gone := make([]uint32, len(fc.values))
		for i, v := range fc.values {
			gone[i] = uint32(dl.deleted.AndCardinality(v.docs))
		}
		dl.gone[field] = gone
	}
}
