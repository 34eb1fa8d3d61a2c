// Currency: salaries compared in the currency a query names, in SQL as the
// index compares them (index/currency.go), to the bit.

package store

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
)

// rateCases caches, by rates' digest, the SQL of a job's salary currency's
// rate (rateCase).
var rateCases sync.Map

// rateCase is the SQL of the rate of a job's salary currency (units per
// euro), NULL for a currency without one (or none): a CASE over the
// rates, each a float8 literal that reads back as the same double.
func rateCase(r *currency.Rates) string {
	if v, ok := rateCases.Load(r.Digest()); ok {
		return v.(string)
	}
	var b strings.Builder
	b.WriteString("(CASE j.salary_currency")
	for _, code := range r.Codes() {
		rate, _ := r.Rate(code)
		// Codes are three capital letters (currency.Parse checks them).
		b.WriteString(" WHEN '" + code + "' THEN " + floatSQL(rate))
	}
	b.WriteString(" END)")
	rateCases.Store(r.Digest(), b.String())
	return b.String()
}

// floatSQL is a float8 literal of v that PostgreSQL reads as v exactly.
func floatSQL(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64) + "::float8"
}

// salaryBounds returns the SQL of a job's annualized salary bounds in the
// unit c compares in: euros at c's rates (NULL without a rate), or the
// amounts as given without rates.
func salaryBounds(c domain.SalaryCurrency) (lo, hi string) {
	if c.Rates == nil {
		return "j.salary_annual_min", "j.salary_annual_max"
	}
	rate := rateCase(c.Rates)
	return "(j.salary_annual_min / " + rate + ")", "(j.salary_annual_max / " + rate + ")"
}

// queryUnit converts an amount of c's currency to salaryBounds' unit, as
// the index does (Index.fromQuery).
func queryUnit(v float64, c domain.SalaryCurrency) float64 {
	if c.Rates == nil {
		return v
	}
	r, _ := c.Rates.Rate(c.Code) // the service checked it
	return v / r
}

// annualFloor is an annual amount, in any currency, below which no job's
// maximum can reach v of c's currency once converted: v in euros times the
// smallest rate, less a margin for rounding. A condition the b-tree on
// salary_annual_max serves, implied by the converted one. False without
// rates (the amounts are compared as they are).
func annualFloor(v float64, c domain.SalaryCurrency) (float64, bool) {
	if c.Rates == nil {
		return 0, false
	}
	least := math.Inf(1)
	for _, code := range c.Rates.Codes() {
		r, _ := c.Rates.Rate(code)
		least = min(least, r)
	}
	return queryUnit(v, c) * least * (1 - 1e-9), true
}

// orderOf is q's keyset order, the salary sorts' keys in q's unit.
func orderOf(q domain.JobQuery) (order, bool) {
	ord, ok := orders[q.Sort]
	switch lo, hi := salaryBounds(q.Currency); q.Sort {
	case domain.JobSortSalaryDesc:
		ord.key = "coalesce(" + hi + ", -1)"
	case domain.JobSortSalaryAsc:
		ord.key = "coalesce(" + lo + ", 1e15)"
	}
	return ord, ok
}

// salaryHistogramSQL is the SQL of a job's salary bucket in c's currency
// (index.SalaryBucket's arithmetic, to the bit) and the condition of the
// jobs it counts.
func salaryHistogramSQL(c domain.SalaryCurrency, width, buckets int) (bucket, where string, args []any) {
	lo, hi := salaryBounds(c)
	if c.Rates == nil {
		return "least(greatest(floor((coalesce(" + lo + ", " + hi + ") + " + hi + ") / 2 / ?), 0), ?)::int",
			hi + " IS NOT NULL AND j.salary_currency = ?", []any{width, buckets, c.Code}
	}
	r, _ := c.Rates.Rate(c.Code)
	rate := floatSQL(r)
	return "least(greatest(floor((coalesce(" + lo + ", " + hi + ") * " + rate + " + " + hi + " * " + rate + ") / 2 / ?), 0), ?)::int",
		hi + " IS NOT NULL", []any{width, buckets}
}
