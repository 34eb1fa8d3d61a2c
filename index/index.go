// Package index is jobsd's in-process count and facet index: one compressed
// bitmap (roaring) of jobs per filter key, facet value, company and salary
// bucket, built from the database for one data version. It answers a job
// query's exact total, the positions of its page in any keyset order, and
// its facet counts without touching the database; the store fetches only
// the page's rows, and checks in the same statement that the data version
// is still the one the index was built from.
//
// Jobs are numbered in the default order (newest first, then id), so the
// newest page of a filter is the first set bits of its bitmap.
package index

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// Salary histogram: annualized salary (the middle of a posting's range) in
// buckets of SalaryBucketWidth from 0, the last one open-ended. The SQL
// facet query uses the same figures.
const (
	SalaryBucketWidth = 25000
	SalaryBuckets     = 12 // 0–300,000, then 300,000 and more
)

// SalaryBucket returns the histogram bucket of a posting's annualized
// salary range (lo may be NaN: the middle is then hi).
func SalaryBucket(lo, hi float64) int {
	if math.IsNaN(lo) {
		lo = hi
	}
	return int(min(max(math.Floor((lo+hi)/2/SalaryBucketWidth), 0), SalaryBuckets))
}

// Doc is one job as the index needs it. Builders receive jobs in the
// default order.
type Doc struct {
	ID string
	// Posted is posted_sort in microseconds since 1970; Dated is false
	// when the job has no posted_at.
	Posted int64
	Dated  bool
	// CompanyID is the id of the job's company row.
	CompanyID int64
	// SalaryMin and SalaryMax are the annualized bounds, NaN when unknown.
	SalaryMin, SalaryMax float64
	// Keys are the job's filter keys ("field:folded value").
	Keys []string
	// Facets are the job's display values by facet field.
	Facets map[string][]string
}

// Index is the bitmaps of one data version. It is immutable once built and
// safe for concurrent use.
type Index struct {
	version int64
	n       uint32

	ids     []byte   // every job's id, end to end (no pointers for the GC to scan)
	idEnd   []uint32 // job d's id is ids[idEnd[d-1]:idEnd[d]]
	posted  []int64
	undated *roaring.Bitmap
	salMin  []float64
	salMax  []float64
	byMin   *salaryIndex // salary filters: annualized minimum
	byMax   *salaryIndex // and maximum

	all       *roaring.Bitmap
	keys      map[string]*roaring.Bitmap
	facets    map[string]*facet // by facet field, company included
	companies []*company
	// trigrams lists, by each three bytes of a lower-cased company name, the
	// companies (positions in companies, ascending) whose name holds them:
	// a substring of three bytes or more is looked for in the companies of
	// its rarest trigram only.
	trigrams map[string][]int32
	salary   []*roaring.Bitmap // by SalaryBucket
	orders   map[domain.JobSort]*ordering

	// allCompanies is every company with a job, by job count: the list
	// of /companies without filters, made on first use.
	allCompanies     []CompanyCount
	allCompaniesOnce sync.Once
}

// value is one facet value: its display text, its place in the database's
// collation (the tie-break of facet lists), and its jobs.
type value struct {
	name    string
	collate int
	docs    *roaring.Bitmap
	n       uint64
}

type company struct {
	value
	id    int64
	lower string
	logo  *string // its logo_url
	slug  string
}

// ordering is one keyset sort: its positions' jobs and each job's
// position, and the sort key of a job.
type ordering struct {
	docs []uint32 // position → job; nil for the default order (identity)
	rank []uint32 // job → position; nil for the default order
	desc bool
	key  func(doc uint32) float64
}

func (o *ordering) at(pos uint32) uint32 {
	if o.docs == nil {
		return pos
	}
	return o.docs[pos]
}

// id returns job d's id.
func (ix *Index) id(d uint32) string {
	start := uint32(0)
	if d > 0 {
		start = ix.idEnd[d-1]
	}
	return string(ix.ids[start:ix.idEnd[d]])
}

// Version is the data version the index was built from.
func (ix *Index) Version() int64 { return ix.version }

// Len is the number of jobs in the index.
func (ix *Index) Len() int { return int(ix.n) }

// SizeInBytes estimates the index's memory: bitmaps and per-job arrays
// (not the ids' text).
func (ix *Index) SizeInBytes() uint64 {
	n := uint64(ix.n)*(8+8+8+4) + uint64(len(ix.ids)) // posted, salaries, ids
	for _, b := range ix.keys {
		n += b.GetSizeInBytes()
	}
	for _, fc := range ix.facets {
		for _, v := range fc.values {
			n += v.docs.GetSizeInBytes() // companies' own included
		}
		if fc.fwd != nil {
			n += fc.fwd.sizeInBytes()
		}
	}
	for _, o := range ix.orders {
		n += 4 * uint64(len(o.docs)+len(o.rank))
	}
	return n
}

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

// companySet is the companies a company substring names: united, their
// jobs would cost a pass over every one of them, while their number is
// the sum of their counts (a job has one company) and whether a job is
// among them is one look at the company facet's forward index.
type companySet struct {
	in    []bool  // by position in Index.companies
	list  []int32 // the positions, ascending
	n     uint64  // their jobs
	owner []uint16
}

// has reports whether job d's company is in the set.
func (s *companySet) has(d uint32) bool {
	c := s.owner[d]
	return c != 0 && s.in[c-1]
}

// companySet returns the companies whose lower-cased name holds needle,
// or nil when the company facet has no single-valued forward index.
func (ix *Index) companySet(needle string) *companySet {
	fc := ix.facets[domain.FacetCompany]
	if fc == nil || fc.fwd == nil || !fc.fwd.singleOnly() {
		return nil
	}
	s := &companySet{in: make([]bool, len(ix.companies)), list: ix.companiesNamed(needle), owner: fc.fwd.single}
	for _, i := range s.list {
		s.in[i] = true
		s.n += ix.companies[i].n
	}
	return s
}

// companiesNamed returns the positions of the companies whose lower-cased
// name holds needle, ascending.
func (ix *Index) companiesNamed(needle string) []int32 {
	var out []int32
	for _, i := range ix.companyCandidates(needle) {
		if strings.Contains(ix.companies[i].lower, needle) {
			out = append(out, i)
		}
	}
	return out
}

// companyDocs returns the jobs of the companies at the positions, united.
func (ix *Index) companyDocs(positions []int32) *roaring.Bitmap {
	bms := make([]*roaring.Bitmap, len(positions))
	for k, i := range positions {
		bms[k] = ix.companies[i].docs
	}
	return ix.union(bms)
}

// clauses evaluates each condition of q to its bitmap.
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
		for _, c := range ix.companies {
			if c.id == *q.CompanyID {
				b = c.docs
			}
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
		out = append(out, clause{field: "posted_after", docs: b})
	}
	return out
}

// companyCandidates returns the positions of the companies whose lower-
// cased name may hold needle: those of needle's rarest trigram, or every
// company for a needle shorter than three bytes.
func (ix *Index) companyCandidates(needle string) []int32 {
	if len(needle) < 3 {
		all := make([]int32, len(ix.companies))
		for i := range all {
			all[i] = int32(i)
		}
		return all
	}
	var best []int32
	for i := 0; i+3 <= len(needle); i++ {
		list, ok := ix.trigrams[needle[i:i+3]]
		if !ok {
			return nil // no name holds this trigram
		}
		if best == nil || len(list) < len(best) {
			best = list
		}
	}
	return best
}

// keyFilter returns the jobs with any of f's keys (every one of them with
// f.All), and false when f holds for every job (every one of no keys).
func (ix *Index) keyFilter(f domain.KeyFilter) (*roaring.Bitmap, bool) {
	bms := make([]*roaring.Bitmap, 0, len(f.Keys))
	for _, k := range f.Keys {
		b := ix.keys[k]
		if b == nil {
			if f.All {
				return roaring.New(), true // a value no job has
			}
			continue
		}
		bms = append(bms, b)
	}
	if !f.All {
		return roaring.FastOr(bms...), true
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
	if q.SalaryMin != nil {
		out = ix.byMax.atLeastValue(*q.SalaryMin)
	}
	if q.SalaryMax != nil {
		le := ix.byMin.atMostValue(*q.SalaryMax)
		if out == nil {
			out = le
		} else {
			out.And(le)
		}
	}
	if q.IncludeUnknownSalary {
		out.Or(roaring.AndNot(ix.all, ix.byMax.known))
	}
	return out
}

// union returns the union of bitmaps. Many small ones (the companies a
// substring names) are set in a dense bit array first: OR-ing hundreds of
// bitmaps pairwise cost a quarter of a request's CPU.
func (ix *Index) union(bms []*roaring.Bitmap) *roaring.Bitmap {
	if len(bms) <= 8 {
		return roaring.FastOr(bms...)
	}
	words := make([]uint64, (ix.n+63)/64)
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
// skip is ""): every job when nothing is left.
func (ix *Index) match(cl []clause, skip string) *roaring.Bitmap {
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
}

// Search answers q, or returns false when the index cannot: q is not
// Eligible, or its cursor names a job the index does not have.
func (ix *Index) Search(q domain.JobQuery) (Page, bool) {
	if !Eligible(q) {
		return Page{}, false
	}
	o := ix.orders[q.Sort]
	if o == nil {
		return Page{}, false
	}
	start, skip := uint32(0), q.Offset
	if c := q.After; c != nil {
		pos, ok := ix.after(o, c)
		if !ok {
			return Page{}, false
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
	return page, true
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

// walk returns the jobs for which has holds at positions from start in o,
// skipping skip and taking at most limit.
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
	lo := searchPos(n, func(pos int) bool { return !before(pos, true) })
	hi := searchPos(n, func(pos int) bool { return !before(pos, false) })
	for pos := lo; pos < hi; pos++ {
		if ix.id(o.at(uint32(pos))) == c.ID {
			return uint32(pos + 1), true
		}
	}
	return 0, false
}

// searchPos is sort.Search over positions.
func searchPos(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !f(m) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// page returns the jobs of docs at positions from start in o, skipping skip
// and taking at most limit.
func (ix *Index) page(o *ordering, docs *roaring.Bitmap, start uint32, skip, limit int) []uint32 {
	out := make([]uint32, 0, limit)
	if o.docs == nil { // the default order: positions are jobs
		it := docs.Iterator()
		it.AdvanceIfNeeded(start)
		for it.HasNext() && len(out) < limit {
			d := it.Next()
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
	if card > 0 && need*uint64(ix.n)/card < card*uint64(bitsLen(card)) {
		return ix.walk(o, docs.Contains, start, skip, limit)
	}
	ranks := make([]uint32, 0, card)
	it := docs.ManyIterator()
	buf := make([]uint32, 256)
	for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
		for _, d := range buf[:k] {
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

func bitsLen(n uint64) int {
	b := 1
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// Facets counts the jobs matching q by the values of each field, the top
// limit values most first (then in the database's collation), leaving
// each field's own filter out when counting it, as the SQL facets do.
// It returns false when q is not Eligible.
func (ix *Index) Facets(q domain.JobQuery, fields []string, limit int) ([]domain.Facet, bool) {
	if !Eligible(q) {
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
			for i, b := range ix.salary {
				bucket := domain.SalaryBucket{Min: float64(i * SalaryBucketWidth), Count: int(docs.AndCardinality(b))}
				if i < SalaryBuckets {
					top := float64((i + 1) * SalaryBucketWidth)
					bucket.Max = &top
				}
				f.Buckets = append(f.Buckets, bucket)
			}
		default:
			if fc := ix.facets[field]; fc != nil {
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
}

// counter prepares the counts of docs, of n jobs in all.
func (fc *facet) counter(docs *roaring.Bitmap, n uint32) counter {
	card := docs.GetCardinality()
	c := counter{fc: fc, docs: docs, all: card == uint64(n)}
	if !c.all && card <= uint64(n)/2 && fc.fwd != nil {
		c.counts = fc.fwd.count(docs, len(fc.values))
	}
	return c
}

// count returns how many of the jobs have the facet's i-th value.
func (c counter) count(i int) uint64 {
	switch v := c.fc.values[i]; {
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
	counter := fc.counter(docs, n)
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
}

// forwardMinValues is how many values a facet field needs for a forward
// index. With fewer, intersecting each value's bitmap with the filter costs
// little; with more, a selective filter would intersect every value before
// the top ones are known (measured: the category_role facet of a filter
// matching 2% of 200,000 jobs, 0.6 ms by intersections).
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
// At a million jobs, 4-byte positions and an offset for every job of every
// multi-valued field took 57 MB of heap (serve's heap profile); these forms
// cut the index from 175.9 to 148.2 MB.
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

// count returns how many of docs have each value.
func (f *forward) count(docs *roaring.Bitmap, values int) []uint32 {
	counts := make([]uint32, values+1) // by position + 1: counts[0] is single's "none"
	it := docs.ManyIterator()
	buf := make([]uint32, 256)
	next := 0 // in multi: jobs are ascending
	for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
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

// CompanyCount is a company's number of jobs matching a query, with what
// a company list shows of it.
type CompanyCount struct {
	ID      int64
	Name    string
	LogoURL *string
	Slug    string
	Count   int
}

// Companies returns the companies with at least minJobs jobs matching q,
// most first, then by name in the database's collation, then by id: the
// page at offset of at most limit, and how many there are. It returns
// false when q is not Eligible.
func (ix *Index) Companies(q domain.JobQuery, minJobs, limit, offset int) ([]CompanyCount, int, bool) {
	if !Eligible(q) {
		return nil, 0, false
	}
	var hits []CompanyCount
	if cl := ix.clauses(q); len(cl) == 0 {
		// Without filters the order is always the same: made once.
		ix.allCompaniesOnce.Do(func() { ix.allCompanies = ix.companiesByCount(ix.all, 1) })
		all := ix.allCompanies
		hits = all[:sort.Search(len(all), func(i int) bool { return all[i].Count < minJobs })]
	} else {
		hits = ix.companiesByCount(ix.match(cl, ""), minJobs)
	}
	return hits[min(offset, len(hits)):min(offset+limit, len(hits))], len(hits), true
}

// companiesByCount returns the companies with at least minJobs of the
// docs, by that count descending, then name (in the database's collation),
// then id.
func (ix *Index) companiesByCount(docs *roaring.Bitmap, minJobs int) []CompanyCount {
	counter := ix.facets[domain.FacetCompany].counter(docs, ix.n)
	type hit struct {
		c *company
		n int
	}
	var hits []hit
	for i, c := range ix.companies { // in the company facet's order
		if k := counter.count(i); int(k) >= minJobs {
			hits = append(hits, hit{c, int(k)})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		if c := cmp.Compare(a.c.collate, b.c.collate); c != 0 {
			return c
		}
		return cmp.Compare(a.c.id, b.c.id)
	})
	out := make([]CompanyCount, len(hits))
	for i, h := range hits {
		out[i] = CompanyCount{ID: h.c.id, Name: h.c.name, LogoURL: h.c.logo, Slug: h.c.slug, Count: h.n}
	}
	return out
}
