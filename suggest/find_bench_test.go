package suggest

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// benchDict is a dictionary of n entries of one to three random words,
// drawn from English letter frequencies, as large as a gazetteer's.
func benchDict(n int) *Dict {
	const letters = "eeeeeeeeeeeettttttttaaaaaaaaoooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummwwffggyyppbbvk"
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 3+rng.IntN(8))
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		return string(b)
	}
	entries := make([]Entry, n)
	for i := range entries {
		words := make([]string, 1+rng.IntN(3))
		for j := range words {
			words[j] = word()
		}
		entries[i].Spellings = []string{strings.Join(words, " ")}
	}
	return New(entries)
}

// BenchmarkFindTypos is the walk of one-edit matches of a prefix of four
// letters, the cost of a suggestion whose exact matches are too few.
func BenchmarkFindTypos(b *testing.B) {
	d := benchDict(50_000)
	prefixes := []string{"soft", "nurs", "tean", "heal", "dsta"}
	b.ResetTimer()
	for i := range b.N {
		d.Find(prefixes[i%len(prefixes)], true)
	}
}
