package store_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// storeRates are made-up rates for most of the seed's currencies; ILS and
// MXN have none.
const storeRates = "Date, USD, JPY, GBP, CAD, SEK, CHF, PLN, INR, SGD, AUD, BRL, \n" +
	"13 April 2026, 1.17, 186.7, 0.871, 1.62, 10.9, 0.924, 4.25, 109.05, 1.49, 1.66, 5.87, \n"

// TestIndexAnswersAsSQLInCurrencies: salary filters, both salary sorts
// (cursor walks included), the histogram and company counts in several
// currencies, with and without rates, are the same through the index as
// in SQL alone, over the fixture and generated postings in a dozen
// currencies.
func TestIndexAnswersAsSQLInCurrencies(t *testing.T) {
	rates, err := currency.Parse(strings.NewReader(storeRates))
	require.NoError(t, err)
	for _, r := range []*currency.Rates{rates, nil} {
		t.Run(fmt.Sprintf("rates=%v", r != nil), func(t *testing.T) {
			e := newEnv(t)
			e.importFixture("jobs.ndjson")
			var buf bytes.Buffer
			require.NoError(t, seed.Write(&buf, seed.Options{N: 800, Seed: 11}))
			res, err := e.importText(buf.String(), importer.Options{})
			require.NoError(t, err)
			require.Empty(t, res.Invalid)
			indexed, x := e.startIndexed(store.IndexOptions{Rates: func() *currency.Rates { return r }})

			rng := rand.New(rand.NewPCG(5, 6))
			codes := []string{"USD", "GBP", "JPY", "EUR", "CHF"}
			sorts := []domain.JobSort{domain.JobSortSalaryDesc, domain.JobSortSalaryAsc, domain.JobSortNewest}
			matched := 0
			for i := range 60 {
				code := codes[rng.IntN(len(codes))]
				scale := map[string]float64{"JPY": 160, "GBP": 0.8, "CHF": 0.9, "EUR": 0.92}[code]
				if scale == 0 {
					scale = 1
				}
				var f domain.JobFilter
				f.SalaryCurrency = &code
				if rng.IntN(4) > 0 {
					lo := float64(20000+rng.IntN(150000)) * scale
					f.SalaryMin = &lo
				}
				if rng.IntN(3) == 0 {
					hi := float64(120000+rng.IntN(200000)) * scale
					f.SalaryMax = &hi
				}
				if rng.IntN(5) == 0 {
					yes := true
					f.IncludeUnknownSalary = &yes
				}
				if rng.IntN(3) == 0 {
					f.WorkArrangement = []domain.WorkArrangement{domain.WorkArrangementRemote}
				}
				sort := sorts[rng.IntN(len(sorts))]
				limit := 5 + rng.IntN(20)
				q, err := search.ReadJobQuery(e.norm, &f, search.Page{Limit: &limit}, &sort)
				if domain.ErrorCode(err) == domain.CodeInvalidParameter {
					continue // salary_min above salary_max
				}
				require.NoError(t, err)
				q.Currency.Rates = r // as the search service gives it
				name := fmt.Sprintf("%d %+v sort=%s", i, q.Normalized, sort)
				requireSamePages(t, e, indexed, q, name)
				requireSameCompanies(t, e, indexed, domain.CompanyQuery{MinJobs: 1, Limit: 20, Jobs: &q}, name)
				fields := []string{domain.FacetSalary, "work_arrangement"}
				want, err := e.st.Facets(e.ctx, q, fields, 5)
				require.NoError(t, err)
				got, err := indexed.Facets(e.ctx, q, fields, 5)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s: facets", name)
				_, n, _, err := e.st.FindJobCards(e.ctx, q)
				require.NoError(t, err)
				matched += n
			}
			assert.Positive(t, matched, "the filters match jobs")
			stats := x.Stats()
			assert.Greater(t, stats.Answered, int64(150), "the index answered")
			assert.Zero(t, stats.SQLAnswers)
		})
	}
}

// TestIndexRebuildsAtNewRates: when the rates change, queries comparing
// salaries are answered in SQL at the new rates until the index is built
// anew at them, and then by the index again.
func TestIndexRebuildsAtNewRates(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	first, err := currency.Parse(strings.NewReader("Date,USD,GBP\n2026-04-13,1.25,0.8\n"))
	require.NoError(t, err)
	second, err := currency.Parse(strings.NewReader("Date,USD,GBP\n2026-04-14,1.25,1.25\n"))
	require.NoError(t, err)
	var cur atomic.Pointer[currency.Rates]
	cur.Store(first)
	indexed, x := e.startIndexed(store.IndexOptions{Poll: 20 * time.Millisecond, Rates: cur.Load})

	// test-4 pays GBP 500–600 a day (GBP 130,000–156,000 a year): at 0.8
	// GBP a euro that is USD 203,125–243,750, at 1.25 USD 130,000–156,000.
	min := 200000.0
	ids := func(r *currency.Rates) []string {
		q, err := search.ReadJobQuery(e.norm, &domain.JobFilter{SalaryMin: &min}, search.Page{}, nil)
		require.NoError(t, err)
		q.Currency.Rates = r
		cards, _, _, err := indexed.FindJobCards(e.ctx, q)
		require.NoError(t, err)
		return cardIDs(cards)
	}
	assert.Equal(t, []string{"test-1", "test-4", "test-9"}, ids(first))
	answered := x.Stats().Answered
	assert.Positive(t, answered)

	cur.Store(second)
	assert.Equal(t, []string{"test-1", "test-9"}, ids(second), "at once, in SQL if need be")
	require.Eventually(t, func() bool {
		before := x.Stats().Answered
		got := ids(second)
		return x.Stats().Answered > before && assert.Equal(t, []string{"test-1", "test-9"}, got)
	}, 10*time.Second, 20*time.Millisecond, "the index answers at the new rates")
}
