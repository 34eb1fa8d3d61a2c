package index

import (
	"math/rand/v2"
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
