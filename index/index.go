// Package index is jobsd's in-process count and facet index: one compressed
// bitmap (roaring) of jobs per filter key, facet value, company and salary
// bucket, of one version of the data (the store's change feed number). It
// answers a job query's exact total, the positions of its page in any
// keyset order, and its facet counts without touching the database; the
// store fetches only the page's rows, and checks in the same statement
// that the data is still at the index's version.
//
// Jobs are numbered in the default order (newest first, then id), so the
// newest page of a filter is the first set bits of its bitmap.
//
// An Index takes writes copy-on-write (Apply, delta.go): the jobs added
// since the base was built are a small delta layer numbered after the
// base's jobs (base jobs removed are masked out), and every query answers
// over both layers exactly as a fresh build over the same jobs would.
//
// Its files go by concern: the Index and its documents (this file), its
// building (build.go), search and paging (search.go), facet counts
// (facets.go, forward.go), companies (companies.go), salary bounds
// (salary.go) and their currency (currency.go), the delta layer: its making (delta.go) and its queries
// (layered.go), and a base index's file: WriteTo and ReadIndex
// (persist.go, persist_codec.go).
package index

import (
	"math"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/dropmap"
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
	// SalaryMin and SalaryMax are the annualized bounds, NaN when unknown,
	// in Currency (ISO 4217, upper case; "" when the posting names none).
	// The index keeps them converted to euros at its rates (currency.go).
	SalaryMin, SalaryMax float64
	Currency             string
	// Keys are the job's filter keys ("field:folded value").
	Keys []string
	// Facets are the job's display values by facet field.
	Facets map[string][]string
}

// Index is the bitmaps of one data version. It is immutable once built and
// safe for concurrent use.
type Index struct {
	version int64
	n       uint32 // the base's jobs: numbers below n; a delta's are from n

	// delta is the layer of writes applied since the base was built (nil
	// for a fresh build); with it, all is the live jobs of both layers.
	delta *delta

	ids     []byte   // every job's id, end to end (no pointers for the GC to scan)
	idEnd   []uint32 // job d's id is ids[idEnd[d-1]:idEnd[d]]
	posted  []int64
	undated *roaring.Bitmap
	salMin  []float64 // annualized, in euros at rates (as given without rates); NaN when unknown or without a rate
	salMax  []float64
	byMin   *salaryIndex // salary filters: annualized minimum
	byMax   *salaryIndex // and maximum

	// rates are the reference rates salaries are converted with (nil:
	// none, salaries kept as given); histCode is the currency the salary
	// histogram's bitmaps (salary) count in, histRate its rate.
	rates       *currency.Rates
	ratesDigest string // rates' (kept by a file, which has no rates)
	histCode    string
	histRate    float64

	all       *roaring.Bitmap
	baseAll   *roaring.Bitmap // the base's jobs, removed ones included: [0, n)
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

	// byID is the base's jobs in the order of their ids; idsByteOrdered
	// tells whether that order is Go's string order (the "C" collation),
	// which Apply and the delta's cursors rely on.
	byID           []uint32
	idsByteOrdered bool
	// companyPos is each company's position in companies, by id.
	companyPos map[int64]int32

	// allCompanies is every company with a job, by job count: the list
	// of /companies without filters, made on first use.
	allCompanies     []CompanyCount
	allCompaniesOnce sync.Once

	// bounds caches the bounds of suggested values (TopCounts), by value;
	// valueJobs the live jobs of those of several keys (valueDocs).
	bounds    sync.Map // *domain.ValueFilter → uint64
	valueJobs sync.Map // *domain.ValueFilter → *roaring.Bitmap
	// counted keeps the counts of suggested values under the key filters
	// asked (countsUnder), within maxCountsKept.
	counted dropmap.Map[string, *valueCounts] // by filtersKey
	// keysKey names the set of keys it has jobs of (KeysKey).
	keysKey     KeysKey
	keysKeyOnce sync.Once
}

// value is one facet value: its display text, its place in the database's
// collation (the tie-break of facet lists), and its jobs.
type value struct {
	name    string
	collate int
	docs    *roaring.Bitmap
	n       uint64
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

// id returns job d's id (of either layer).
func (ix *Index) id(d uint32) string {
	if d >= ix.n {
		return ix.delta.docs[d-ix.delta.first].ID
	}
	start := uint32(0)
	if d > 0 {
		start = ix.idEnd[d-1]
	}
	return string(ix.ids[start:ix.idEnd[d]])
}

// Version is the data version the index was built from.
func (ix *Index) Version() int64 { return ix.version }

// Len is the number of jobs in the index (of both layers).
func (ix *Index) Len() int {
	if ix.delta != nil {
		return int(ix.delta.live)
	}
	return int(ix.n)
}

// SizeInBytes estimates the index's memory: bitmaps and per-job arrays
// (not the ids' text), the delta layer's included.
func (ix *Index) SizeInBytes() uint64 {
	n := uint64(ix.n)*(8+8+8+4+4) + uint64(len(ix.ids)) // posted, salaries, ids, byID
	if ix.delta != nil {
		n += ix.delta.sizeInBytes()
	}
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
