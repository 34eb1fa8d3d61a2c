package rest

import (
	"math"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
)

func TestUnknownParameterSuggestions(t *testing.T) {
	tests := []struct {
		give string
		want string // "" when nothing is close
	}{
		{"skil", "skills"},
		{"skils", "skills"},
		{"Skills", "skills"},
		{"salary_minimum", "salary_min"},
		{"jobtitle", "job_title"},
		{"loc", "location"},
		{"workarrangement", "work_arrangement"},
		{"pagesize", ""},
		{"foo", ""},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			p := readParams(&url.URL{RawQuery: url.Values{tt.give: {"x"}}.Encode()}, jobParams...)
			assert.Equal(t, domain.CodeUnknownParameter, domain.ErrorCode(p.err))
			if tt.want == "" {
				assert.NotContains(t, domain.ErrorMessage(p.err), "did you mean")
			} else {
				assert.Contains(t, domain.ErrorMessage(p.err), `did you mean "`+tt.want+`"?`)
			}
		})
	}
}

func TestParamSyntax(t *testing.T) {
	p := readParams(&url.URL{RawQuery: "skills=go,,rust&skills=k8s&limit=10&salary_min=1e5&city=a&city=b"}, jobParams...)
	assert.Equal(t, []string{"go", "", "rust", "k8s"}, p.list("skills"), "repeating a list parameter adds items")
	assert.Equal(t, 10, *p.integer("limit", "limit must be an integer ≥ 1"))
	assert.Equal(t, 100000.0, *p.number("salary_min"))
	assert.NoError(t, p.err)
	p.str("city")
	assert.Equal(t, "city", domain.ErrorParam(p.err), "a single-value parameter given twice differently")
}

func TestHugeIntegers(t *testing.T) {
	p := readParams(&url.URL{RawQuery: "limit=99999999999999999999&offset=-99999999999999999999"}, jobParams...)
	assert.Equal(t, math.MaxInt32, *p.integer("limit", "limit must be an integer ≥ 1"), "clamped later to 100")
	assert.NoError(t, p.err)
	p.integer("offset", "offset must be an integer ≥ 0")
	assert.Equal(t, "offset", domain.ErrorParam(p.err), "a huge negative number is still negative")
}

func TestClip(t *testing.T) {
	tests := []struct {
		name, give, want string
	}{
		{"short", "skills", "skills"},
		{"exactly the limit", strings.Repeat("a", MaxEcho), strings.Repeat("a", MaxEcho)},
		{"one byte over", strings.Repeat("a", MaxEcho+1), strings.Repeat("a", MaxEcho) + "…"},
		{"huge", strings.Repeat("b", 1<<20), strings.Repeat("b", MaxEcho) + "…"},
		{"not half a character", "a" + strings.Repeat("é", 40), "a" + strings.Repeat("é", 31) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Clip(tt.give)
			assert.Equal(t, tt.want, got)
			assert.True(t, utf8.ValidString(got))
		})
	}
}

// TestLongUnknownNames: a name over 64 bytes gets no did-you-mean search,
// and the error quotes only its first 64 bytes.
func TestLongUnknownNames(t *testing.T) {
	calls := 0
	counted := func(a, b string) int {
		calls++
		return levenshtein.ComputeDistance(a, b)
	}
	tests := []struct {
		name        string
		give        string
		wantSearch  bool
		wantSuggest string
		wantQuoted  string
	}{
		{"a near name", "skils", true, "skills", `"skils"`},
		{"64 bytes", "skills" + strings.Repeat("x", 58), true, "", `"skills` + strings.Repeat("x", 58) + `"`},
		{"65 bytes", "skills" + strings.Repeat("x", 59), false, "", `"skills` + strings.Repeat("x", 58) + `…"`},
		{"100 KB", strings.Repeat("salary_min", 10<<10), false, "", `"` + strings.Repeat("salary_min", 6) + `sala…"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls = 0
			assert.Equal(t, tt.wantSuggest, nearestName(tt.give, jobParams, counted))
			assert.Equal(t, tt.wantSearch, calls > 0, "edit distances computed: %d", calls)
			p := readParams(&url.URL{RawQuery: url.Values{tt.give: {"x"}}.Encode()}, jobParams...)
			msg := domain.ErrorMessage(p.err)
			assert.Equal(t, domain.CodeUnknownParameter, domain.ErrorCode(p.err))
			assert.Contains(t, msg, "unknown parameter "+tt.wantQuoted)
			if tt.wantSuggest != "" {
				assert.Contains(t, msg, `did you mean "`+tt.wantSuggest+`"?`)
			}
			assert.LessOrEqual(t, len(domain.ErrorParam(p.err)), MaxEcho+len("…"))
			assert.Less(t, len(msg), 1000, "the message does not grow with the name")
		})
	}
}
