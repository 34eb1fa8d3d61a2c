// Facets: the top values of each facet field among the jobs of a query.

package index

import (
	"cmp"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// Facets counts the jobs matching q by the values of each field, the top
// limit values most first (then in the database's collation), leaving
// each field's own filter out when counting it, as the SQL facets do.
// It returns false when q is not Eligible.
func (ix *Index) Facets(q domain.JobQuery, fields []string, limit int) ([]domain.Facet, bool) {
	if !Eligible(q) || !ix.ratesFit(q, slices.Contains(fields, domain.FacetSalary)) {
		return nil, false
	}
	cl := ix.clauses(q)
	var all *roaring.Bitmap // the full match, shared by fields without a clause
	out := make([]domain.Facet, 0, len(fields))
	for _, field := range fields {
		var docs *roaring.Bitmap
		if slices.ContainsFunc(cl, func(c clause) bool { return c.field == field }) {
			docs = ix.match(cl, field)
		} else {
			if all == nil {
				all = ix.match(cl, "")
			}
			docs = all
		}
		f := domain.Facet{Field: domain.FacetField(field), Values: []domain.FacetValue{}}
		switch field {
		case domain.FacetSalary:
			for i, n := range ix.salaryHistogram(docs, q) {
				bucket := domain.SalaryBucket{Min: float64(i * SalaryBucketWidth), Count: int(n)}
				if i < SalaryBuckets {
					top := float64((i + 1) * SalaryBucketWidth)
					bucket.Max = &top
				}
				f.Buckets = append(f.Buckets, bucket)
			}
		default:
			if ix.delta != nil {
				f.Values = ix.topLayered(field, docs, limit)
			} else if fc := ix.facets[field]; fc != nil {
				f.Values = fc.top(docs, ix.n, limit)
			}
		}
		out = append(out, f)
	}
	return out, true
}

// counter counts the jobs of docs that have each value of a facet, the
// cheapest way: when docs are all the jobs, the counts are the values'
// own; when they are at most half of them and the field has a forward
// index, their values are counted job by job; otherwise each value's
// bitmap is intersected with docs.
type counter struct {
	fc     *facet
	docs   *roaring.Bitmap
	all    bool
	counts []uint32
	// minus, with all, is by value the base's removed jobs: docs are
	// every live job of the base.
	minus []uint32
}

// counter prepares the counts of docs, card of them among the n jobs of
// the base (the only ones the facet's values hold).
func (fc *facet) counter(docs *roaring.Bitmap, card uint64, n uint32) counter {
	c := counter{fc: fc, docs: docs, all: card == uint64(n)}
	if !c.all && card <= uint64(n)/2 && fc.fwd != nil {
		c.counts = fc.fwd.count(docs, len(fc.values), n)
	}
	return c
}

// count returns how many of the jobs have the facet's i-th value.
func (c counter) count(i int) uint64 {
	switch v := c.fc.values[i]; {
	case c.all && c.minus != nil:
		return v.n - uint64(c.minus[i])
	case c.all:
		return v.n
	case c.counts != nil:
		return uint64(c.counts[i])
	default:
		return c.docs.AndCardinality(v.docs)
	}
}

// top returns the limit values with the most jobs in docs (then by
// collation), of n jobs in all. The values are walked by their jobs
// overall, most first, so the walk stops once no further value can enter.
func (fc *facet) top(docs *roaring.Bitmap, n uint32, limit int) []domain.FacetValue {
	type hit struct {
		v *value
		n int
	}
	var hits []hit
	counter := fc.counter(docs, docs.GetCardinality(), n)
	least := func() int { return hits[len(hits)-1].n }
	better := func(a, b hit) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.v.collate, b.v.collate)
	}
	for i, v := range fc.values {
		if len(hits) >= limit && uint64(least()) > v.n {
			break
		}
		k := counter.count(i)
		if k == 0 {
			continue
		}
		h := hit{v, int(k)}
		if len(hits) >= limit && better(h, hits[len(hits)-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(hits, h, better)
		hits = slices.Insert(hits, at, h)
		if len(hits) > limit {
			hits = hits[:limit]
		}
	}
	out := make([]domain.FacetValue, len(hits))
	for i, h := range hits {
		out[i] = domain.FacetValue{Value: h.v.name, Count: h.n}
	}
	return out
}

// facet is one facet field: its values, most jobs first, and for fields
// of many values a forward index.
type facet struct {
	values []*value
	fwd    *forward
	pos    map[string]int32 // each value's position in values, by name (nil for companies)
}
