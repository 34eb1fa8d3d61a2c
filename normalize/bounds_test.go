package normalize_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/growth"
	"github.com/jobsd-dev/jobsd/normalize"
)

// repeat returns unit repeated to n bytes at least.
func repeat(unit string, n int) string {
	return strings.Repeat(unit, (n+len(unit)-1)/len(unit))
}

// chars returns a text of exactly n characters.
func chars(n int) string { return strings.Repeat("x", n) }

func validJob() domain.Job {
	return domain.Job{ID: "test-1", Title: "Software Engineer", Company: "Acme"}
}

func TestJobBounds(t *testing.T) {
	n := newNormalizer(t)
	list := func(k int, item string) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = item
		}
		return out
	}
	tests := []struct {
		name    string
		edit    func(j *domain.Job)
		wantErr string // "" when within the bounds
	}{
		{"title at the bound", func(j *domain.Job) { j.Title = chars(normalize.MaxTitleLength) }, ""},
		{"title counts characters, not bytes", func(j *domain.Job) { j.Title = strings.Repeat("é", normalize.MaxTitleLength) }, ""},
		{"title over", func(j *domain.Job) { j.Title = chars(normalize.MaxTitleLength + 1) },
			"title is longer than 500 characters (501)"},
		{"company over", func(j *domain.Job) { j.Company = chars(normalize.MaxCompanyLength + 1) }, "company is longer than 500 characters"},
		{"location.full at the bound", func(j *domain.Job) {
			j.Location.Full = repeat("a/", normalize.MaxLocationLength)[:normalize.MaxLocationLength]
		}, ""},
		{"location.full of 1 MB", func(j *domain.Job) { j.Location.Full = repeat("a/", 1<<20) },
			"location.full is longer than 1000 characters (1048576)"},
		{"a city over", func(j *domain.Job) { j.Location.City = []string{"Austin", chars(normalize.MaxPlaceNameLength + 1)} },
			"location.city item 2 is longer than 300 characters"},
		{"too many countries", func(j *domain.Job) { j.Location.Country = list(normalize.MaxJobListItems+1, "US") },
			"location.country has 201 items, more than 200"},
		{"skills at the bounds", func(j *domain.Job) { j.Skills = list(normalize.MaxJobListItems, chars(normalize.MaxListItemLength)) }, ""},
		{"too many skills", func(j *domain.Job) { j.Skills = list(normalize.MaxJobListItems+1, "Go") }, "skills has 201 items, more than 200"},
		{"a skill over", func(j *domain.Job) { j.Skills = []string{chars(normalize.MaxListItemLength + 1)} },
			"skills item 1 is longer than 500 characters"},
		{"a benefit over", func(j *domain.Job) { j.Benefits = []string{repeat("a/", 1<<20)} }, "benefits item 1 is longer than 500 characters"},
		{"a long responsibility", func(j *domain.Job) { j.Responsibilities = []string{chars(normalize.MaxProseItemLength)} }, ""},
		{"a responsibility over", func(j *domain.Job) { j.Responsibilities = []string{chars(normalize.MaxProseItemLength + 1)} },
			"responsibilities item 1 is longer than 2000 characters"},
		{"description at the bound", func(j *domain.Job) { j.Description = ptr(chars(normalize.MaxDescriptionBytes)) }, ""},
		{"description over", func(j *domain.Job) { j.Description = ptr(chars(normalize.MaxDescriptionBytes + 1)) },
			"description is longer than 262144 bytes"},
		{"description_raw over", func(j *domain.Job) { j.DescriptionRaw = ptr(repeat("<b>", normalize.MaxDescriptionBytes+1)) },
			"description_raw is longer than 262144 bytes"},
		{"url over", func(j *domain.Job) { j.URL = ptr("https://example.com/" + chars(normalize.MaxURLLength)) }, "url is longer than 2048 bytes"},
		{"employment_type over", func(j *domain.Job) { j.EmploymentType = ptr(chars(normalize.MaxFieldLength + 1)) },
			"employment_type is longer than 500 characters"},
		{"category.role over", func(j *domain.Job) { j.Category.Role = ptr(repeat("x", 1<<20)) }, "category.role is longer than 500 characters"},
		{"salary.currency over", func(j *domain.Job) {
			j.Salary = &domain.Salary{Min: fp(1), Currency: ptr(chars(normalize.MaxFieldLength + 1))}
		}, "salary.currency is longer than 500 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := validJob()
			tt.edit(&j)
			_, err := n.Job(j)
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// TestJobBoundsNamesEveryField: one error names every field over its
// bound, and a record over a bound is rejected before its other values
// are read.
func TestJobBoundsNamesEveryField(t *testing.T) {
	n := newNormalizer(t)
	j := validJob()
	j.Title = chars(normalize.MaxTitleLength + 1)
	j.Location.Full = repeat("a/", 1<<20)
	j.Skills = []string{repeat("a-", 1<<20)}
	_, err := n.Job(j)
	require.Error(t, err)
	for _, field := range []string{"title is longer", "location.full is longer", "skills item 1 is longer"} {
		assert.Contains(t, err.Error(), field)
	}
}

// pathological are texts that made the readers of free text do work
// quadratic in their length.
var pathological = map[string]string{
	"a/": "a/", "a or ": "a or ", "a-": "a-", "a ": "a ", "A ": "A ", "a(": "a(", "ab-cd ": "ab-cd ",
	"Austin TX ": "Austin TX ", "nurse/": "nurse/", "x": "x",
}

// TestLongTextsAreBounded: the readers a filter value or a record's field
// reaches treat a text over its bound as naming nothing, and read it in
// time at most linear in its length, not quadratic (a 1 MB "a/a/a/…" took
// about an hour): 16 times the text, at most 96 times the time (growth.Slack).
func TestLongTextsAreBounded(t *testing.T) {
	n := newNormalizer(t)
	// Each reader, and whether what it read of s names nothing.
	readers := map[string]struct {
		read    func(s string) any
		nothing func(s string, got any) bool
	}{
		"ParseLocation": {func(s string) any { return n.ParseLocation(s) },
			func(_ string, got any) bool { return len(got.(normalize.ParsedLocation).Places) == 0 }},
		"City":         {func(s string) any { return n.City(s) }, asGiven},
		"State":        {func(s string) any { return n.State(s) }, asGiven},
		"Country":      {func(s string) any { return n.Country(s) }, asGiven},
		"CategoryRole": {func(s string) any { return n.CategoryRole(s) }, asGiven},
		"Title": {func(s string) any { _, ok := n.Title(s); return ok },
			func(_ string, got any) bool { return !got.(bool) }},
		"Skill": {func(s string) any { _, _, ok := n.Skill(s); return ok },
			func(_ string, got any) bool { return !got.(bool) }},
		"Skills.Lookup": {func(s string) any { _, ok := n.Skills.Lookup(s); return ok },
			func(_ string, got any) bool { return !got.(bool) }},
	}
	for name, r := range readers {
		for pname, unit := range pathological {
			growth.AtMostLinear(t, name+"("+pname+"…)", 16<<10, 256<<10, func(size int) func() {
				s := repeat(unit, size)
				return func() { r.read(s) }
			})
			s := repeat(unit, 256<<10)
			assert.True(t, r.nothing(s, r.read(s)), "%s read a 256 KB %q… as naming something", name, pname)
		}
	}
}

// asGiven reports whether a place name read from s is s as given, its
// spaces collapsed: a text that names no place.
func asGiven(s string, got any) bool { return got.(string) == strings.Join(strings.Fields(s), " ") }

// TestLongFilterValuesAreBounded: a filter value over MaxTextLength is an
// invalid parameter, and is not normalized first (a list item was).
func TestLongFilterValuesAreBounded(t *testing.T) {
	n := newNormalizer(t)
	long := repeat("a-", 1<<20)
	tests := []struct {
		name   string
		filter domain.JobFilter
		param  string
	}{
		{"skills", domain.JobFilter{Skills: []string{"go", long}}, "skills"},
		{"tools", domain.JobFilter{Tools: []string{long}}, "tools"},
		{"benefits", domain.JobFilter{Benefits: []string{long}}, "benefits"},
		{"location", domain.JobFilter{Location: &long}, "location"},
		{"title", domain.JobFilter{Title: &long}, "title"},
		{"city", domain.JobFilter{City: &long}, "city"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := n.JobFilter(&tt.filter)
			require.Error(t, err)
			assert.Equal(t, domain.CodeInvalidParameter, domain.ErrorCode(err))
			assert.Contains(t, err.Error(), "longer than 1000 bytes")
		})
	}
}

// TestRecordAtBoundsIsCheap: a record with every field at its bound,
// filled with the texts that were quadratic, normalizes, in time at most
// linear in the fields' lengths: a record of fields at a 256th of their
// bounds against one at a sixteenth.
func TestRecordAtBoundsIsCheap(t *testing.T) {
	n := newNormalizer(t)
	for pname, unit := range pathological {
		// record is a job whose fields are at their bounds divided by div.
		record := func(div int) domain.Job {
			at := func(k int) string { return repeat(unit, k/div)[:k/div] }
			items := func(k int) []string {
				out := make([]string, normalize.MaxJobListItems)
				for i := range out {
					out[i] = at(k)
				}
				return out
			}
			j := validJob()
			j.Title = at(normalize.MaxTitleLength)
			j.Company = at(normalize.MaxCompanyLength)
			j.Location = domain.Location{Full: at(normalize.MaxLocationLength), City: items(normalize.MaxPlaceNameLength),
				State: items(normalize.MaxPlaceNameLength), Country: items(normalize.MaxPlaceNameLength)}
			j.Skills, j.Tools, j.Benefits = items(normalize.MaxListItemLength), items(normalize.MaxListItemLength), items(normalize.MaxListItemLength)
			j.Education = items(normalize.MaxProseItemLength)
			j.Category.Role = ptr(at(normalize.MaxFieldLength))
			return j
		}
		_, err := n.Job(record(1))
		assert.NoError(t, err, pname)
		growth.AtMostLinear(t, "Job near the bounds of "+pname, 1, 16, func(size int) func() {
			j := record(256 / size) // a 256th of the bounds, and a sixteenth
			return func() { _, _ = n.Job(j) }
		})
	}
}

func ptr(s string) *string { return &s }

func fp(v float64) *float64 { return &v }
