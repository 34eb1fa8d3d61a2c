// Currency: salaries converted to one currency at reference rates, so that
// filters, sorts and the histogram compare them in the currency a query
// names.

package index

import (
	"math"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
)

// defaultHistogram is the currency the histogram's bitmaps are made in when
// the rates know it (the API's default); others are counted job by job.
const defaultHistogram = "USD"

// SetRates makes the index convert salaries at r (nil: none; salaries are
// then kept as given and compared within one currency). Call it before
// the first Add.
func (b *Builder) SetRates(r *currency.Rates) { b.ix.setRates(r) }

func (ix *Index) setRates(r *currency.Rates) {
	ix.rates, ix.ratesDigest, ix.histCode, ix.histRate = r, r.Digest(), "", 1
	if r == nil {
		return
	}
	ix.histCode = currency.Base
	if v, ok := r.Rate(defaultHistogram); ok {
		ix.histCode, ix.histRate = defaultHistogram, v
	}
}

// Rates are the rates the index converts salaries with (nil: none).
func (ix *Index) Rates() *currency.Rates { return ix.rates }

// UseRates gives an index read from a file (ReadIndex) the rates it was
// built with; it reports false, leaving ix unusable, when r are other
// rates (the index is to be built anew).
func (ix *Index) UseRates(r *currency.Rates) bool {
	if ix.ratesDigest != r.Digest() {
		return false
	}
	ix.setRates(r)
	return true
}

// toEUR converts an annual amount in code to euros at the index's rates:
// NaN for an unknown amount or a currency without a rate, the amount
// itself without rates.
func (ix *Index) toEUR(v float64, code string) float64 {
	if ix.rates == nil || math.IsNaN(v) {
		return v
	}
	r, ok := ix.rates.Rate(code)
	if !ok {
		return math.NaN()
	}
	return v / r
}

// ratesFit reports whether the index can answer q: when q compares
// salaries (a salary filter or sort, or the histogram), it must have been
// read with the index's rates.
func (ix *Index) ratesFit(q domain.JobQuery, histogram bool) bool {
	if !q.UsesSalary() && !histogram {
		return true
	}
	return q.Currency.Rates.Digest() == ix.ratesDigest
}

// fromQuery converts an amount of q's currency to the index's unit (euros
// at rates; without rates, amounts stay as given).
func (ix *Index) fromQuery(v float64, q domain.JobQuery) float64 {
	if ix.rates == nil {
		return v
	}
	r, _ := ix.rates.Rate(q.Currency.Code) // the service checked it
	return v / r
}

// inCurrency returns the jobs whose salary is in code, of both layers:
// without rates, salaries compare within one currency.
func (ix *Index) inCurrency(code string) *roaring.Bitmap {
	b, _ := ix.keyFilter(domain.KeyFilter{Keys: []string{domain.CurrencyKey(code)}})
	return b
}

// unpaid returns the jobs without a salary, of both layers (removed base
// jobs included, as the other clauses have them).
func (ix *Index) unpaid() *roaring.Bitmap {
	b, _ := ix.keyFilter(domain.KeyFilter{Keys: []string{domain.NoSalaryKey}})
	return b
}

// salaryHistogram counts docs by salary bucket in q's currency.
func (ix *Index) salaryHistogram(docs *roaring.Bitmap, q domain.JobQuery) []uint64 {
	counts := make([]uint64, SalaryBuckets+1)
	if ix.rates == nil || q.Currency.Code == ix.histCode {
		if ix.rates == nil {
			docs = roaring.And(docs, ix.inCurrency(q.Currency.Code))
		}
		for i, b := range ix.salary {
			counts[i] = docs.AndCardinality(b)
			if ix.delta != nil {
				counts[i] += docs.AndCardinality(ix.delta.salary[i])
			}
		}
		return counts
	}
	r, _ := ix.rates.Rate(q.Currency.Code)
	it := docs.Iterator()
	for it.HasNext() {
		lo, hi := ix.salaryOf(it.Next())
		if !math.IsNaN(hi) {
			counts[SalaryBucket(lo*r, hi*r)]++
		}
	}
	return counts
}

// salaryOf returns job d's converted salary bounds (of either layer).
func (ix *Index) salaryOf(d uint32) (float64, float64) {
	if d >= ix.n {
		doc := &ix.delta.docs[d-ix.delta.first]
		return doc.SalaryMin, doc.SalaryMax
	}
	return ix.salMin[d], ix.salMax[d]
}
