// Search: a job query's conditions as bitmaps, its exact total and its page in any keyset order.

package index

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// Eligible reports whether the index can answer q: full-text parts (title
// words, keyword search) and relevance order need the database.
func Eligible(q domain.JobQuery) bool {
	return q.TitleText == "" && q.Q == "" && q.Sort != domain.JobSortRelevance
}

// clause is one AND-ed condition of a query, with the facet field it
// belongs to ("" when no facet leaves it out).
type clause struct {
	field string
	docs  *roaring.Bitmap
	// companies, for a company substring, are the companies it names,
	// their jobs not yet united (docs is nil until match needs them).
	companies *companySet
}

// clauses evaluates each condition of q to its bitmap. A condition other
// than key filters must be refused by filtersKey too (suggest.go).
func (ix *Index) clauses(q domain.JobQuery) []clause {
	var out []clause
	for _, f := range q.Filters {
		if b, ok := ix.keyFilter(f); ok {
			out = append(out, clause{field: f.Field, docs: b})
		}
	}
	if q.Company != "" {
		needle := strings.ToLower(q.Company)
		if set := ix.companySet(needle); set != nil {
			out = append(out, clause{field: domain.FacetCompany, companies: set})
		} else {
			out = append(out, clause{field: domain.FacetCompany, docs: ix.companyDocs(ix.companiesNamed(needle))})
		}
	}
	if q.CompanyID != nil {
		b := roaring.New()
		if pos, ok := ix.companyPosition(*q.CompanyID); ok {
			b = ix.companyDocs([]int32{pos})
		}
		out = append(out, clause{field: "company_id", docs: b})
	}
	if q.SalaryMin != nil || q.SalaryMax != nil {
		out = append(out, clause{field: domain.FacetSalary, docs: ix.salaryRange(q)})
	}
	if q.PostedAfter != nil {
		// Jobs are newest first: those posted at or after t are a prefix.
		t := q.PostedAfter.UnixMicro()
		end, _ := slices.BinarySearchFunc(ix.posted, t, func(p, t int64) int { return cmp.Compare(t, p) })
		for end < len(ix.posted) && ix.posted[end] >= t {
			end++
		}
		b := roaring.New()
		b.AddRange(0, uint64(end))
		b.AndNot(ix.undated)
		ix.delta.where(b, func(d *Doc) bool { return d.Dated && d.Posted >= t })
		out = append(out, clause{field: "posted_after", docs: b})
	}
	return out
}

// keyFilter returns the jobs with any of f's keys (every one of them with
// f.All), and false when f holds for every job (every one of no keys).
func (ix *Index) keyFilter(f domain.KeyFilter) (*roaring.Bitmap, bool) {
	bms := make([]*roaring.Bitmap, 0, len(f.Keys))
	var deltas []*roaring.Bitmap // OR-ed last: their containers are their own
	for _, k := range f.Keys {
		b := ix.keys[k]
		if ix.delta != nil {
			switch db := ix.delta.keys[k]; {
			case db == nil:
			case b == nil:
				b = db
			case f.All:
				b = roaring.Or(b, db)
			default:
				deltas = append(deltas, db)
			}
		}
		if b == nil {
			if f.All {
				return roaring.New(), true // a value no job has
			}
			continue
		}
		bms = append(bms, b)
	}
	if !f.All {
		return roaring.FastOr(append(bms, deltas...)...), true
	}
	if len(f.Keys) == 0 {
		return nil, false
	}
	return and(bms), true
}

// salaryRange returns the jobs whose annualized range overlaps q's (and
// those without a salary when q keeps them), as the SQL filter does.
func (ix *Index) salaryRange(q domain.JobQuery) *roaring.Bitmap {
	var out *roaring.Bitmap
	lo, hi := math.Inf(-1), math.Inf(1) // the bounds in the index's unit
	if q.SalaryMin != nil {
		lo = ix.fromQuery(*q.SalaryMin, q)
		out = ix.byMax.atLeastValue(lo)
	}
	if q.SalaryMax != nil {
		hi = ix.fromQuery(*q.SalaryMax, q)
		le := ix.byMin.atMostValue(hi)
		if out == nil {
			out = le
		} else {
			out.And(le)
		}
	}
	code := q.Currency.Code
	ix.delta.where(out, func(d *Doc) bool {
		return salaryOverlaps(d.SalaryMin, d.SalaryMax, q.SalaryMin != nil, lo, q.SalaryMax != nil, hi) &&
			(ix.rates != nil || d.Currency == code)
	})
	if ix.rates == nil {
		// Without rates, amounts compare within the query's currency.
		out.And(ix.inCurrency(code))
	}
	if q.IncludeUnknownSalary {
		out.Or(ix.unpaid())
	}
	return out
}

// salaryOverlaps is the salary filter's condition for one job (the SQL
// filter's, store.applyFilters): its annualized range [min, max] reaches
// the query's lower bound lo and starts below its upper bound hi, each
// when the query has it; NaN, an unknown bound, never does.
func salaryOverlaps(min, max float64, hasLo bool, lo float64, hasHi bool, hi float64) bool {
	return (!hasLo || max >= lo) && (!hasHi || min <= hi)
}

// union returns the union of bitmaps. Many small ones (the companies a
// substring names) are set in a dense bit array first: OR-ing hundreds of
// bitmaps pairwise cost a quarter of a request's CPU.
func (ix *Index) union(bms []*roaring.Bitmap) *roaring.Bitmap {
	if len(bms) <= 8 {
		return roaring.FastOr(bms...)
	}
	words := make([]uint64, (ix.span()+63)/64)
	buf := make([]uint32, 256)
	for _, b := range bms {
		it := b.ManyIterator()
		for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
			for _, d := range buf[:k] {
				words[d>>6] |= 1 << (d & 63)
			}
		}
	}
	return roaring.FromDense(words, false)
}

// and intersects bitmaps, smallest first.
func and(bms []*roaring.Bitmap) *roaring.Bitmap {
	if len(bms) == 0 {
		return nil
	}
	slices.SortFunc(bms, func(a, b *roaring.Bitmap) int { return cmp.Compare(a.GetCardinality(), b.GetCardinality()) })
	out := bms[0].Clone()
	for _, b := range bms[1:] {
		if out.IsEmpty() {
			break
		}
		out.And(b)
	}
	return out
}

// match intersects the clauses but those of the field skip (none when
// skip is ""): every job when nothing is left. Its result is the caller's
// to change unless it is ix.all.
func (ix *Index) match(cl []clause, skip string) *roaring.Bitmap {
	out := ix.intersect(cl, skip)
	if ix.delta != nil && out != ix.all && !ix.delta.deleted.IsEmpty() {
		out.AndNot(ix.delta.deleted) // the clauses' base bitmaps still hold them
	}
	return out
}

// intersect is match without removing the base's removed jobs.
func (ix *Index) intersect(cl []clause, skip string) *roaring.Bitmap {
	var bms []*roaring.Bitmap
	var set *companySet
	for _, c := range cl {
		switch {
		case skip != "" && c.field == skip:
		case c.companies != nil:
			set = c.companies
		default:
			bms = append(bms, c.docs)
		}
	}
	switch {
	case set == nil && len(bms) == 0:
		return ix.all
	case set == nil:
		return and(bms)
	case len(bms) == 0:
		return ix.companyDocs(set.list)
	}
	others := and(bms)
	if others.GetCardinality() > set.n {
		others.And(ix.companyDocs(set.list))
		return others
	}
	// Fewer jobs match the other clauses than the companies have: keep
	// those whose company is in the set.
	out := roaring.New()
	kept := make([]uint32, 0, 256)
	it := others.ManyIterator()
	buf := make([]uint32, 256)
	for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
		for _, d := range buf[:k] {
			if set.has(d) {
				kept = append(kept, d)
			}
		}
		out.AddMany(kept)
		kept = kept[:0]
	}
	return out
}

// Page is the index's answer to a job query: the exact total and the ids
// of the page's jobs in order.
type Page struct {
	Total int
	IDs   []string
	// Km are, for a near query, the distances of the page's jobs (their
	// nearest point's among the query's; NaN for one the filter adds for
	// being remote).
	Km []float64
}

// Search answers q, or returns false when the index cannot: q is not
// Eligible, or its cursor names a job the index does not have.
func (ix *Index) Search(q domain.JobQuery) (Page, bool) {
	if !Eligible(q) || !ix.ratesFit(q, false) {
		return Page{}, false
	}
	if q.Sort == domain.JobSortDistance {
		return ix.searchByDistance(q)
	}
	page, docs, ok := ix.search(q)
	if ok && q.Near != nil {
		page.Km = ix.distances(q.Near, docs)
	}
	return page, ok
}

// search is Search in the keyset orders, with the page's jobs.
func (ix *Index) search(q domain.JobQuery) (Page, []uint32, bool) {
	o := ix.orders[q.Sort]
	if o == nil {
		return Page{}, nil, false
	}
	if ix.delta != nil {
		return ix.searchLayered(q, o)
	}
	start, skip := uint32(0), q.Offset
	if c := q.After; c != nil {
		pos, ok := ix.after(o, c)
		if !ok {
			return Page{}, nil, false
		}
		start, skip = pos, 0
	}
	cl := ix.clauses(q)
	var page Page
	var docs []uint32
	if set := soleCompanies(cl); set != nil && ix.walkCheaper(set.n, skip+q.Limit) {
		// A company substring alone: its total is its companies' counts,
		// and its page a walk of the order checking each job's company.
		page.Total = int(set.n)
		if q.Limit > 0 && skip < page.Total {
			docs = ix.walk(o, set.has, start, skip, q.Limit)
		}
	} else {
		match := ix.match(cl, "")
		page.Total = int(match.GetCardinality())
		if q.Limit > 0 && skip < page.Total {
			docs = ix.page(o, match, start, skip, q.Limit)
		}
	}
	for _, d := range docs {
		page.IDs = append(page.IDs, ix.id(d))
	}
	return page, docs, true
}

// soleCompanies returns the company set of a query whose one clause is a
// company substring, or nil.
func soleCompanies(cl []clause) *companySet {
	if len(cl) == 1 {
		return cl[0].companies
	}
	return nil
}

// walkCheaper reports whether finding need jobs of card (spread evenly)
// by walking an order costs less than uniting them into a bitmap: a walk
// looks at about need·n/card jobs, a union sets card bits in an array of
// n bits.
func (ix *Index) walkCheaper(card uint64, need int) bool {
	n := uint64(ix.n)
	return card > 0 && uint64(need)*n/card <= 2*card+n/32
}

// walk returns the base's jobs for which has holds at positions from start
// in o, skipping skip and taking at most limit.
func (ix *Index) walk(o *ordering, has func(uint32) bool, start uint32, skip, limit int) []uint32 {
	out := make([]uint32, 0, limit)
	for pos := start; pos < ix.n && len(out) < limit; pos++ {
		if d := o.at(pos); has(d) {
			if skip > 0 {
				skip--
				continue
			}
			out = append(out, d)
		}
	}
	return out
}

// after returns the position that follows the cursor's job in o.
func (ix *Index) after(o *ordering, c *domain.Cursor) (uint32, bool) {
	key := c.Number
	if q := c.Sort; q == domain.JobSortNewest || q == domain.JobSortOldest {
		key = float64(c.Time.UnixMicro())
	}
	// before reports whether the job at pos comes before the cursor's key.
	before := func(pos int, strict bool) bool {
		k := o.key(o.at(uint32(pos)))
		if k == key {
			return !strict
		}
		return (k > key) == o.desc
	}
	n := int(ix.n)
	lo := sort.Search(n, func(pos int) bool { return !before(pos, true) })
	hi := sort.Search(n, func(pos int) bool { return !before(pos, false) })
	for pos := lo; pos < hi; pos++ {
		if ix.id(o.at(uint32(pos))) == c.ID {
			return uint32(pos + 1), true
		}
	}
	return 0, false
}

// page returns the base's jobs of docs at positions from start in o,
// skipping skip and taking at most limit.
func (ix *Index) page(o *ordering, docs *roaring.Bitmap, start uint32, skip, limit int) []uint32 {
	out := make([]uint32, 0, limit)
	if o.docs == nil { // the default order: positions are jobs
		it := docs.Iterator()
		it.AdvanceIfNeeded(start)
		for it.HasNext() && len(out) < limit {
			d := it.Next()
			if d >= ix.n {
				break // the delta's
			}
			if skip > 0 {
				skip--
				continue
			}
			out = append(out, d)
		}
		return out
	}
	need := uint64(skip + limit)
	card := docs.GetCardinality()
	// Walking the order costs about need·n/card lookups; ranking the
	// matches costs about card·log(card).
	if card > 0 && need*uint64(ix.n)/card < card*uint64(bits.Len64(card)) {
		return ix.walk(o, docs.Contains, start, skip, limit)
	}
	ranks := make([]uint32, 0, card)
	it := docs.ManyIterator()
	buf := make([]uint32, 256)
	for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
		for _, d := range buf[:k] {
			if d >= ix.n {
				break // the delta's
			}
			if r := o.rank[d]; r >= start {
				ranks = append(ranks, r)
			}
		}
	}
	slices.Sort(ranks)
	if skip >= len(ranks) {
		return out
	}
	for _, r := range ranks[skip:min(len(ranks), skip+limit)] {
		out = append(out, o.docs[r])
	}
	return out
}
