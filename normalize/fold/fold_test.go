package fold_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/normalize/fold"
)

func TestFold(t *testing.T) {
	for give, want := range map[string]string{
		"golang": "golang", "  San   Francisco ": "san francisco", "München": "munchen", "Île-de-France": "ile-de-france",
		"C++": "c++", "\tSenior\nEngineer ": "senior engineer", "": "",
	} {
		assert.Equal(t, want, fold.Fold(give), give)
	}
}

func TestSquash(t *testing.T) {
	for give, want := range map[string]string{
		"React.js": "reactjs", "H1-B": "h1b", "C++": "c++", "C#": "c#", "Node JS": "nodejs", "Zürich": "zurich",
	} {
		assert.Equal(t, want, fold.Squash(give), give)
	}
}

func TestSlug(t *testing.T) {
	for give, want := range map[string]string{
		"Acme Cloud": "acme-cloud", "St. Mary Hospital": "st-mary-hospital", "Société Générale": "societe-generale",
		"  AT&T  ": "at-t", "100% Remote Co.": "100-remote-co", "---": "",
	} {
		assert.Equal(t, want, fold.Slug(give), give)
	}
}

// Fold is safe for concurrent use: requests fold filter values side by side
// (a transformer shared by all of them once panicked under load).
func TestFoldConcurrently(t *testing.T) {
	words := []string{"Île-de-France", "Québec", "São Paulo", "Zürich", "Kraków", "Bogotá D.C."}
	want := make([]string, len(words))
	for i, w := range words {
		want[i] = fold.Fold(w)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := (g + i) % len(words)
				if got := fold.Fold(words[k]); got != want[k] {
					t.Errorf("fold.Fold(%q) = %q, want %q", words[k], got, want[k])
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkFold(b *testing.B) {
	words := []string{"golang", "Senior Backend Engineer", "  San   Francisco ", "München", "k8s", "401(k)"}
	for b.Loop() {
		for _, w := range words {
			fold.Fold(w)
		}
	}
}

func TestOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"nurse", "nurse", false}, {"nurse", "nurses", true}, {"nurse", "nuse", true}, {"nurse", "nurze", true},
		{"nurse", "nrus e", false}, {"nurse", "nrse", true}, {"nurse", "unrse", true}, {"nurse", "nrsue", false}, {"", "a", true},
	} {
		assert.Equal(t, tc.want, fold.OneEdit(tc.a, tc.b), "%q %q", tc.a, tc.b)
		assert.Equal(t, tc.want, fold.OneEdit(tc.b, tc.a), "%q %q", tc.b, tc.a)
	}
}

func TestTooLong(t *testing.T) {
	assert.False(t, fold.TooLong("ééé", 3), "characters, not bytes")
	assert.True(t, fold.TooLong("éééé", 3))
	assert.False(t, fold.TooLong("", 0))
}

// Collapse is strings.Join(strings.Fields(s), " "), for every text.
func FuzzCollapse(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a ", "a  b", "a\tb\n", "\u00a0x\u2003y\u3000", "a \xffb  c", "ab cd", "x\u0085y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := fold.Collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("Collapse(%q) = %q, want %q", s, got, want)
		}
	})
}
