package suggest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFind(t *testing.T) {
	d := New([]Entry{
		{Spellings: []string{"Software Engineer"}},                // 0
		{Spellings: []string{"Go", "golang"}},                     // 1
		{Spellings: []string{"San Francisco", "SF"}},              // 2
		{Spellings: []string{"Node.js", "nodejs"}},                // 3
		{Spellings: []string{"Backend Software Engineer"}},        // 4
		{Spellings: []string{"Zürich"}},                           // 5
		{Spellings: []string{"Sales Development Representative"}}, // 6
		{Spellings: []string{"Цюрих", "цюрих"}},                   // 7
	})
	type found struct {
		entry int
		typo  bool
	}
	tests := []struct {
		prefix string
		want   []found
	}{
		{"soft", []found{{0, false}, {4, false}}},
		{"eng", []found{{0, false}, {4, false}}},
		{"soft eng", []found{{0, false}, {4, false}}},
		{"eng soft", nil},
		{"golang", []found{{1, false}}},
		{"gola", []found{{1, false}}},
		{"sf", []found{{2, false}}},
		{"san fr", []found{{2, false}}},
		{"SAN  FR", []found{{2, false}}},
		{"node", []found{{3, false}}},
		{"js", []found{{3, false}}},
		{"nodej", []found{{3, false}}},
		{"node.js", []found{{3, false}}},
		{"zur", []found{{5, false}}},
		{"sofware", []found{{0, true}, {4, true}}},   // a letter missing
		{"sotfware", []found{{0, true}, {4, true}}},  // transposed
		{"saftware", []found{{0, true}, {4, true}}},  // substituted
		{"sofftware", []found{{0, true}, {4, true}}}, // one too many
		{"xoftware", []found{{0, true}, {4, true}}},  // the first letter substituted
		{"osftware", []found{{0, true}, {4, true}}},  // the first two transposed
		{"asoftware", []found{{0, true}, {4, true}}}, // a letter before the first
		{"oftware", []found{{0, true}, {4, true}}},   // the first letter missing
		{"sof", []found{{0, false}, {4, false}}},     // no typos under 4 letters
		{"s dvelopment", []found{{6, true}}},         // a one-letter first word, an edit after it
		{"цурих", []found{{7, true}}},                // a first byte outside ASCII
		{"sfw", nil},
		{"software enginere", []found{{0, true}, {4, true}}},
		{"sales dev rep", []found{{6, false}}},
		{"", []found{{0, false}, {1, false}, {2, false}, {3, false}, {4, false}, {5, false}, {6, false}, {7, false}}},
	}
	for _, tt := range tests {
		var got []found
		for _, m := range d.Find(tt.prefix, true) {
			got = append(got, found{m.Entry, m.Typo})
		}
		slices.SortStableFunc(got, func(a, b found) int { // exact ones first, each by entry
			if a.typo != b.typo {
				if a.typo {
					return 1
				}
				return -1
			}
			return a.entry - b.entry
		})
		assert.Equal(t, tt.want, got, "prefix %q", tt.prefix)
	}
}

func TestWithin1(t *testing.T) {
	for _, tt := range []struct {
		p, w string
		want bool
	}{
		{"soft", "software", true}, {"sotf", "software", true}, {"sft", "software", true},
		{"sxft", "software", true}, {"ssoft", "software", true}, {"stfo", "software", false},
		{"abcd", "xyz", false}, {"software", "soft", false}, {"softwarex", "software", true},
	} {
		assert.Equal(t, tt.want, within1(tt.p, tt.w), "%q in %q", tt.p, tt.w)
	}
}

// TestSubset: a subset finds only its entries, numbered as the whole.
func TestSubset(t *testing.T) {
	d := New([]Entry{
		{Spellings: []string{"Software Engineer"}},
		{Spellings: []string{"Go", "golang"}},
		{Spellings: []string{"Backend Software Engineer"}},
	})
	s := d.Subset([]bool{false, true, true})
	entries := func(ms []Match) []int {
		var out []int
		for _, m := range ms {
			out = append(out, m.Entry)
		}
		slices.Sort(out)
		return out
	}
	assert.Equal(t, []int{2}, entries(s.Find("soft", false)))
	assert.Equal(t, []int{1}, entries(s.Find("gola", false)))
	assert.Equal(t, []int{2}, entries(s.Find("sofware", true)))
	assert.Equal(t, []int{0, 2}, entries(d.Find("sofware", true)))
	assert.Equal(t, []int{1, 2}, entries(s.Find("", false)), "an empty prefix: every entry of the subset")
}

// TestFindKeepsAnswers: an answer kept is the answer found, with typos
// and without, kept by the prefix's words (case and punctuation folded
// away); a prefix without words is not kept; the answers kept are dropped
// together once they hold maxFoundMatches matches.
func TestFindKeepsAnswers(t *testing.T) {
	d := New([]Entry{{Spellings: []string{"Software Engineer"}}, {Spellings: []string{"Solar Technician"}}, {Spellings: []string{"Go", "golang"}}})
	for _, prefix := range []string{"so", "sofw", "softw", "gol", "soft eng"} {
		for _, typos := range []bool{false, true} {
			first := d.Find(prefix, typos)
			assert.ElementsMatch(t, d.find(Words(prefix), typos), first, "%q %v", prefix, typos)
			kept, ok := d.found.Load(foundKey{strings.Join(Words(prefix), "\x00"), typos})
			require.True(t, ok, "%q %v kept", prefix, typos)
			assert.Equal(t, first, kept)
			assert.Equal(t, first, d.Find(strings.ToUpper(prefix)+"!", typos), "the same words")
		}
	}
	assert.Len(t, d.Find("!!", false), 3, "no words: every entry")
	_, ok := d.found.Load(foundKey{"", false})
	assert.False(t, ok, "a prefix without words is not kept")

	for i := 0; d.found.Cost() < maxFoundMatches; i++ {
		d.Find(fmt.Sprint("p", i), false) // no match: one each
	}
	_, ok = d.found.Load(foundKey{"p0", false})
	require.True(t, ok)
	d.Find("s", false) // two matches: past the bound
	assert.LessOrEqual(t, d.found.Cost(), int64(maxFoundMatches))
	_, ok = d.found.Load(foundKey{"p0", false})
	assert.False(t, ok, "dropped together once full")
}
