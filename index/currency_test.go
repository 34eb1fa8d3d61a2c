// Tests of salaries compared in one currency: conversion at the index's
// rates in filters, sorts and the histogram, on a fresh build, after
// Apply and read back from a file; and without rates.

package index_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// testRates: 1 EUR = 1.25 USD = 160 JPY = 0.8 GBP (so 1 GBP = 1.5625 USD).
func testRates(t testing.TB) *currency.Rates {
	r, err := currency.Parse(strings.NewReader("Date,USD,JPY,GBP\n2026-04-13,1.25,160,0.8\n"))
	require.NoError(t, err)
	return r
}

// paidDoc is a job as the store gives it: annual bounds, the currency and
// the index's own salary keys.
func paidDoc(id string, posted int64, lo, hi float64, cur string) *index.Doc {
	d := &index.Doc{ID: id, Posted: posted, Dated: true, SalaryMin: lo, SalaryMax: hi, Currency: cur, Facets: map[string][]string{}}
	switch {
	case math.IsNaN(hi):
		d.Keys = []string{domain.NoSalaryKey}
	case cur != "":
		d.Keys = []string{domain.CurrencyKey(cur)}
	}
	return d
}

// currencyDocs, newest first: USD 100,000 (= GBP 64,000),
// GBP 80,000 (= USD 125,000), JPY 6,000,000 (= USD 46,875), CHF (no rate),
// no salary, and a salary without a currency.
func currencyDocs() []*index.Doc {
	nan := math.NaN()
	return []*index.Doc{
		paidDoc("c-1", 900, 100000, 100000, "USD"),
		paidDoc("c-2", 800, 80000, 80000, "GBP"),
		paidDoc("c-3", 700, 6000000, 6000000, "JPY"),
		paidDoc("c-4", 600, 120000, 120000, "CHF"),
		paidDoc("c-5", 500, nan, nan, ""),
		paidDoc("c-6", 400, 90000, 90000, ""),
	}
}

func currencyIndex(rates *currency.Rates, docs []*index.Doc) *index.Index {
	b := index.NewBuilder(1)
	b.SetRates(rates)
	b.AddCompany(0, "Acme", nil, "acme")
	for i, d := range docs {
		b.Add(d)
		b.SetIDRank(uint32(i), uint32(i))
	}
	return b.Build(b.Names())
}

func money(v float64) *float64 { return &v }

// salaryCase is a query in a currency and the ids it answers.
type salaryCase struct {
	name     string
	code     string
	lo, hi   *float64
	unknown  bool
	sort     domain.JobSort
	want     []string
	wantHist map[int]int // bucket → count (others 0)
}

var withRatesCases = []salaryCase{
	{name: "the issue's JPY salary fails a dollar minimum", code: "USD", lo: money(100000), want: []string{"c-1", "c-2"}},
	{name: "a dollar maximum", code: "USD", hi: money(100000), want: []string{"c-1", "c-3"}},
	{name: "a range in pounds", code: "GBP", lo: money(60000), hi: money(70000), want: []string{"c-1"}},
	{name: "a minimum in yen", code: "JPY", lo: money(10_000_000), want: []string{"c-1", "c-2"}},
	{name: "include unknown keeps no salary, never no rate", code: "USD", lo: money(100000), unknown: true, want: []string{"c-1", "c-2", "c-5"}},
	{name: "salary_desc: converted, no rate and no salary last", code: "USD", sort: domain.JobSortSalaryDesc,
		want: []string{"c-2", "c-1", "c-3", "c-4", "c-5", "c-6"}},
	{name: "salary_asc: the same in any currency", code: "JPY", sort: domain.JobSortSalaryAsc,
		want: []string{"c-3", "c-1", "c-2", "c-4", "c-5", "c-6"}},
}

var withoutRatesCases = []salaryCase{
	{name: "dollars only", code: "USD", lo: money(50000), want: []string{"c-1"}},
	{name: "pounds only", code: "GBP", lo: money(50000), want: []string{"c-2"}},
	{name: "yen only", code: "JPY", hi: money(7_000_000), want: []string{"c-3"}},
	{name: "include unknown", code: "USD", lo: money(50000), unknown: true, want: []string{"c-1", "c-5"}},
}

func (tc salaryCase) query(rates *currency.Rates) domain.JobQuery {
	sort := tc.sort
	if sort == "" {
		sort = domain.JobSortNewest
	}
	return domain.JobQuery{SalaryMin: tc.lo, SalaryMax: tc.hi, IncludeUnknownSalary: tc.unknown, Sort: sort, Limit: 100,
		Currency: domain.SalaryCurrency{Code: tc.code, Rates: rates}}
}

func checkSalaryCases(t *testing.T, ix *index.Index, rates *currency.Rates, cases []salaryCase) {
	t.Helper()
	for _, tc := range cases {
		page, ok := ix.Search(tc.query(rates))
		require.True(t, ok, tc.name)
		assert.Equal(t, tc.want, page.IDs, tc.name)
		assert.Equal(t, len(tc.want), page.Total, tc.name)
	}
}

func histogram(t *testing.T, ix *index.Index, rates *currency.Rates, code string) map[int]int {
	t.Helper()
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 10, Currency: domain.SalaryCurrency{Code: code, Rates: rates}}
	f, ok := ix.Facets(q, []string{domain.FacetSalary}, 10)
	require.True(t, ok)
	require.Len(t, f[0].Buckets, index.SalaryBuckets+1)
	out := map[int]int{}
	for i, b := range f[0].Buckets {
		if b.Count > 0 {
			out[i] = b.Count
		}
	}
	return out
}

// Histograms at the test rates: USD 100,000 → 100–125k; GBP 80,000 =
// USD 125,000 → 125–150k; JPY 6,000,000 = USD 46,875 → 25–50k. In pounds:
// 64,000, 80,000 and 30,000. In yen: all past 300,000.
var wantHistograms = map[string]map[int]int{
	"USD": {4: 1, 5: 1, 1: 1},
	"GBP": {2: 1, 3: 1, 1: 1},
	"JPY": {12: 3},
}

func TestSalariesInOneCurrency(t *testing.T) {
	rates := testRates(t)
	ix := currencyIndex(rates, currencyDocs())
	checkSalaryCases(t, ix, rates, withRatesCases)
	for code, want := range wantHistograms {
		assert.Equal(t, want, histogram(t, ix, rates, code), code)
	}

	t.Run("a query read at other rates is not answered", func(t *testing.T) {
		other, err := currency.Parse(strings.NewReader("Date,USD\n2026-04-14,1.3\n"))
		require.NoError(t, err)
		q := withRatesCases[0].query(other)
		_, ok := ix.Search(q)
		assert.False(t, ok)
		_, ok = ix.Facets(domain.JobQuery{Sort: domain.JobSortNewest, Currency: q.Currency}, []string{domain.FacetSalary}, 10)
		assert.False(t, ok)
		_, ok = ix.Facets(domain.JobQuery{Sort: domain.JobSortNewest, Currency: q.Currency}, []string{"city"}, 10)
		assert.True(t, ok, "no salary compared: any rates do")
	})

	t.Run("after Apply, as a fresh build", func(t *testing.T) {
		docs := currencyDocs()
		base := currencyIndex(rates, docs[3:])
		layered, err := base.Apply(2, index.Change{Add: docs[:3]}, func(names []string) ([]string, error) { return names, nil })
		require.NoError(t, err)
		checkSalaryCases(t, layered, rates, withRatesCases)
		for code, want := range wantHistograms {
			assert.Equal(t, want, histogram(t, layered, rates, code), code)
		}
	})

	t.Run("read back from a file with the same rates only", func(t *testing.T) {
		var buf bytes.Buffer
		_, err := ix.WriteTo(&buf)
		require.NoError(t, err)
		got, err := index.ReadIndex(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		assert.False(t, got.UseRates(nil), "without rates")
		require.True(t, got.UseRates(rates))
		checkSalaryCases(t, got, rates, withRatesCases)
		assert.Equal(t, wantHistograms["GBP"], histogram(t, got, rates, "GBP"))
	})
}

func TestSalariesWithoutRates(t *testing.T) {
	ix := currencyIndex(nil, currencyDocs())
	checkSalaryCases(t, ix, nil, withoutRatesCases)
	assert.Equal(t, map[int]int{4: 1}, histogram(t, ix, nil, "USD"), "dollar salaries only")
	assert.Equal(t, map[int]int{3: 1}, histogram(t, ix, nil, "GBP"))

	docs := currencyDocs()
	layered, err := currencyIndex(nil, docs[2:]).Apply(2, index.Change{Add: docs[:2]}, func(names []string) ([]string, error) { return names, nil })
	require.NoError(t, err)
	checkSalaryCases(t, layered, nil, withoutRatesCases)
	assert.Equal(t, map[int]int{3: 1}, histogram(t, layered, nil, "GBP"))
}
