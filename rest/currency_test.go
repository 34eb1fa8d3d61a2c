package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// paths are the two ways a list is answered: the in-memory index, and SQL
// alone (serve --index=false; also the index's fallback).
var paths = []struct {
	name    string
	noIndex bool
}{{"index", false}, {"sql", true}}

// histogram is a salary facet's non-empty buckets: bucket → count.
func histogram(t *testing.T, m listMeta) map[int]int {
	t.Helper()
	out := map[int]int{}
	for i, b := range buckets(t, m) {
		if b.Count > 0 {
			out[i] = b.Count
		}
	}
	return out
}

// TestSalaryCurrency: salary_currency and the conversion at the rates, in
// filters, both salary sorts and the histogram, on both answer paths; the
// errors; meta.normalized; cards as given.
func TestSalaryCurrency(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			h := apitest.NewWithOptions(t, apitest.CurrencyJobs, apitest.Options{Rates: apitest.TestRates(t), NoIndex: p.noIndex}).REST()
			for query, want := range map[string][]string{
				"salary_min=100000":                                     {"cur-1", "cur-2"}, // not JPY 6,000,000 (USD 46,875)
				"salary_max=100000":                                     {"cur-1", "cur-3"},
				"salary_min=10000000&salary_currency=jpy":               {"cur-1", "cur-2"},
				"salary_min=60000&salary_max=70000&salary_currency=GBP": {"cur-1"}, // USD 100,000 = GBP 64,000
				"salary_min=100000&include_unknown_salary=true":         {"cur-1", "cur-2", "cur-5"},
				"sort=salary_desc":                                      {"cur-2", "cur-1", "cur-3", "cur-4", "cur-5"},
				"sort=salary_asc&salary_currency=GBP":                   {"cur-3", "cur-1", "cur-2", "cur-4", "cur-5"},
				"sort=salary_desc&limit=2":                              {"cur-2", "cur-1"},
			} {
				body := jobs(t, h, query)
				assert.Equal(t, want, ids(body.Data), query)
				assert.Equal(t, map[string]any{"currency": expectCode(query), "rates_date": apitest.TestRatesDate},
					body.Meta.Normalized["salary_currency"], query)
			}

			// A walk by cursor in salary order.
			body := jobs(t, h, "sort=salary_desc&limit=2")
			require.NotNil(t, body.Meta.NextCursor)
			body = jobs(t, h, "sort=salary_desc&limit=2&cursor="+*body.Meta.NextCursor)
			assert.Equal(t, []string{"cur-3", "cur-4"}, ids(body.Data))

			body = jobs(t, h, "facets=salary")
			assert.Equal(t, map[int]int{1: 1, 4: 1, 5: 1}, histogram(t, body.Meta), "USD: 46,875, 100,000, 125,000")
			assert.Equal(t, map[string]any{"currency": "USD", "rates_date": apitest.TestRatesDate}, body.Meta.Normalized["salary_currency"],
				"named when the histogram is asked for")
			body = jobs(t, h, "facets=salary&salary_currency=gbp")
			assert.Equal(t, map[int]int{1: 1, 2: 1, 3: 1}, histogram(t, body.Meta), "GBP: 30,000, 64,000, 80,000")

			body = jobs(t, h, "company=yen")
			assert.NotContains(t, body.Meta.Normalized, "salary_currency", "no salary compared, none named")
			require.Len(t, body.Data, 1)
			s := body.Data[0].Salary
			require.NotNil(t, s)
			assert.Equal(t, "JPY", *s.Currency, "cards show the salary as given")
			assert.Equal(t, 6000000.0, *s.Min)

			for _, query := range []string{"salary_currency=CHF&salary_min=1", "salary_currency=dollars", "salary_currency=", "salary_currency=XTS&sort=salary_asc"} {
				e := fail(t, h, "/api/v1/jobs?"+query, http.StatusBadRequest)
				assert.Equal(t, "invalid_parameter", e.Error.Code, query)
				assert.Equal(t, "salary_currency", e.Error.Param, query)
			}
			e := fail(t, h, "/api/v1/jobs?salary_currency=CHF", http.StatusBadRequest)
			assert.Contains(t, e.Error.Message, "EUR, GBP, JPY, USD", "names the currencies with rates")
		})
	}
}

// expectCode is the currency a test query names (USD unless it names one).
func expectCode(query string) string {
	if _, c, ok := strings.Cut(query, "salary_currency="); ok {
		code, _ := currency.ValidCode(c[:3])
		return code
	}
	return "USD"
}

// TestSalaryCurrencyWithoutRates: without the rates file, salary filters
// and the histogram keep the postings of the requested currency.
func TestSalaryCurrencyWithoutRates(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			h := apitest.NewWithOptions(t, apitest.CurrencyJobs, apitest.Options{NoIndex: p.noIndex}).REST()
			for query, want := range map[string][]string{
				"salary_min=50000":                             {"cur-1"},
				"salary_min=50000&salary_currency=GBP":         {"cur-2"},
				"salary_min=1&salary_currency=chf":             {"cur-4"},
				"salary_max=7000000&salary_currency=JPY":       {"cur-3"},
				"salary_min=50000&include_unknown_salary=true": {"cur-1", "cur-5"},
			} {
				body := jobs(t, h, query)
				assert.Equal(t, want, ids(body.Data), query)
				norm, ok := body.Meta.Normalized["salary_currency"].(map[string]any)
				require.True(t, ok, query)
				assert.Nil(t, norm["rates_date"], "no rates")
			}
			body := jobs(t, h, "facets=salary")
			assert.Equal(t, map[int]int{4: 1}, histogram(t, body.Meta), "dollar salaries only")
			body = jobs(t, h, "facets=salary&salary_currency=GBP")
			assert.Equal(t, map[int]int{3: 1}, histogram(t, body.Meta))
			e := fail(t, h, "/api/v1/jobs?salary_currency=US", http.StatusBadRequest)
			assert.Equal(t, "salary_currency", e.Error.Param)
		})
	}
}
