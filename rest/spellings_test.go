package rest_test

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// spelledPostings spell their skills, titles, locations and closed
// vocabularies the many ways sources do.
const spelledPostings = `{"id":"sp-1","title":"Sr. Software Engr II (Remote - US)","company":"Spelling Co","location":{"full":"Remote - USA"},"skills":["golang","K8S","reactjs","EKS"]}
{"id":"sp-2","title":"RN - ICU Nights","company":"spelling co ","location":{"full":"Cambridge, MA 02139"},"skills":["Patient care","Advanced Cardiac Life Support"],"certifications":["bls"]}
{"id":"sp-3","title":"Staff Accountant","company":"Spelling Co","location":{"full":"London, ON"},"skills":["MS Excel","gaap"],"education":["B.S. in Accounting"],"visa_sponsorship":["H1B"]}
{"id":"sp-4","title":"Backend Developer (Python/Django)","company":"Spelling Co","location":{"full":"SF Bay Area"},"skills":["Python3","django"],"security_clearances":["ts/sci"],"employment_type":"Full Time"}
{"id":"sp-5","title":"CDL-A Truck Driver - Regional","company":"Spelling Co","location":{"full":"Dallas-Fort Worth, TX"},"skills":["cdl class a"],"employment_type":"contractor"}
`

// TestSpellingsFindEachOther imports postings spelled every which way and
// filters with other spellings of the same things: each filter finds the
// postings it means (needs the reference data of JOBSD_REFDATA).
func TestSpellingsFindEachOther(t *testing.T) {
	h := apitest.NewWith(t, spelledPostings).REST()
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"skills=Go", []string{"sp-1"}},
		{"skills=Kubernetes", []string{"sp-1"}},
		{"skills=React.js", []string{"sp-1"}},
		{"skills=amazon web services", []string{"sp-1"}},
		{"skills=eks", []string{"sp-1"}},
		{"skills=python", []string{"sp-4"}},
		{"skills=Django", []string{"sp-4"}},
		{"skills=excel", []string{"sp-3"}},
		{"skills=GAAP", []string{"sp-3"}},
		{"country=United States&work_arrangement=remote", []string{"sp-1"}},
		{"location=remote in the US", []string{"sp-1"}},
		{"location=Cambridge, Massachusetts", []string{"sp-2"}},
		{"state=MA", []string{"sp-2"}},
		{"location=London, Ontario", []string{"sp-3"}},
		{"country=canada", []string{"sp-3"}},
		{"location=san francisco", []string{"sp-4"}},
		{"city=SF", []string{"sp-4"}},
		{"state=california", []string{"sp-4"}},
		{"location=DFW", []string{"sp-5"}},
		{"city=dallas&state=tx", []string{"sp-5"}},
		{"visas=h-1b", []string{"sp-3"}},
		{"education_levels=bachelors", []string{"sp-3"}},
		{"security_clearances=TS/SCI", []string{"sp-4"}},
		{"employment_type=FT", []string{"sp-4"}},
		{"employment_type=contract", []string{"sp-5"}},
		{"certifications=BLS", []string{"sp-2"}},
		{"skills=acls", []string{"sp-2"}},                      // a certification named in the skills list
		{"title=software developer", []string{"sp-1", "sp-4"}}, // a backend developer is a software developer
		{"title=backend engineer", []string{"sp-4"}},
		{"title=registered nurse", []string{"sp-2"}},
		{"title=accountant", []string{"sp-3"}},
		{"title=truck driver", []string{"sp-5"}},
		{"company=SPELLING", []string{"sp-1", "sp-2", "sp-3", "sp-4", "sp-5"}},
	} {
		q, err := url.ParseQuery(tc.query)
		require.NoError(t, err)
		body := jobs(t, h, "sort=oldest&"+q.Encode())
		assert.ElementsMatch(t, tc.want, ids(body.Data), "%s, read as %v", tc.query, body.Meta.Normalized)
	}
}
