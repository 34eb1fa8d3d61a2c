// Companies: the companies a name substring matches, and the companies of a query by job count.

package index

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

type company struct {
	value
	id    int64
	lower string
	logo  *string // its logo_url
	slug  string
}

// companySet is the companies a company substring names: united, their
// jobs would cost a pass over every one of them, while their number is
// the sum of their counts (a job has one company) and whether a job is
// among them is one look at the company facet's forward index.
type companySet struct {
	in    []bool  // by position in Index.companies
	list  []int32 // the positions, ascending
	n     uint64  // their live jobs
	owner []uint16
	// With a delta: the base's jobs (below baseN) removed, and the
	// delta's jobs' companies.
	baseN      uint32
	deleted    *roaring.Bitmap
	deltaOwner []int32 // by job less deltaFirst
	deltaFirst uint32
}

// has reports whether job d is live and its company is in the set.
func (s *companySet) has(d uint32) bool {
	if d >= s.baseN {
		return s.in[s.deltaOwner[d-s.deltaFirst]]
	}
	if s.deleted != nil && s.deleted.Contains(d) {
		return false
	}
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
	s := &companySet{in: make([]bool, len(ix.companies)), list: ix.companiesNamed(needle), owner: fc.fwd.single, baseN: ix.n}
	if dl := ix.delta; dl != nil {
		s.deltaOwner, s.deltaFirst = dl.owner, dl.first
		if !dl.deleted.IsEmpty() {
			s.deleted = dl.deleted
		}
	}
	for _, i := range s.list {
		s.in[i] = true
		s.n += ix.companyCount(i)
	}
	return s
}

// companyCount is the number of live jobs of the company at position i.
func (ix *Index) companyCount(i int32) uint64 {
	n := ix.companies[i].n
	if ix.delta != nil && int(i) < ix.delta.baseCompanies {
		n = uint64(int64(n) + ix.delta.companyAdjust[i])
	}
	return n
}

// companyPosition returns the position in companies of the company id.
func (ix *Index) companyPosition(id int64) (int32, bool) {
	if pos, ok := ix.companyPos[id]; ok {
		return pos, true
	}
	if ix.delta != nil {
		pos, ok := ix.delta.companyPos[id]
		return pos, ok
	}
	return 0, false
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
	for i := ix.baseCompanies(); i < len(ix.companies); i++ { // the delta's, not in trigrams
		if strings.Contains(ix.companies[i].lower, needle) {
			out = append(out, int32(i))
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
	if ix.delta != nil {
		for _, i := range positions {
			if b := ix.delta.companyDocs[i]; b != nil {
				bms = append(bms, b)
			}
		}
	}
	return ix.union(bms)
}

// companyCandidates returns the positions of the base's companies whose
// lower-cased name may hold needle: those of needle's rarest trigram, or
// every one for a needle shorter than three bytes.
func (ix *Index) companyCandidates(needle string) []int32 {
	if len(needle) < 3 {
		all := make([]int32, ix.baseCompanies())
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
	if !Eligible(q) || !ix.ratesFit(q, false) {
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
	baseCard, deltaCard := ix.split(docs)
	counter := ix.facets[domain.FacetCompany].counter(docs, baseCard, ix.n)
	if ix.delta != nil {
		counter = ix.delta.counter(counter.fc, domain.FacetCompany, docs, baseCard, ix.n)
	}
	type hit struct {
		c       *company
		n       int
		collate int
	}
	var hits []hit
	// The delta's jobs of each company, by position.
	var extra []uint32
	if dl := ix.delta; dl != nil {
		df := dl.fields[domain.FacetCompany]
		counts, _ := df.countIn(docs, dl.first, deltaCard)
		extra = make([]uint32, len(ix.companies))
		for v, c := range counts {
			extra[df.pos[v]] += c
		}
	}
	for i, c := range ix.companies { // the base's in the company facet's order
		k := uint64(0)
		if i < len(counter.fc.values) {
			k = counter.count(i)
		}
		if extra != nil {
			k += uint64(extra[i])
		}
		if int(k) >= minJobs {
			hits = append(hits, hit{c, int(k), c.collate})
			if ix.delta != nil {
				hits[len(hits)-1].collate = ix.delta.collateOf(domain.FacetCompany, &c.value)
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		if c := cmp.Compare(a.collate, b.collate); c != 0 {
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
