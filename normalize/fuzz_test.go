package normalize_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// FuzzParseLocation reads any text without panicking, and every place it
// finds is valid UTF-8. The text repeated past MaxLocationLength names
// nothing: the work of reading a text is bounded, whatever it holds.
func FuzzParseLocation(f *testing.F) {
	for _, seed := range []string{"Austin, TX", "Remote - US", "London, UK; Paris", ",,;;|", "IN", "the the in", "São Paulo, Brasil", "\xff\xfe", "a/", "a or "} {
		f.Add(seed)
	}
	n := newNormalizer(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range n.ParseLocation(text).Places {
			for _, part := range []string{p.City, p.State, p.Country} {
				if utf8.ValidString(text) && !utf8.ValidString(part) {
					t.Fatalf("%q gave invalid UTF-8 %q", text, part)
				}
			}
		}
		if text == "" {
			return
		}
		long := strings.Repeat(text, normalize.MaxLocationLength/len(text)+1)
		if utf8.RuneCountInString(long) > normalize.MaxLocationLength && len(n.ParseLocation(long).Places) > 0 {
			t.Fatalf("%q repeated past MaxLocationLength names places", text)
		}
	})
}

// FuzzJobQuery normalizes any filter values: an error is always an
// invalid_parameter *domain.Error.
func FuzzJobQuery(f *testing.F) {
	f.Add("golang", "SF", "Austin, TX", "nurse", "on-site", "FT", 10.0, 20.0)
	f.Add("\x00", "\xff", "", "", "sometimes", "gig", -1.0, 0.0)
	n := newNormalizer(f)
	f.Fuzz(func(t *testing.T, skill, city, location, title, arrangement, employment string, lo, hi float64) {
		filter := &domain.JobFilter{Skills: []string{skill}, City: &city, Location: &location, Title: &title,
			WorkArrangement: []domain.WorkArrangement{domain.WorkArrangement(arrangement)},
			EmploymentType:  []string{employment}, SalaryMin: &lo, SalaryMax: &hi}
		_, err := n.JobFilter(filter)
		if err != nil && domain.ErrorCode(err) != domain.CodeInvalidParameter {
			t.Fatalf("error %v has code %s", err, domain.ErrorCode(err))
		}
	})
}
