package importer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jobsd-dev/jobsd/normalize"
)

// FuzzDecodeLine reads any line: a record or a reason, never a panic; a
// record is valid to store (an id of the right shape, a title, a company,
// text PostgreSQL accepts).
func FuzzDecodeLine(f *testing.F) {
	for _, seed := range []string{
		`{"id":"test-1","title":"Engineer","company":"Co"}`,
		`{"id":"test-1","title":"Engineer","company":"Co","location":{"full":"Austin, TX"},"salary":{"min":1,"max":2,"period":"hourly"}}`,
		`{"id":"test-1","title":"\u0000","company":"Co"}`,
		`{"id":"test-1","title":"x","company":"Co","salary":{"min":1e308,"max":1e308}}`,
		`{"id":"test-1","title":"x","company":"Co","travel_percent":-0}`,
		`[1,2,3]`, `{"id":1}`, `{}{}`, `{"id":"a-1","title":"t","company":"c","posted_at":"yesterday"}`,
	} {
		f.Add([]byte(seed))
	}
	n, err := normalize.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, reason := decode(line, n)
		if reason != "" {
			return
		}
		if !normalize.ValidJobID(rec.ID) || rec.Title == "" || rec.Company == "" {
			t.Fatalf("accepted an invalid record: %+v", rec.Job)
		}
		for _, s := range append([]string{rec.Title, rec.Company, rec.Location.Full}, rec.FilterKeys...) {
			if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
				t.Fatalf("accepted text PostgreSQL refuses: %q", s)
			}
		}
	})
}
