package index_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// synthetic builds an index of n jobs with a few skewed fields.
func synthetic(n int) *index.Index { return syntheticAt(n, nil) }

// syntheticAt is synthetic with salaries converted at rates.
func syntheticAt(n int, rates *currency.Rates) *index.Index {
	r := rand.New(rand.NewPCG(3, 4))
	b := index.NewBuilder(1)
	b.SetRates(rates)
	companies := max(n/100, 1)
	for c := range companies {
		b.AddCompany(int64(c), fmt.Sprintf("Company %d", c), nil, fmt.Sprintf("company-%d", c))
	}
	for i := range n {
		b.Add(syntheticDoc(r, i, companies))
		b.SetIDRank(uint32(i), uint32(i))
	}
	return b.Build(b.Names())
}

// syntheticCurrencies are the salaries' currencies, mostly dollars.
var syntheticCurrencies = []string{"USD", "USD", "USD", "USD", "USD", "USD", "EUR", "EUR", "GBP", "JPY"}

// syntheticDoc is the i-th job of synthetic (ids in byte order as i).
func syntheticDoc(r *rand.Rand, i, companies int) *index.Doc {
	arrangements := []string{"onsite", "onsite", "onsite", "hybrid", "remote"}
	d := &index.Doc{Facets: map[string][]string{}}
	d.ID = fmt.Sprintf("src-%08d", i)
	d.Posted = int64(2_000_000_000_000_000 - i*1000)
	d.Dated = i%50 != 0
	d.CompanyID = int64(r.IntN(companies))
	d.SalaryMin, d.SalaryMax = math.NaN(), math.NaN()
	salaryKey := domain.NoSalaryKey
	if r.IntN(3) > 0 {
		d.SalaryMin = float64(40000 + r.IntN(150000))
		d.SalaryMax = d.SalaryMin + float64(r.IntN(60000))
		d.Currency = syntheticCurrencies[i%len(syntheticCurrencies)]
		salaryKey = domain.CurrencyKey(d.Currency)
	}
	arr := arrangements[r.IntN(len(arrangements))]
	city := fmt.Sprintf("City %d", int(math.Sqrt(float64(r.IntN(250000)))))
	skills := []string{fmt.Sprintf("Skill %d", r.IntN(20)), fmt.Sprintf("Skill %d", 20+r.IntN(200))}
	d.Keys = []string{"work_arrangement:" + arr, "city:" + city, "skills:" + skills[0], "skills:" + skills[1], salaryKey}
	d.Facets["work_arrangement"] = []string{arr}
	d.Facets["city"] = []string{city}
	d.Facets["skills"] = skills
	return d
}

func TestSearchPagesInEveryOrder(t *testing.T) {
	ix := synthetic(5000)
	remote := domain.KeyFilter{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}
	for _, sort := range []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc, domain.JobSortSalaryAsc} {
		q := domain.JobQuery{Filters: []domain.KeyFilter{remote}, Sort: sort, Limit: 40}
		all, ok := ix.Search(domain.JobQuery{Filters: q.Filters, Sort: sort, Limit: 5000})
		require.True(t, ok)
		require.Len(t, all.IDs, all.Total)
		// Offsets walk the same list.
		var walked []string
		for q.Offset = 0; q.Offset < all.Total; q.Offset += q.Limit {
			p, ok := ix.Search(q)
			require.True(t, ok)
			assert.Equal(t, all.Total, p.Total)
			walked = append(walked, p.IDs...)
		}
		assert.Equal(t, all.IDs, walked, "%s", sort)
	}
}

func TestFacetsLeaveTheirOwnFilterOut(t *testing.T) {
	ix := synthetic(5000)
	remote := domain.KeyFilter{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}
	q := domain.JobQuery{Filters: []domain.KeyFilter{remote}, Sort: domain.JobSortNewest, Limit: 10}
	facets, ok := ix.Facets(q, []string{"work_arrangement", "city"}, 3)
	require.True(t, ok)
	require.Len(t, facets, 2)
	assert.Len(t, facets[0].Values, 3, "every arrangement, not only remote")
	page, _ := ix.Search(q)
	n := 0
	for _, v := range facets[0].Values {
		if v.Value == "remote" {
			n = v.Count
		}
	}
	assert.Equal(t, page.Total, n)
	assert.LessOrEqual(t, facets[1].Values[1].Count, facets[1].Values[0].Count)
}

func TestCompanySubstringUnionsEveryMatch(t *testing.T) {
	ix := synthetic(5000) // companies 0–49
	// The company facet leaves the company filter out: it counts every
	// company's jobs.
	facets, _ := ix.Facets(domain.JobQuery{Sort: domain.JobSortNewest}, []string{domain.FacetCompany}, 1000)
	// "Company 1" names companies 1 and 10–19 (a dense union), "Company 7"
	// only company 7 (pairwise).
	for needle, companies := range map[string]int{"company 1": 11, "COMPANY 7": 1} {
		page, ok := ix.Search(domain.JobQuery{Company: needle, Sort: domain.JobSortNewest, Limit: 10})
		require.True(t, ok)
		want, n := 0, 0
		for _, v := range facets[0].Values {
			if strings.Contains(strings.ToLower(v.Value), strings.ToLower(needle)) {
				want += v.Count
				n++
			}
		}
		assert.Equal(t, companies, n, needle)
		assert.Equal(t, want, page.Total, needle)
	}
}

func TestIneligibleQueries(t *testing.T) {
	ix := synthetic(10)
	for _, q := range []domain.JobQuery{{Q: "go"}, {TitleText: "chef"}, {Sort: domain.JobSortRelevance}} {
		_, ok := ix.Search(q)
		assert.False(t, ok)
		_, ok = ix.Facets(q, []string{"city"}, 10)
		assert.False(t, ok)
	}
}

// The benchmarks run on 200,000 jobs, the size the performance targets are set at.
var bench = struct {
	ix *index.Index
}{}

func benchIndex(b *testing.B) *index.Index {
	if bench.ix == nil {
		bench.ix = syntheticAt(200_000, benchRates(b))
	}
	return bench.ix
}

// benchRates are the benchmark index's currency rates, as a deployment
// with the rates file has them.
func benchRates(b testing.TB) *currency.Rates {
	r, err := currency.Parse(strings.NewReader("Date,USD,JPY,GBP\n2026-04-13,1.17,187,0.87\n"))
	require.NoError(b, err)
	return r
}

// inDollars is the default salary currency at the benchmark's rates.
func inDollars(b *testing.B) domain.SalaryCurrency {
	return domain.SalaryCurrency{Code: "USD", Rates: benchIndex(b).Rates()}
}

func BenchmarkSearchNewestNoFilter(b *testing.B) {
	ix := benchIndex(b)
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25}
	for b.Loop() {
		ix.Search(q)
	}
}

func BenchmarkSearchTwoFilters(b *testing.B) {
	ix := benchIndex(b)
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Filters: []domain.KeyFilter{
		{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}},
		{Field: "skills", Keys: []string{"skills:Skill 3", "skills:Skill 7"}},
	}}
	for b.Loop() {
		ix.Search(q)
	}
}

func BenchmarkSearchSalaryOffset10000(b *testing.B) {
	ix := benchIndex(b)
	lo, hi := 100000.0, 150000.0
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Offset: 10000, SalaryMin: &lo, SalaryMax: &hi, Currency: inDollars(b)}
	for b.Loop() {
		if _, ok := ix.Search(q); !ok {
			b.Fatal("not answered")
		}
	}
}

func BenchmarkSearchSalaryDesc(b *testing.B) {
	ix := benchIndex(b)
	q := domain.JobQuery{Sort: domain.JobSortSalaryDesc, Limit: 25, Currency: inDollars(b), Filters: []domain.KeyFilter{
		{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}},
	}}
	for b.Loop() {
		if _, ok := ix.Search(q); !ok {
			b.Fatal("not answered")
		}
	}
}

func BenchmarkFacetsFive(b *testing.B) {
	ix := benchIndex(b)
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Currency: inDollars(b), Filters: []domain.KeyFilter{
		{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}},
	}}
	fields := []string{"work_arrangement", "city", "skills", "company", "salary"}
	for b.Loop() {
		if _, ok := ix.Facets(q, fields, 10); !ok {
			b.Fatal("not answered")
		}
	}
}

// BenchmarkFacetsSalaryInPounds: the histogram in a currency other than
// the index's bitmaps' (USD), counted job by job.
func BenchmarkFacetsSalaryInPounds(b *testing.B) {
	ix := benchIndex(b)
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Currency: domain.SalaryCurrency{Code: "GBP", Rates: ix.Rates()},
		Filters: []domain.KeyFilter{{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}}}
	for b.Loop() {
		if _, ok := ix.Facets(q, []string{"salary"}, 10); !ok {
			b.Fatal("not answered")
		}
	}
}
