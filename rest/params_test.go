package rest

import (
	"math"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/graph/model"
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
			assert.Equal(t, model.CodeUnknownParameter, model.ErrorCode(p.err))
			if tt.want == "" {
				assert.NotContains(t, model.ErrorMessage(p.err), "did you mean")
			} else {
				assert.Contains(t, model.ErrorMessage(p.err), `did you mean "`+tt.want+`"?`)
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
	assert.Equal(t, "city", model.ErrorParam(p.err), "a single-value parameter given twice differently")
}

func TestHugeIntegers(t *testing.T) {
	p := readParams(&url.URL{RawQuery: "limit=99999999999999999999&offset=-99999999999999999999"}, jobParams...)
	assert.Equal(t, math.MaxInt32, *p.integer("limit", "limit must be an integer ≥ 1"), "clamped later to 100")
	assert.NoError(t, p.err)
	p.integer("offset", "offset must be an integer ≥ 0")
	assert.Equal(t, "offset", model.ErrorParam(p.err), "a huge negative number is still negative")
}
