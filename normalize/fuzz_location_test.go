package normalize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/internal/refdatatest"
)

// FuzzLocation reads any location text without panicking, and
// idempotently: City, State and Country give their own results back, and
// the text "City, State, Country" of each place found reads as that place.
func FuzzLocation(f *testing.F) {
	for _, seed := range []string{
		"Austin, TX", "Remote - US", "London, UK; Paris", "New York, San Francisco", "US-CA-San Francisco",
		"Austin TX 78701", "Bay Area", "DC", "Washington", "Quebec, Canada", "Cambridge, MA", "Vancouver, CA",
		"Hybrid (Seattle, WA)", "St. Louis", "Duesseldorf", "Trinidad and Tobago", "Frankfurt (Oder)",
		"Remote, EMEA", "3 Locations", "IN", ",,;;|", "\xff\xfe", "a-b-c", "Ft. Worth & Dallas", "U.S.A.", "00Ⱦ and B", "A p A A", "ndAR", "ABA GA", "B:e(B A", "LA VA", "ArAd A BAgo", "PA' BR", "PA\x00 BR", "HYBrid_", "new_york", "B:e+B A", "P!A BR", "ǫB BA", "ABA SG", "OB(Df", "DC(D(000 Df(00",
	} {
		f.Add(seed)
	}
	ns := []*Normalizer{newLocNormalizer(f)}
	if dir := refdatatest.Find(refdatatest.Cities); dir != "" {
		n, err := New(WithRefData(dir))
		if err != nil {
			f.Fatal(err)
		}
		ns = append(ns, n)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, n := range ns {
			checkLocationIdempotent(t, n, text)
		}
	})
}

func checkLocationIdempotent(t *testing.T, n *Normalizer, text string) {
	t.Helper()
	for name, fn := range map[string]func(string) string{"City": n.City, "State": n.State, "Country": n.Country} {
		once := fn(text)
		if twice := fn(once); twice != once {
			t.Fatalf("%s(%q) = %q, but %s(%q) = %q", name, text, once, name, once, twice)
		}
	}
	for _, p := range n.ParseLocation(text).Places {
		var parts []string
		for _, s := range []string{p.City, p.State, p.Country} {
			if utf8.ValidString(text) && !utf8.ValidString(s) {
				t.Fatalf("%q gave invalid UTF-8 %q", text, s)
			}
			if s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			t.Fatalf("%q gave an empty place", text)
		}
		again := n.ParseLocation(strings.Join(parts, ", "))
		if len(again.Places) != 1 || again.Places[0] != p {
			t.Fatalf("%q gave %+v, but its text %q gives %+v", text, p, strings.Join(parts, ", "), again.Places)
		}
	}
}
