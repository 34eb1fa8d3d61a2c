package index

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// TopCounts counts suggested values (contract section 14): for each of
// values (the conditions that select one value), how many jobs
// match both it and base, the total of a list with both. It counts enough
// of them, the values with most jobs first, that the k largest counts
// (ties included) are among those it returns; -1 marks a value it did not
// count. It returns false when the index cannot count base or a value
// (Search could not answer it).
func (ix *Index) TopCounts(base domain.JobQuery, values []*domain.ValueFilter, k int) ([]int, bool) {
	if !Eligible(base) || !ix.ratesFit(base, false) {
		return nil, false
	}
	k = max(k, 1)
	// Each value's count is at most its bound, cheap to know; by bound,
	// largest first, once k counts are above the next value's bound no
	// value after it can enter the k largest. Only the values looked at
	// are matched.
	bound := make([]uint64, len(values))
	order := make([]int, len(values))
	all := ix.all.GetCardinality()
	for i, v := range values {
		// A value's bound is the same for every request to this index:
		// the values of a source are looked at again and again.
		if b, ok := ix.bounds.Load(v); ok {
			bound[i] = b.(uint64)
		} else {
			bound[i] = ix.bound(v, all)
			ix.bounds.Store(v, bound[i])
		}
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(bound[y], bound[x]) })
	counts := make([]int, len(values))
	for i := range counts {
		counts[i] = -1
	}
	// base's jobs, made when a count is not kept (countsUnder).
	var b *roaring.Bitmap // nil: no condition, every job
	matched := false
	kept := ix.countsUnder(base)
	var best []int // the k largest counts so far, smallest first
	for _, i := range order {
		if bound[i] == 0 || len(best) == k && bound[i] < uint64(best[0]) {
			break
		}
		n, ok := kept.get(values[i])
		if !ok {
			if !matched {
				if cl := ix.clauses(base); len(cl) > 0 {
					b = ix.match(cl, "")
				}
				matched = true
			}
			if n, ok = ix.countWithin(b, values[i]); !ok {
				docs := ix.match(ix.clauses(values[i].Query()), "")
				if b == nil {
					n = int(docs.GetCardinality())
				} else {
					n = int(b.AndCardinality(docs))
				}
			}
			kept.put(ix, values[i], n)
		}
		counts[i] = n
		if len(best) < k {
			best = append(best, n)
			slices.Sort(best)
		} else if n > best[0] {
			best[0] = n
			slices.Sort(best)
		}
	}
	for _, i := range order {
		if counts[i] < 0 && bound[i] == 0 {
			counts[i] = 0
		}
	}
	return counts, true
}

// valueCounts are the counts of suggested values under one set of key
// filters, in one index.
type valueCounts struct {
	mu sync.Mutex
	n  map[*domain.ValueFilter]int
}

// maxCountsKept bounds the counts an index keeps (countsUnder), in units
// of about 64 bytes: a count is one, a set of filters one for each 64
// bytes of its key. Once past it, the counts kept are dropped together.
const maxCountsKept = 1 << 18

// maxFiltersKey is the longest key of filters whose counts are kept: a
// search box's filters are a few values, a hostile client's may be 50
// values of 1,000 characters.
const maxFiltersKey = 1 << 10

// countsUnder returns the counts of suggested values kept under base's
// conditions, nil when base has other conditions than key filters (a
// company, a salary range, a date, a place, text). A search box asks for
// the values under one filter keystroke after keystroke, and many users
// type the same few letters: an index answers many such requests before
// the next change replaces it, as a search engine's request cache lives
// until its next refresh. The counts are exact: they are this index's.
func (ix *Index) countsUnder(base domain.JobQuery) *valueCounts {
	key, ok := filtersKey(base)
	if !ok || len(key) > maxFiltersKey {
		return nil
	}
	if c, ok := ix.counted.Load(key); ok {
		return c
	}
	c, _ := ix.counted.LoadOrStore(key, &valueCounts{n: map[*domain.ValueFilter]int{}}, int64(1+len(key)/64), maxCountsKept)
	return c
}

// get returns the kept count of v.
func (c *valueCounts) get(v *domain.ValueFilter) (int, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.n[v]
	return n, ok
}

// put keeps the count of v, a unit more of ix's maxCountsKept.
func (c *valueCounts) put(ix *Index, v *domain.ValueFilter, n int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	_, had := c.n[v]
	c.n[v] = n
	c.mu.Unlock()
	if !had {
		ix.counted.Charge(1, maxCountsKept)
	}
}

// filtersKey is the text of q's conditions when they are key filters
// alone (what TopCounts' counts depend on), the same for the same
// filters in any order; false when q has any other condition. Sort,
// page and card extras change no count. The conditions refused are those
// clauses turns into other clauses than key filters' (keep the two in
// step; TestFiltersKeyKnowsEveryCondition places each field).
func filtersKey(q domain.JobQuery) (string, bool) {
	if q.Company != "" || q.TitleText != "" || q.Q != "" || q.SalaryMin != nil || q.SalaryMax != nil ||
		q.PostedAfter != nil || q.CompanyID != nil || q.Near != nil {
		return "", false
	}
	parts := make([]string, len(q.Filters))
	for i, f := range q.Filters {
		keys := slices.Clone(f.Keys)
		slices.Sort(keys)
		parts[i] = fmt.Sprintf("%s\x00%t\x00%s", f.Field, f.All, strings.Join(keys, "\x00"))
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x01"), true
}

// countWithin counts the jobs of b (nil: every live job) that match v,
// without uniting a value's bitmaps into a new one, for the values made of
// one-key filters or of a company substring: a key's jobs are its base
// bitmap and its delta bitmap, disjoint, and b holds no removed job; a
// company's likewise. It returns false for other values.
func (ix *Index) countWithin(b *roaring.Bitmap, v *domain.ValueFilter) (int, bool) {
	if b == nil {
		b = ix.all
	}
	var deltaKeys map[string]*roaring.Bitmap
	if ix.delta != nil {
		deltaKeys = ix.delta.keys
	}
	switch {
	case v.Company != "" && len(v.Filters) == 0:
		set := ix.companySet(strings.ToLower(v.Company))
		if set == nil {
			return 0, false
		}
		var n uint64
		for _, i := range set.list {
			n += b.AndCardinality(ix.companies[i].docs)
			if ix.delta != nil {
				if d := ix.delta.companyDocs[i]; d != nil {
					n += b.AndCardinality(d)
				}
			}
		}
		return int(n), true
	case v.Company != "" || len(v.Filters) == 0:
		return 0, false
	}
	keys := make([]string, 0, len(v.Filters))
	for _, f := range v.Filters {
		if len(f.Keys) != 1 {
			return 0, false
		}
		keys = append(keys, f.Keys[0])
	}
	if len(keys) == 1 && b == ix.all && (ix.delta == nil || ix.delta.deleted.IsEmpty()) {
		return int(ix.KeyJobs(keys[0])), true // every job of the key is live
	}
	if len(keys) == 1 {
		n := uint64(0)
		if bk := ix.keys[keys[0]]; bk != nil {
			n += b.AndCardinality(bk)
		}
		if dk := deltaKeys[keys[0]]; dk != nil {
			n += b.AndCardinality(dk)
		}
		return int(n), true
	}
	docs := ix.valueDocs(v, keys)
	if b == ix.all {
		return int(docs.GetCardinality()), true
	}
	return int(b.AndCardinality(docs)), true
}

// valueDocs returns the live jobs of v, a value of several one-key filters
// (a city with its state and country), keys: made once per index and
// value, so that counting the value under a filter is one intersection
// (and without one, a cardinality), where it was one intersection and
// a new bitmap per key for every request.
func (ix *Index) valueDocs(v *domain.ValueFilter, keys []string) *roaring.Bitmap {
	if d, ok := ix.valueJobs.Load(v); ok {
		return d.(*roaring.Bitmap)
	}
	var deltaKeys map[string]*roaring.Bitmap
	if ix.delta != nil {
		deltaKeys = ix.delta.keys
	}
	// The rarest key first: what is left after it is small.
	keys = slices.Clone(keys)
	slices.SortFunc(keys, func(x, y string) int { return cmp.Compare(ix.KeyJobs(x), ix.KeyJobs(y)) })
	left := ix.all
	for _, k := range keys {
		var parts []*roaring.Bitmap
		if bk := ix.keys[k]; bk != nil {
			parts = append(parts, roaring.And(left, bk))
		}
		if dk := deltaKeys[k]; dk != nil {
			parts = append(parts, roaring.And(left, dk))
		}
		switch len(parts) {
		case 0:
			left = roaring.New()
		case 1:
			left = parts[0]
		default:
			left = roaring.Or(parts[0], parts[1])
		}
		if left.IsEmpty() {
			break
		}
	}
	left.RunOptimize()
	d, _ := ix.valueJobs.LoadOrStore(v, left)
	return d.(*roaring.Bitmap)
}

// bound returns at most how many jobs match q's key filters and company
// (all, every job, when it has neither): the fewest of any one
// condition's, counted from the keys' sizes and the companies' counts,
// without matching.
func (ix *Index) bound(q *domain.ValueFilter, all uint64) uint64 {
	b := all
	for _, f := range q.Filters {
		if len(f.Keys) == 0 {
			continue
		}
		if b == 0 {
			return 0
		}
		var n uint64
		for j, k := range f.Keys {
			switch kn := ix.KeyJobs(k); {
			case !f.All:
				n += kn
			case j == 0 || kn < n:
				n = kn
			}
		}
		b = min(b, n)
	}
	if q.Company != "" {
		if set := ix.companySet(strings.ToLower(q.Company)); set != nil {
			b = min(b, set.n)
		}
	}
	return b
}

// CompaniesKey names the list of companies an index knows: it differs
// between two indexes whose lists may differ.
type CompaniesKey struct {
	base *roaring.Bitmap // the base's jobs: one per built base
	n    int
}

// CompaniesKey returns the key of ix's list of companies. A base's list
// only grows as changes are applied to it.
func (ix *Index) CompaniesKey() CompaniesKey {
	return CompaniesKey{base: ix.baseAll, n: len(ix.companies)}
}

// CompanyNames returns the names of the companies ix knows, some of them
// perhaps without a live job.
func (ix *Index) CompanyNames() []string {
	out := make([]string, len(ix.companies))
	for i, c := range ix.companies {
		out[i] = c.name
	}
	return out
}

// KeysKey names the set of filter keys an index has jobs of: it differs
// between two indexes whose sets may differ (keys of removed jobs may
// still count as had).
type KeysKey struct {
	base *roaring.Bitmap // the base's jobs: one per built base
	// The keys of the delta's jobs that the base has none of: how many,
	// and their hashes XOR-ed.
	n    int
	hash uint64
}

// KeysKey returns the key of ix's set of filter keys, computed on first
// use (a pass over the delta's keys).
func (ix *Index) KeysKey() KeysKey {
	ix.keysKeyOnce.Do(func() {
		ix.keysKey = KeysKey{base: ix.baseAll}
		if ix.delta == nil {
			return
		}
		for k := range ix.delta.keys {
			if ix.keys[k] == nil {
				ix.keysKey.n++
				ix.keysKey.hash ^= maphash.String(keysSeed, k)
			}
		}
	})
	return ix.keysKey
}

// keysSeed seeds the hashes of KeysKey.
var keysSeed = maphash.MakeSeed()

// Present reports, for each of values, whether it may select a job of ix:
// whether its bound is above 0 (a value it reports absent selects none).
func (ix *Index) Present(values []*domain.ValueFilter) []bool {
	out := make([]bool, len(values))
	all := ix.all.GetCardinality()
	for i, v := range values {
		out[i] = ix.bound(v, all) > 0
	}
	return out
}
