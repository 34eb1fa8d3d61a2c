// Salary bounds: the per-job salary index that answers the salary filters.

package index

import (
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// salaryLevels is how many value ranges a salaryIndex cuts its values into.
const salaryLevels = 64

// salaryIndex answers "value ≥ v" and "value ≤ v" over one per-job number
// (an annualized salary bound) without scanning every job: the values are
// cut into ranges of about equal population, each with the bitmap of the
// jobs at or above its start, so a bound costs one bitmap copy and a scan
// of the one range it falls in.
type salaryIndex struct {
	values  []float64         // by job; NaN when unknown
	bounds  []float64         // start of each range, ascending
	atLeast []*roaring.Bitmap // jobs with a value ≥ bounds[i]
	members [][]uint32        // jobs in range i, ascending
	known   *roaring.Bitmap   // jobs with a value
}

func newSalaryIndex(values []float64) *salaryIndex {
	s := &salaryIndex{values: values, known: roaring.New()}
	sorted := make([]float64, 0, len(values))
	for d, v := range values {
		if !math.IsNaN(v) {
			sorted = append(sorted, v)
			s.known.Add(uint32(d))
		}
	}
	slices.Sort(sorted)
	for i := range salaryLevels {
		if len(sorted) == 0 {
			break
		}
		b := sorted[i*len(sorted)/salaryLevels]
		if len(s.bounds) == 0 || b > s.bounds[len(s.bounds)-1] {
			s.bounds = append(s.bounds, b)
		}
	}
	s.members = make([][]uint32, len(s.bounds))
	for d, v := range values {
		if !math.IsNaN(v) {
			l := s.level(v)
			s.members[l] = append(s.members[l], uint32(d))
		}
	}
	s.atLeast = make([]*roaring.Bitmap, len(s.bounds)+1)
	s.atLeast[len(s.bounds)] = roaring.New()
	for l := len(s.bounds) - 1; l >= 0; l-- {
		b := s.atLeast[l+1].Clone()
		b.AddMany(s.members[l])
		b.RunOptimize()
		s.atLeast[l] = b
	}
	s.known.RunOptimize()
	return s
}

// level returns the range v falls in (the first one when v is below all).
func (s *salaryIndex) level(v float64) int {
	i, _ := slices.BinarySearch(s.bounds, v)
	if i == len(s.bounds) || s.bounds[i] != v {
		i--
	}
	return max(i, 0)
}

// atLeastValue returns the jobs whose value is ≥ v.
func (s *salaryIndex) atLeastValue(v float64) *roaring.Bitmap {
	if len(s.bounds) == 0 {
		return roaring.New()
	}
	if v <= s.bounds[0] {
		return s.atLeast[0].Clone()
	}
	l := s.level(v)
	out := s.atLeast[l+1].Clone()
	for _, d := range s.members[l] {
		if s.values[d] >= v {
			out.Add(d)
		}
	}
	return out
}

// atMostValue returns the jobs whose value is ≤ v.
func (s *salaryIndex) atMostValue(v float64) *roaring.Bitmap {
	if len(s.bounds) == 0 {
		return roaring.New()
	}
	if v < s.bounds[0] {
		return roaring.New()
	}
	l := s.level(v)
	above := s.atLeast[l+1].Clone()
	for _, d := range s.members[l] {
		if s.values[d] > v {
			above.Add(d)
		}
	}
	return roaring.AndNot(s.known, above)
}
