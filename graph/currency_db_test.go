package graph_test

import (
	"testing"

	gqlclient "github.com/99designs/gqlgen/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestSalaryCurrency: JobFilter.salaryCurrency in filters, both salary
// sorts and the SALARY histogram, with and without rates, on both answer
// paths (the index, and SQL alone); a bad currency is invalid_parameter.
func TestSalaryCurrency(t *testing.T) {
	const query = `query($filter: JobFilter, $sort: JobSort) {
  jobs(filter: $filter, sort: $sort, limit: 10) {
    nodes { id salary { min currency } }
    facets(fields: [SALARY]) { buckets { min count } }
  }
}`
	type resp struct {
		Jobs struct {
			Nodes []struct {
				ID     string `json:"id"`
				Salary *struct {
					Min      float64 `json:"min"`
					Currency string  `json:"currency"`
				} `json:"salary"`
			} `json:"nodes"`
			Facets []struct {
				Buckets []struct {
					Min   float64 `json:"min"`
					Count int     `json:"count"`
				} `json:"buckets"`
			} `json:"facets"`
		} `json:"jobs"`
	}
	run := func(t *testing.T, c *gqlclient.Client, filter map[string]any, sort string) ([]string, map[int]int, resp) {
		t.Helper()
		var r resp
		vars := []gqlclient.Option{gqlclient.Var("filter", filter)}
		if sort != "" {
			vars = append(vars, gqlclient.Var("sort", sort))
		}
		require.NoError(t, c.Post(query, &r, vars...))
		ids := []string{}
		for _, n := range r.Jobs.Nodes {
			ids = append(ids, n.ID)
		}
		hist := map[int]int{}
		require.Len(t, r.Jobs.Facets, 1)
		for i, b := range r.Jobs.Facets[0].Buckets {
			if b.Count > 0 {
				hist[i] = b.Count
			}
		}
		return ids, hist, r
	}
	for _, p := range []struct {
		name    string
		noIndex bool
	}{{"index", false}, {"sql", true}} {
		t.Run(p.name, func(t *testing.T) {
			c := gql(apitest.NewWithOptions(t, apitest.CurrencyJobs, apitest.Options{Rates: apitest.TestRates(t), NoIndex: p.noIndex}))
			ids, hist, r := run(t, c, map[string]any{"salaryMin": 100000}, "")
			assert.Equal(t, []string{"cur-1", "cur-2"}, ids, "not JPY 6,000,000 (USD 46,875)")
			assert.Equal(t, map[int]int{1: 1, 4: 1, 5: 1}, hist, "the histogram leaves its own filter out")
			ids, _, _ = run(t, c, map[string]any{"salaryMin": 10000000, "salaryCurrency": "JPY"}, "")
			assert.Equal(t, []string{"cur-1", "cur-2"}, ids)
			ids, hist, _ = run(t, c, map[string]any{"salaryCurrency": "gbp"}, "SALARY_DESC")
			assert.Equal(t, []string{"cur-2", "cur-1", "cur-3", "cur-4", "cur-5"}, ids, "no rate and no salary last")
			assert.Equal(t, map[int]int{1: 1, 2: 1, 3: 1}, hist, "in pounds: 30,000, 64,000, 80,000")
			ids, _, r = run(t, c, nil, "SALARY_ASC")
			assert.Equal(t, []string{"cur-3", "cur-1", "cur-2", "cur-4", "cur-5"}, ids)
			require.NotNil(t, r.Jobs.Nodes[0].Salary)
			assert.Equal(t, "JPY", r.Jobs.Nodes[0].Salary.Currency, "shown as given")
			assert.Equal(t, 6000000.0, r.Jobs.Nodes[0].Salary.Min)

			for _, code := range []string{"CHF", "dollars", ""} {
				var r resp
				err := c.Post(query, &r, gqlclient.Var("filter", map[string]any{"salaryCurrency": code}))
				errs := errorsOf(t, err)
				assert.Equal(t, "invalid_parameter", errs[0].Extensions.Code, code)
				assert.Equal(t, "salaryCurrency", errs[0].Extensions.Param, code, "GraphQL names its own argument")
			}
		})
		t.Run(p.name+" without rates", func(t *testing.T) {
			c := gql(apitest.NewWithOptions(t, apitest.CurrencyJobs, apitest.Options{NoIndex: p.noIndex}))
			ids, hist, _ := run(t, c, map[string]any{"salaryMin": 50000, "salaryCurrency": "GBP"}, "")
			assert.Equal(t, []string{"cur-2"}, ids, "pounds only")
			assert.Equal(t, map[int]int{3: 1}, hist)
			ids, hist, _ = run(t, c, map[string]any{"salaryMin": 50000}, "")
			assert.Equal(t, []string{"cur-1"}, ids, "dollars only")
			assert.Equal(t, map[int]int{4: 1}, hist)
		})
	}
}
