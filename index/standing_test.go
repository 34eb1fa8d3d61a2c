// Tests of standing queries: a Matcher judges each job's State as Search counts it.

package index_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/index"
)

// TestMatcherAgreesWithSearch: over a base and the layers applied on it,
// for random queries, the jobs whose State the query's Matcher accepts are
// exactly the jobs Search counts, and States has every job of the index
// (and none it lacks); the index's copy for judging (Judging) gives the
// same States, Matchers and key counts.
func TestMatcherAgreesWithSearch(t *testing.T) {
	for seed, size := range []struct{ jobs, companies int }{{600, 30}, {300, 5}, {40, 3}, {1500, 50}} {
		t.Run(fmt.Sprint(size.jobs, " jobs ", size.companies, " companies"), func(t *testing.T) {
			w := newWorld(uint64(seed), size.jobs, size.companies)
			ix := w.build(t, 1)
			for version := int64(2); version < 7; version++ {
				ids := slices.Sorted(maps.Keys(w.docs))
				states := ix.States(append(slices.Clone(ids), "unknown-id"))
				require.Len(t, states, len(ids), "States has the index's jobs only")
				judging := ix.Judging()
				judged := judging.States(append(slices.Clone(ids), "unknown-id"))
				require.Len(t, judged, len(ids))
				for _, id := range ids {
					// As text: a salary unknown is NaN, unequal to itself.
					require.Equal(t, fmt.Sprintf("%+v", *states[id]), fmt.Sprintf("%+v", *judged[id]))
				}
				require.Equal(t, ix.Version(), judging.Version())
				for range 120 {
					q := w.query()
					q.Offset, q.After, q.Limit = 0, nil, len(ids)+1
					page, ok := ix.Search(q)
					require.True(t, ok)
					want := map[string]bool{}
					for _, id := range page.IDs {
						want[id] = true
					}
					m, jm := ix.Matcher(q), judging.Matcher(q)
					for _, id := range ids {
						require.Equal(t, want[id], m.Match(states[id]), "job %s, query %+v", id, q)
						require.Equal(t, want[id], jm.Match(states[id]), "judging: job %s, query %+v", id, q)
					}
					for _, f := range q.Filters {
						for _, k := range f.Keys {
							require.Equal(t, ix.KeyJobs(k), judging.KeyJobs(k), "key %s", k)
						}
					}
					require.False(t, m.Match(nil))
				}
				var err error
				ix, err = ix.Apply(version, w.change(), collation)
				require.NoError(t, err)
			}
		})
	}
}

// TestStatesOfRemovedJobs: a job removed by a layer has no State in it,
// and keeps its State in the index before.
func TestStatesOfRemovedJobs(t *testing.T) {
	w := newWorld(3, 200, 10)
	ix := w.build(t, 1)
	id := slices.Sorted(maps.Keys(w.docs))[7]
	next, err := ix.Apply(2, index.Change{Remove: []string{id}}, collation)
	require.NoError(t, err)
	require.Contains(t, ix.States([]string{id}), id)
	require.NotContains(t, next.States([]string{id}), id)
	require.Equal(t, ix.States([]string{id})[id].Keys, slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(w.docs[id].Keys))))))
}
