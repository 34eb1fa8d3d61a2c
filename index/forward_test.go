package index

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/assert"
)

// TestForwardCountsAsIntersections: a forward index counts what each
// value's bitmap intersected with the docs counts, in each of its forms.
func TestForwardCountsAsIntersections(t *testing.T) {
	const n = 70_000 // more than one roaring container
	for _, tc := range []struct {
		name   string
		values int
		// more is the share (in tenths) of jobs with a second value;
		// perJob values the others have.
		perJob, more int
		form         func(*forward) bool
	}{
		{"one a job", 20, 1, 0, func(f *forward) bool { return f.singleOnly() }},
		{"some with two", 20, 1, 1, func(f *forward) bool { return f.single != nil && len(f.multi) > 0 }},
		{"three a job", 20, 3, 0, func(f *forward) bool { return f.single == nil && f.narrow != nil }},
		{"more values than two bytes hold", 70_000, 2, 0, func(f *forward) bool { return f.wide != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			vs := make([]*value, tc.values)
			for i := range vs {
				vs[i] = &value{docs: roaring.New()}
			}
			for d := range uint32(n) {
				if r.IntN(10) == 0 {
					continue // a job without the field
				}
				k := tc.perJob
				if r.IntN(10) < tc.more {
					k++
				}
				for range k {
					vs[r.IntN(len(vs))].docs.Add(d)
				}
			}
			f := newForward(vs, n)
			assert.True(t, tc.form(f), "the form")
			for _, every := range []int{1, 7, 300} {
				docs := roaring.New()
				for d := range uint32(n) {
					if r.IntN(every) == 0 {
						docs.Add(d)
					}
				}
				counts := f.count(docs, len(vs), n)
				for i, v := range vs {
					if want := uint32(docs.AndCardinality(v.docs)); want != counts[i] {
						assert.Equal(t, want, counts[i], "value %d, one job in %d", i, every)
						return
					}
				}
			}
		})
	}
}

// TestCompanyCandidates: the companies of a substring's rarest trigram hold
// every company whose name holds the substring.
func TestCompanyCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	b := NewBuilder(1)
	names := []string{"Acme Cloud", "Globex", "Initech", "Umbrella Corp", "Stark Industries", "Wayne Enterprises",
		"Café Übersee", "ACME Robotics", "Cloudy", "Ab", "Société Générale"}
	for i, name := range names {
		b.AddCompany(int64(i), name, nil, "")
		b.Add(&Doc{ID: "src-" + name, CompanyID: int64(i), Facets: map[string][]string{}})
		b.SetIDRank(uint32(i), uint32(i))
	}
	ix := b.Build(b.Names())
	for range 2000 {
		name := strings.ToLower(names[r.IntN(len(names))])
		start := r.IntN(len(name))
		needle := name[start:min(len(name), start+1+r.IntN(6))]
		if r.IntN(5) == 0 {
			needle += "x" // mostly in no name
		}
		candidates := map[string]bool{}
		for _, i := range ix.companyCandidates(needle) {
			candidates[ix.companies[i].lower] = true
		}
		for _, c := range ix.companies {
			if strings.Contains(c.lower, needle) {
				assert.True(t, candidates[c.lower], "%q holds %q", c.lower, needle)
			}
		}
	}
}
