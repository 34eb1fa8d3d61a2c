package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// TestTopCountsFindsTheLargest: under random filters, the values TopCounts
// counts hold the k largest counts (ties included), each equal to Search's
// total of the filter and the value, and it skips values; in a base and
// in a layer over it that removed and replaced jobs, for values of one key,
// of several (a city and an arrangement, as a city with its state) and of
// a company, counted anew and kept (each base is asked five times).
func TestTopCountsFindsTheLargest(t *testing.T) {
	base := synthetic(20000)
	var values []*domain.ValueFilter
	for i := range 220 {
		values = append(values, &domain.ValueFilter{Filters: []domain.KeyFilter{{Field: "skills", Keys: []string{fmt.Sprintf("skills:Skill %d", i)}}}})
	}
	values = append(values, &domain.ValueFilter{Company: "company 1"}, &domain.ValueFilter{Filters: []domain.KeyFilter{{Field: "skills", Keys: []string{"skills:none"}}}})
	for c := range 30 {
		values = append(values, &domain.ValueFilter{Filters: []domain.KeyFilter{
			{Field: "city", Keys: []string{fmt.Sprintf("city:City %d", c*15)}},
			{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}}})
	}
	r := rand.New(rand.NewPCG(5, 6))
	var change index.Change
	for range 300 {
		change.Remove = append(change.Remove, fmt.Sprintf("src-%08d", r.IntN(20000)))
		change.Add = append(change.Add, syntheticDoc(r, r.IntN(20000), 200))
	}
	layered, err := base.Apply(2, change, func(names []string) ([]string, error) { return names, nil })
	require.NoError(t, err)
	for name, ix := range map[string]*index.Index{"base": base, "layered": layered} {
		t.Run(name, func(t *testing.T) { topCountsAgree(t, ix, values) })
	}
}

// topCountsAgree checks TopCounts on ix against Search, under a few
// bases.
func topCountsAgree(t *testing.T, ix *index.Index, values []*domain.ValueFilter) {
	bases := []domain.JobQuery{
		{},
		{Filters: []domain.KeyFilter{{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}}},
		{Filters: []domain.KeyFilter{{Field: "city", Keys: []string{"city:City 400", "city:City 7"}}}},
		{Company: "company 3"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	skipped := 0
	for _, base := range bases {
		for range 5 {
			k := 1 + r.IntN(12)
			counts, ok := ix.TopCounts(base, values, k)
			require.True(t, ok)
			exact := make([]int, len(values))
			for i, v := range values {
				q := v.Query()
				q.Filters = append(slices.Clone(base.Filters), q.Filters...)
				if base.Company != "" {
					if q.Company != "" {
						continue // two company substrings: not a query Search takes
					}
					q.Company = base.Company
				}
				q.Sort, q.Limit = domain.JobSortNewest, 1
				page, ok := ix.Search(q)
				require.True(t, ok)
				exact[i] = page.Total
				if counts[i] >= 0 {
					assert.Equal(t, exact[i], counts[i], "value %d under %+v", i, base)
				} else {
					skipped++
				}
			}
			sorted := slices.Clone(exact)
			slices.Sort(sorted)
			slices.Reverse(sorted)
			kth := sorted[min(k, len(sorted))-1]
			for i, n := range exact {
				if n >= kth && n > 0 {
					assert.GreaterOrEqual(t, counts[i], 0, "value %d (count %d, k-th %d) is counted", i, n, kth)
				}
			}
		}
	}
	assert.Positive(t, skipped, "values below the k largest are skipped")
}
