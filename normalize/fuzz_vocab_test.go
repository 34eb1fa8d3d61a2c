package normalize

import (
	"os"
	"testing"
)

// FuzzVocab reads any value in every vocabulary without panicking, and
// Canonical and Umbrella are idempotent: Canonical(Canonical(x)) ==
// Canonical(x), Umbrella(Umbrella(x)) == Umbrella(x). With JOBSD_REFDATA
// set, the skills and tools vocabularies have the reference data too.
func FuzzVocab(f *testing.F) {
	for _, seed := range []string{"golang", "Python 3.11", "Angular 2+", "Amazon DynamoDB", "AWS Glue", "Go (Golang)", "(((", "()",
		"ts/sci w/ ci poly", "401(k)", "  ", "", "\xff\xfe", "C++17", "v18", "azure ", "MS", "ms word", "Ｐｙｔｈｏｎ", "é", "x (y) (z"} {
		f.Add(seed)
	}
	n := handNormalizer(f)
	if os.Getenv("JOBSD_REFDATA") != "" {
		n = refNormalizer(f)
	}
	all := vocabs(n)
	f.Fuzz(func(t *testing.T, s string) {
		for name, v := range all {
			c := v.Canonical(s)
			if again := v.Canonical(c); again != c {
				t.Fatalf("%s: Canonical(%q) = %q, Canonical of that = %q", name, s, c, again)
			}
			u := v.Umbrella(s)
			if again := v.Umbrella(u); again != u {
				t.Fatalf("%s: Umbrella(%q) = %q, Umbrella of that = %q", name, s, u, again)
			}
			v.List([]string{s, c, u})
			v.WithUmbrellas([]string{s})
			v.FindIn(s)
		}
	})
}
