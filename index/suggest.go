package index

import (
	"cmp"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// TopCounts counts suggested values (contract section 14): for each of
// values (a query of the conditions that select one value), how many jobs
// match both it and base, the total of a list with both. It counts enough
// of them, the values with most jobs first, that the k largest counts
// (ties included) are among those it returns; -1 marks a value it did not
// count. It returns false when the index cannot count base or a value
// (Search could not answer it).
func (ix *Index) TopCounts(base domain.JobQuery, values []domain.JobQuery, k int) ([]int, bool) {
	if !Eligible(base) || !ix.ratesFit(base, false) {
		return nil, false
	}
	docs := make([]*roaring.Bitmap, len(values))
	order := make([]int, len(values))
	own := make([]uint64, len(values))
	for i, v := range values {
		if !Eligible(v) || !ix.ratesFit(v, false) {
			return nil, false
		}
		docs[i] = ix.match(ix.clauses(v), "")
		own[i] = docs[i].GetCardinality()
		order[i] = i
	}
	counts := make([]int, len(values))
	for i := range counts {
		counts[i] = -1
	}
	filtered := ix.clauses(base)
	if len(filtered) == 0 {
		for i, n := range own {
			counts[i] = int(n)
		}
		return counts, true
	}
	b := ix.match(filtered, "")
	// By their own counts, most first: a value's count under base is at
	// most its own, so once k counts are above the next value's own count,
	// no value after it can enter the k largest.
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(own[y], own[x]) })
	var best []int // the k largest counts so far, smallest first
	for _, i := range order {
		if len(best) == k && own[i] < uint64(best[0]) {
			break
		}
		n := int(b.AndCardinality(docs[i]))
		counts[i] = n
		if len(best) < k {
			best = append(best, n)
			slices.Sort(best)
		} else if n > best[0] {
			best[0] = n
			slices.Sort(best)
		}
	}
	return counts, true
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
