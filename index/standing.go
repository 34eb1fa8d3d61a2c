// Standing queries: one job at a time judged by a query's conditions, for
// the subscriptions that follow the change feed.

package index

import (
	"math"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/domain"
)

// State is one job as a query's conditions read it, taken out of an index
// so that it can be judged after that index is gone: by a subscription
// that starts later, or resumes from an older change.
type State struct {
	ID string
	// Keys are the job's filter keys, sorted.
	Keys []string
	// Posted is posted_sort in microseconds; Dated is false without
	// posted_at.
	Posted int64
	Dated  bool
	// CompanyID is the job's company row; Company its lower-cased name.
	CompanyID int64
	Company   string
	// SalaryMin and SalaryMax are the annualized bounds in the index's
	// unit (euros at its rates, as given without rates); NaN when unknown.
	SalaryMin, SalaryMax float64
}

// Judging returns a copy of ix that keeps only what judging jobs reads
// (States, StateOf, Matcher, KeyJobs, Version): its jobs' ids, keys,
// dates, salaries and companies. A subscription hub holds the index it
// judges a move of the feed from until the move is judged; when the move
// is to a base built anew, the old index lives on for that alone, and its
// sort orders, facets, salary index and caches are most of its memory. A
// copy is only for judging: it answers no search.
func (ix *Index) Judging() *Index {
	return &Index{version: ix.version, n: ix.n, delta: ix.delta, ids: ix.ids, idEnd: ix.idEnd,
		posted: ix.posted, undated: ix.undated, salMin: ix.salMin, salMax: ix.salMax,
		rates: ix.rates, ratesDigest: ix.ratesDigest, histCode: ix.histCode, histRate: ix.histRate,
		all: ix.all, baseAll: ix.baseAll, keys: ix.keys,
		facets:    map[string]*facet{domain.FacetCompany: ix.facets[domain.FacetCompany]},
		companies: ix.companies, byID: ix.byID, idsByteOrdered: ix.idsByteOrdered, companyPos: ix.companyPos}
}

// SameBase reports whether ix and other are layers over one base (a base
// built anew is another).
func (ix *Index) SameBase(other *Index) bool { return ix.baseAll == other.baseAll }

// Has reports whether the job has the filter key.
func (s *State) Has(key string) bool {
	_, ok := slices.BinarySearch(s.Keys, key)
	return ok
}

// States returns the jobs of ids that ix holds, by id (an id it does not
// hold has none). A job of the base costs a look at every key's bitmap, so
// the base's jobs are taken together: one pass over the keys for all.
func (ix *Index) States(ids []string) map[string]*State {
	out := make(map[string]*State, len(ids))
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	if dl := ix.delta; dl != nil {
		for i := range dl.docs {
			d := &dl.docs[i]
			if !want[d.ID] {
				continue
			}
			out[d.ID] = ix.stateOf(d)
		}
	}
	base := roaring.New()
	byDoc := map[uint32]*State{}
	for id := range want {
		if _, ok := out[id]; ok {
			continue
		}
		d, ok := ix.baseDoc(id)
		if !ok || ix.delta != nil && ix.delta.deleted.Contains(d) {
			continue
		}
		s := &State{ID: id, Posted: ix.posted[d], Dated: !ix.undated.Contains(d),
			SalaryMin: ix.salMin[d], SalaryMax: ix.salMax[d]}
		if pos, ok := ix.baseCompanyOf(d); ok {
			s.CompanyID, s.Company = ix.companies[pos].id, ix.companies[pos].lower
		}
		base.Add(d)
		byDoc[d] = s
		out[id] = s
	}
	if base.IsEmpty() {
		return out
	}
	for key, b := range ix.keys {
		if !b.Intersects(base) {
			continue
		}
		it := roaring.And(b, base).Iterator()
		for it.HasNext() {
			s := byDoc[it.Next()]
			s.Keys = append(s.Keys, key)
		}
	}
	// The keys were gathered by append, which leaves up to half of each
	// slice unused: States outlive the call (a subscription hub keeps
	// thousands), so each gets an exact part of one array instead.
	total := 0
	for _, s := range byDoc {
		total += len(s.Keys)
	}
	all := make([]string, 0, total)
	for _, s := range byDoc {
		slices.Sort(s.Keys)
		from := len(all)
		all = append(all, s.Keys...)
		s.Keys = all[from:len(all):len(all)]
	}
	return out
}

// StateOf returns the State of d, a job as the database gives it (not
// held by ix), as ix would hold it: its salary in ix's unit, its company
// by ix's companies, or by company (its name) when ix does not hold it.
func (ix *Index) StateOf(d *Doc, company string) *State {
	c := *d
	c.SalaryMin, c.SalaryMax = ix.toEUR(d.SalaryMin, d.Currency), ix.toEUR(d.SalaryMax, d.Currency)
	s := ix.stateOf(&c)
	if _, ok := ix.companyPosition(d.CompanyID); !ok {
		s.Company = strings.ToLower(company)
	}
	return s
}

// stateOf returns the State of d, a job of ix's delta (its salary in ix's
// unit).
func (ix *Index) stateOf(d *Doc) *State {
	keys := slices.Clone(d.Keys) // exact in size, as States outlive the call (States)
	slices.Sort(keys)
	s := &State{ID: d.ID, Keys: slices.Compact(keys), Posted: d.Posted, Dated: d.Dated,
		CompanyID: d.CompanyID, SalaryMin: d.SalaryMin, SalaryMax: d.SalaryMax}
	if pos, ok := ix.companyPosition(d.CompanyID); ok {
		s.Company = ix.companies[pos].lower
	}
	return s
}

// baseCompanyOf returns the position of base job d's company.
func (ix *Index) baseCompanyOf(d uint32) (int32, bool) {
	if fc := ix.facets[domain.FacetCompany]; fc != nil && fc.fwd != nil && fc.fwd.singleOnly() {
		c := fc.fwd.single[d]
		return int32(c) - 1, c != 0
	}
	for i := range ix.baseCompanies() {
		if ix.companies[i].docs.Contains(d) {
			return int32(i), true
		}
	}
	return 0, false
}

// Matcher judges a job's State by a query's conditions exactly as Search
// counts it in the index the Matcher was made from: a standing query.
type Matcher struct {
	filters   []domain.KeyFilter
	company   string // lower-cased substring, "" for none
	companyID *int64
	// The salary range, in the index's unit.
	salary         bool
	hasLo, hasHi   bool
	lo, hi         float64
	currencyKey    string // without rates, the key of the query's currency
	includeUnknown bool
	postedAfter    *int64
}

// Matcher returns q's conditions as ix judges them (salary bounds in its
// unit), but for its full-text parts, which the index does not hold.
func (ix *Index) Matcher(q domain.JobQuery) *Matcher {
	m := &Matcher{filters: q.Filters, company: strings.ToLower(q.Company), companyID: q.CompanyID}
	if q.SalaryMin != nil || q.SalaryMax != nil {
		m.salary, m.includeUnknown = true, q.IncludeUnknownSalary
		m.lo, m.hi = math.Inf(-1), math.Inf(1)
		if q.SalaryMin != nil {
			m.hasLo, m.lo = true, ix.fromQuery(*q.SalaryMin, q)
		}
		if q.SalaryMax != nil {
			m.hasHi, m.hi = true, ix.fromQuery(*q.SalaryMax, q)
		}
		if ix.rates == nil {
			m.currencyKey = domain.CurrencyKey(q.Currency.Code)
		}
	}
	if q.PostedAfter != nil {
		t := q.PostedAfter.UnixMicro()
		m.postedAfter = &t
	}
	return m
}

// Keys returns the matcher's key conditions: each KeyFilter's keys, any
// one of which (all of which with All) a matching job has. A percolator
// files the matcher under one of them.
func (m *Matcher) Keys() []domain.KeyFilter { return m.filters }

// Match reports whether the job s satisfies every condition; a nil s (no
// job) never does.
func (m *Matcher) Match(s *State) bool {
	if s == nil {
		return false
	}
	for _, f := range m.filters {
		if !keysHold(f, s) {
			return false
		}
	}
	if m.company != "" && !strings.Contains(s.Company, m.company) {
		return false
	}
	if m.companyID != nil && s.CompanyID != *m.companyID {
		return false
	}
	if m.salary && !m.salaryHolds(s) {
		return false
	}
	if m.postedAfter != nil && !(s.Dated && s.Posted >= *m.postedAfter) {
		return false
	}
	return true
}

// keysHold is keyFilter's condition for one job: any of f's keys, every
// one with All (every one of no keys always holds, any of none never).
func keysHold(f domain.KeyFilter, s *State) bool {
	for _, k := range f.Keys {
		if s.Has(k) != f.All {
			return !f.All
		}
	}
	return f.All
}

// salaryHolds is salaryRange's condition for one job: its range overlaps
// the query's (NaN bounds never do), in the query's currency without rates,
// or it has no salary and the query keeps those.
func (m *Matcher) salaryHolds(s *State) bool {
	in := salaryOverlaps(s.SalaryMin, s.SalaryMax, m.hasLo, m.lo, m.hasHi, m.hi)
	if in && m.currencyKey != "" {
		in = s.Has(m.currencyKey)
	}
	return in || m.includeUnknown && s.Has(domain.NoSalaryKey)
}

// KeyJobs is the number of jobs with the filter key (of both layers,
// removed base jobs included): how selective a key is.
func (ix *Index) KeyJobs(key string) uint64 {
	var n uint64
	if b := ix.keys[key]; b != nil {
		n = b.GetCardinality()
	}
	if ix.delta != nil {
		if b := ix.delta.keys[key]; b != nil {
			n += b.GetCardinality()
		}
	}
	return n
}
