package index

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/assert"
)

// TestForwardCountsAsIntersections: a forward index counts what each
// value's bitmap intersected with the docs counts, in both of its forms
// (one value a job at most, and many).
func TestForwardCountsAsIntersections(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 70_000 // more than one roaring container
	for _, perJob := range []int{1, 3} {
		vs := make([]*value, 20)
		for i := range vs {
			vs[i] = &value{docs: roaring.New()}
		}
		for d := range uint32(n) {
			if r.IntN(10) == 0 {
				continue // a job without the field
			}
			for range perJob {
				vs[r.IntN(len(vs))].docs.Add(d)
			}
		}
		f := newForward(vs, n)
		assert.Equal(t, perJob == 1, f.single != nil, "the form of %d values a job", perJob)
		docs := roaring.New()
		for d := range uint32(n) {
			if r.IntN(7) == 0 {
				docs.Add(d)
			}
		}
		counts := f.count(docs, len(vs))
		for i, v := range vs {
			assert.Equal(t, uint32(docs.AndCardinality(v.docs)), counts[i], "value %d, %d values a job", i, perJob)
		}
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
