// Benchmarks of Apply's cost, and of queries on a layered index against the fresh one.

package index_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// syntheticChange is a batch over synthetic(n): removed of its jobs gone,
// added jobs (a quarter of them replacing one of its jobs) posted among
// its own, some of them of a new company with a new city.
func syntheticChange(r *rand.Rand, n, removed, added int, serial *int) index.Change {
	companies := max(n/100, 1)
	var ch index.Change
	for range removed {
		ch.Remove = append(ch.Remove, fmt.Sprintf("src-%08d", r.IntN(n)))
	}
	for range added {
		*serial++
		d := syntheticDoc(r, n+*serial, companies)
		d.Posted = int64(2_000_000_000_000_000 - r.IntN(n)*1000 - 1)
		if r.IntN(4) == 0 {
			d.ID = fmt.Sprintf("src-%08d", r.IntN(n))
		}
		if r.IntN(100) == 0 {
			id := int64(companies + *serial)
			ch.Companies = append(ch.Companies, index.Company{ID: id, Name: fmt.Sprint("Newco ", id), Slug: fmt.Sprint("newco-", id)})
			d.CompanyID = id
			d.Facets["city"] = []string{fmt.Sprint("New city ", *serial)}
			d.Keys[1] = fmt.Sprint("city:New city ", *serial)
		}
		ch.Add = append(ch.Add, d)
	}
	return ch
}

// withDelta applies batches of 50 changes to ix until its delta has about
// size jobs.
func withDelta(b testing.TB, ix *index.Index, n, size int) *index.Index {
	r, serial := rand.New(rand.NewPCG(7, 8)), 0
	for v := int64(2); ix.DeltaLen() < size; v++ {
		var err error
		if ix, err = ix.Apply(v, syntheticChange(r, n, 20, 30, &serial), collation); err != nil {
			b.Fatal(err)
		}
	}
	return ix
}

var million *index.Index

// BenchmarkApply applies 50 changes (20 removals, 30 jobs added or
// replaced) to an index of 1,000,000 jobs, fresh or with a delta.
func BenchmarkApply(b *testing.B) {
	if million == nil {
		million = synthetic(1_000_000)
	}
	for _, size := range []int{0, 5000, 50000} {
		ix := withDelta(b, million, 1_000_000, size)
		b.Run(fmt.Sprint("delta ", size), func(b *testing.B) {
			r, serial := rand.New(rand.NewPCG(9, 10)), 0
			for b.Loop() {
				ch := syntheticChange(r, 1_000_000, 20, 30, &serial)
				if _, err := ix.Apply(100, ch, collation); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLayered runs queries on the benchmark index, fresh and with a
// delta of 5,000 jobs (about 2,000 removed or replaced, 3,000 added).
func BenchmarkLayered(b *testing.B) {
	fresh := benchIndex(b)
	layered := withDelta(b, fresh, 200_000, 5000)
	lo, hi := 100000.0, 150000.0
	remote := domain.KeyFilter{Field: "work_arrangement", Keys: []string{"work_arrangement:remote"}}
	skills := domain.KeyFilter{Field: "skills", Keys: []string{"skills:Skill 3", "skills:Skill 7"}}
	queries := []struct {
		name string
		q    domain.JobQuery
	}{
		{"newest", domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25}},
		{"two filters", domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Filters: []domain.KeyFilter{remote, skills}}},
		{"salary offset 10000", domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Offset: 10000, SalaryMin: &lo, SalaryMax: &hi, Currency: inDollars(b)}},
		{"salary desc", domain.JobQuery{Sort: domain.JobSortSalaryDesc, Limit: 25, Filters: []domain.KeyFilter{remote}, Currency: inDollars(b)}},
		{"oldest after cursor", domain.JobQuery{Sort: domain.JobSortOldest, Limit: 25, Filters: []domain.KeyFilter{remote},
			After: &domain.Cursor{Sort: domain.JobSortOldest, ID: "src-00150000", Time: timeOf(150000)}}},
		{"company substring", domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Company: "company 1"}},
	}
	for _, tc := range queries {
		for name, ix := range map[string]*index.Index{"fresh": fresh, "layered": layered} {
			b.Run(tc.name+"/"+name, func(b *testing.B) {
				for b.Loop() {
					if _, ok := ix.Search(tc.q); !ok {
						b.Fatal("not answered")
					}
				}
			})
		}
	}
	q := domain.JobQuery{Sort: domain.JobSortNewest, Limit: 25, Filters: []domain.KeyFilter{remote}, Currency: inDollars(b)}
	fields := []string{"work_arrangement", "city", "skills", "company", "salary"}
	for name, ix := range map[string]*index.Index{"fresh": fresh, "layered": layered} {
		b.Run("facets five/"+name, func(b *testing.B) {
			for b.Loop() {
				ix.Facets(q, fields, 10)
			}
		})
		b.Run("companies remote/"+name, func(b *testing.B) {
			for b.Loop() {
				ix.Companies(q, 1, 20, 0)
			}
		})
	}
}

// timeOf is the posted time of synthetic's i-th job.
func timeOf(i int) time.Time { return time.UnixMicro(int64(2_000_000_000_000_000 - i*1000)) }
