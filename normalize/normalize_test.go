package normalize_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

func newNormalizer(t testing.TB) *normalize.Normalizer {
	t.Helper()
	n, err := normalize.New()
	require.NoError(t, err)
	return n
}

func TestVocabularies(t *testing.T) {
	n := newNormalizer(t)
	tests := []struct {
		name  string
		vocab *normalize.Vocab
		give  string
		want  string
	}{
		{"golang", n.Skills, "golang", "Go"},
		{"GoLang", n.Skills, "GoLang", "Go"},
		{"k8s", n.Skills, "k8s", "Kubernetes"},
		{"reactjs", n.Skills, "reactjs", "React"},
		{"React.js", n.Skills, "React.js", "React"},
		{"postgres", n.Skills, "postgres", "PostgreSQL"},
		{"csharp", n.Skills, "csharp", "C#"},
		{"C++ stays", n.Skills, "c++", "C++"},
		{"dotnet", n.Skills, "dotnet", ".NET"},
		{"unknown kept trimmed", n.Skills, "  Quantum   Basket  ", "Quantum Basket"},
		{"h1b", n.Visas, "h1b", "H-1B"},
		{"H1-B", n.Visas, "H1-B", "H-1B"},
		{"BS", n.EducationLevels, "BS", "Bachelor's"},
		{"bachelors", n.EducationLevels, "bachelors", "Bachelor's"},
		{"PhD", n.EducationLevels, "Ph.D.", "Doctoral"},
		{"TS/SCI", n.SecurityClearances, "TS/SCI", "Top Secret/SCI"},
		{"401k", n.Benefits, "401k", "401(k)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.vocab.Canonical(tt.give))
		})
	}
}

func TestUmbrellas(t *testing.T) {
	n := newNormalizer(t)
	assert.Equal(t, []string{"EKS", "React Native", "AWS", "React"}, n.Skills.WithUmbrellas([]string{"eks", "react native", "EKS"}))
}

func TestClosedSets(t *testing.T) {
	n := newNormalizer(t)
	for give, want := range map[string]domain.WorkArrangement{"on-site": "onsite", "in office": "onsite", "Remote": "remote", "HYBRID": "hybrid"} {
		got, ok := n.WorkArrangement(give)
		assert.True(t, ok, give)
		assert.Equal(t, want, got, give)
	}
	_, ok := n.WorkArrangement("sometimes")
	assert.False(t, ok)
	for give, want := range map[string]string{"FT": "full-time", "full time": "full-time", "FULL_TIME": "full-time", "intern": "internship", "temp": "temporary"} {
		got, ok := n.EmploymentType(give)
		assert.True(t, ok, give)
		assert.Equal(t, want, got, give)
	}
}

func TestParseLocation(t *testing.T) {
	n := newNormalizer(t)
	tests := []struct {
		give string
		want normalize.ParsedLocation
	}{
		{"Austin, TX", normalize.ParsedLocation{Places: []normalize.Place{{City: "Austin", State: "Texas"}}}},
		{"London, UK", normalize.ParsedLocation{Places: []normalize.Place{{City: "London", Country: "United Kingdom"}}}},
		{"London, ON", normalize.ParsedLocation{Places: []normalize.Place{{City: "London", State: "Ontario"}}}},
		{"Cambridge, MA", normalize.ParsedLocation{Places: []normalize.Place{{City: "Cambridge", State: "Massachusetts"}}}},
		{"Remote - US", normalize.ParsedLocation{Places: []normalize.Place{{Country: "United States"}}, Remote: true}},
		{"Remote in USA", normalize.ParsedLocation{Places: []normalize.Place{{Country: "United States"}}, Remote: true}},
		{"Remote", normalize.ParsedLocation{Remote: true}},
		{"Hybrid - Austin", normalize.ParsedLocation{Places: []normalize.Place{{City: "Austin"}}, Hybrid: true}},
		{"SF", normalize.ParsedLocation{Places: []normalize.Place{{City: "San Francisco"}}}},
		{"Toronto, ON, Canada", normalize.ParsedLocation{Places: []normalize.Place{{City: "Toronto", State: "Ontario", Country: "Canada"}}}},
		{"San Francisco, CA; New York, NY", normalize.ParsedLocation{Places: []normalize.Place{{City: "San Francisco", State: "California"}, {City: "New York", State: "New York"}}}},
		{"Springfield, MA", normalize.ParsedLocation{Places: []normalize.Place{{City: "Springfield", State: "Massachusetts"}}}},
		{"München, Deutschland", normalize.ParsedLocation{Places: []normalize.Place{{City: "Munich", Country: "Germany"}}}},
		{"Portland, OR", normalize.ParsedLocation{Places: []normalize.Place{{City: "Portland", State: "Oregon"}}}},
		{"IN", normalize.ParsedLocation{Places: []normalize.Place{{State: "Indiana"}}}},
		{"Anywhere in the US", normalize.ParsedLocation{Places: []normalize.Place{{Country: "United States"}}, Remote: true}},
		{"Berlin, DE", normalize.ParsedLocation{Places: []normalize.Place{{City: "Berlin", Country: "Germany"}}}},
		{"Vancouver, CA", normalize.ParsedLocation{Places: []normalize.Place{{City: "Vancouver", Country: "Canada"}}}},
		{"Austin, CA", normalize.ParsedLocation{Places: []normalize.Place{{City: "Austin", State: "California"}}}},
		{"London", normalize.ParsedLocation{Places: []normalize.Place{{City: "London"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			assert.Equal(t, tt.want, n.ParseLocation(tt.give))
		})
	}
	assert.Equal(t, "San Francisco", n.City("sf"))
	assert.Equal(t, "California", n.State("CA"))
	assert.Equal(t, "United States", n.Country("USA"))
	assert.Equal(t, "São Paulo", n.City("sao paulo"))
}

func TestTitle(t *testing.T) {
	n := newNormalizer(t)
	tests := []struct {
		give  string
		want  normalize.TitleCategory
		found bool
	}{
		{"Senior Backend Engineer (Remote)", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Specialization: "Backend", Level: normalize.LevelSpecialization, Code: "15-1252"}, true},
		{"Software Engineer, Backend", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Specialization: "Backend", Level: normalize.LevelSpecialization, Code: "15-1252"}, true},
		{"Software Engineer II", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Level: normalize.LevelRole, Code: "15-1252"}, true},
		{"Sr. Software Developer", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Level: normalize.LevelRole, Code: "15-1252"}, true},
		{"Registered Nurse - ICU", normalize.TitleCategory{Field: "Healthcare Practitioners and Technical", Role: "Registered Nurse", Specialization: "ICU/Critical Care", Level: normalize.LevelSpecialization, Code: "29-1141"}, true},
		{"ICU Nurse", normalize.TitleCategory{Field: "Healthcare Practitioners and Technical", Role: "Registered Nurse", Specialization: "ICU/Critical Care", Level: normalize.LevelSpecialization, Code: "29-1141"}, true},
		{"Engineering Manager, Payments", normalize.TitleCategory{Field: "Management", Role: "Engineering Manager", Level: normalize.LevelRole, Code: "11-9041"}, true},
		{"healthcare", normalize.TitleCategory{Field: "Healthcare Practitioners and Technical", Level: normalize.LevelField, Code: "29-0000"}, true},
		{"Chief Happiness Wizard", normalize.TitleCategory{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, ok := n.Title(tt.give)
			assert.Equal(t, tt.found, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestJobQuery(t *testing.T) {
	n := newNormalizer(t)
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	filter := func(field string, values ...string) domain.KeyFilter {
		keys := make([]string, len(values))
		for i, v := range values {
			keys[i] = normalize.FilterKey(field, v)
		}
		return domain.KeyFilter{Field: field, Values: values, Keys: keys}
	}
	// title is the title intent's filter: every category member named.
	title := func(members ...[2]string) domain.KeyFilter {
		f := domain.KeyFilter{Field: domain.FieldTitle, All: true}
		for _, m := range members {
			f.Values = append(f.Values, m[1])
			f.Keys = append(f.Keys, normalize.FilterKey(m[0], m[1]))
		}
		return f
	}
	tests := []struct {
		name  string
		give  domain.JobFilter
		want  []domain.KeyFilter
		code  string // error code, "" for success
		param string
	}{
		{name: "skills aliases", give: domain.JobFilter{Skills: []string{" golang ", "", "K8s", "Go"}},
			want: []domain.KeyFilter{filter("skills", "Go", "Kubernetes")}},
		{name: "skills to umbrellas", give: domain.JobFilter{Skills: []string{"eks", "AWS", "redux", "django"}},
			want: []domain.KeyFilter{filter("skills", "AWS", "React", "Python")}},
		{name: "city alias", give: domain.JobFilter{City: str("SF")}, want: []domain.KeyFilter{filter("city", "San Francisco")}},
		{name: "location with remote", give: domain.JobFilter{Location: str("Remote - US")},
			want: []domain.KeyFilter{filter("country", "United States"), filter("work_arrangement", "remote")}},
		{name: "location on-site", give: domain.JobFilter{Location: str("On-site")},
			want: []domain.KeyFilter{filter("work_arrangement", "onsite")}},
		{name: "location parts", give: domain.JobFilter{Location: str("Austin, TX")},
			want: []domain.KeyFilter{filter("city", "Austin"), filter("state", "Texas")}},
		{name: "title to specialization", give: domain.JobFilter{Title: str("Senior Backend Engineer")},
			want: []domain.KeyFilter{title([2]string{"category_role", "Software Engineer"}, [2]string{"category_specialization", "Backend"})}},
		{name: "job_title alias", give: domain.JobFilter{JobTitle: str("nurse")}, want: []domain.KeyFilter{title([2]string{"category_role", "Registered Nurse"})}},
		{name: "same title twice", give: domain.JobFilter{Title: str("Nurse"), JobTitle: str("nurse")}, want: []domain.KeyFilter{title([2]string{"category_role", "Registered Nurse"})}},
		{name: "title to field", give: domain.JobFilter{Title: str("healthcare")},
			want: []domain.KeyFilter{title([2]string{"category_field", "Healthcare Practitioners and Technical"})}},
		{name: "visas", give: domain.JobFilter{Visas: []string{"h1b", "H1-B"}}, want: []domain.KeyFilter{filter("visas", "H-1B")}},
		{name: "work arrangements typed", give: domain.JobFilter{WorkArrangement: []domain.WorkArrangement{"on-site", "remote"}},
			want: []domain.KeyFilter{filter("work_arrangement", "onsite", "remote")}},
		{name: "employment types", give: domain.JobFilter{EmploymentType: []string{"FT", "full time"}}, want: []domain.KeyFilter{filter("employment_type", "full-time")}},
		{name: "clearances", give: domain.JobFilter{SecurityClearances: []string{"TS/SCI"}}, want: []domain.KeyFilter{filter("security_clearances", "Top Secret/SCI")}},
		{name: "education levels", give: domain.JobFilter{EducationLevels: []string{"BS", "bachelors"}}, want: []domain.KeyFilter{filter("education_levels", "Bachelor's")}},
		{name: "salary range", give: domain.JobFilter{SalaryMin: num(100), SalaryMax: num(200)}},
		{name: "titles differ", give: domain.JobFilter{Title: str("nurse"), JobTitle: str("engineer")}, code: domain.CodeInvalidParameter, param: "job_title"},
		{name: "bad arrangement", give: domain.JobFilter{WorkArrangement: []domain.WorkArrangement{"sometimes"}}, code: domain.CodeInvalidParameter, param: "work_arrangement"},
		{name: "bad employment type", give: domain.JobFilter{EmploymentType: []string{"gig"}}, code: domain.CodeInvalidParameter, param: "employment_type"},
		{name: "salary inverted", give: domain.JobFilter{SalaryMin: num(2), SalaryMax: num(1)}, code: domain.CodeInvalidParameter, param: "salary_min"},
		{name: "negative salary", give: domain.JobFilter{SalaryMax: num(-1)}, code: domain.CodeInvalidParameter, param: "salary_max"},
		{name: "too many items", give: domain.JobFilter{Tools: make([]string, 51)}, want: nil},
		{name: "51 real items", give: domain.JobFilter{Tools: func() []string {
			s := make([]string, 51)
			for i := range s {
				s[i] = "t"
			}
			return s
		}()}, code: domain.CodeInvalidParameter, param: "tools"},
		{name: "empty location", give: domain.JobFilter{Location: str("Multiple Locations")}, code: domain.CodeInvalidParameter, param: "location"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := n.JobFilter(&tt.give)
			if tt.code != "" {
				require.Error(t, err)
				assert.Equal(t, tt.code, domain.ErrorCode(err))
				assert.Equal(t, tt.param, domain.ErrorParam(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, q.Filters)
		})
	}
}

// TestJobQueryNamesTheFirstBadValue: of several bad values, the error
// names the same one every time (the first in the parameters' order).
func TestJobQueryNamesTheFirstBadValue(t *testing.T) {
	n := newNormalizer(t)
	bad := "a\x01b"
	f := &domain.JobFilter{Title: &bad, Company: &bad, City: &bad, Q: &bad, PostedWithin: &bad}
	for range 20 {
		_, err := n.JobFilter(f)
		var appErr *domain.Error
		require.ErrorAs(t, err, &appErr)
		assert.Equal(t, "title", appErr.Param)
	}
}

func TestJobEnrichment(t *testing.T) {
	n := newNormalizer(t)
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	tests := []struct {
		name  string
		give  domain.Job
		check func(t *testing.T, r domain.JobRecord)
	}{
		{"the location's arrangement fills a missing one",
			domain.Job{Location: domain.Location{Full: "On-site - Denver, CO"}},
			func(t *testing.T, r domain.JobRecord) {
				require.NotNil(t, r.WorkArrangement)
				assert.Equal(t, domain.WorkArrangementOnsite, *r.WorkArrangement)
			}},
		{"a given arrangement wins over the location's",
			domain.Job{Location: domain.Location{Full: "Remote - US"}, WorkArrangement: func() *domain.WorkArrangement { w := domain.WorkArrangement("hybrid"); return &w }()},
			func(t *testing.T, r domain.JobRecord) {
				require.NotNil(t, r.WorkArrangement)
				assert.Equal(t, domain.WorkArrangementHybrid, *r.WorkArrangement)
			}},
		{"full fills what the parts leave out",
			domain.Job{Location: domain.Location{Full: "Austin, TX", Country: []string{"USA"}}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, domain.Location{City: []string{"Austin"}, State: []string{"Texas"}, Country: []string{"United States"}, Full: "Austin, Texas, United States"}, r.Location)
			}},
		{"a state is read within its country",
			domain.Job{Location: domain.Location{City: []string{"Perth"}, State: []string{"WA"}, Country: []string{"Australia"}}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, []string{"Western Australia"}, r.Location.State)
			}},
		{"duplicate places count once",
			domain.Job{Location: domain.Location{Full: "Austin, TX; Austin, Texas; Boston, MA"}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, "Austin, Texas, United States + 1 more", r.Location.Full)
			}},
		{"London is the UK's unless the text says otherwise",
			domain.Job{Location: domain.Location{Full: "London"}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, []string{"United Kingdom"}, r.Location.Country)
			}},
		{"salary without a period counts as annual",
			domain.Job{Salary: &domain.Salary{Min: num(90000), Max: num(120000)}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, 90000.0, *r.AnnualMin)
				assert.Equal(t, 120000.0, *r.AnnualMax)
				assert.Nil(t, r.Salary.Period, "shown as given")
			}},
		{"up to X starts at 0",
			domain.Job{Salary: &domain.Salary{Max: num(20), Period: str("per hour")}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, 0.0, *r.AnnualMin)
				assert.Equal(t, 41600.0, *r.AnnualMax)
				assert.Equal(t, "hourly", *r.Salary.Period)
			}},
		{"the field follows a given role, not the title",
			domain.Job{Title: "ICU Nurse", Category: domain.Category{Role: str("software engineer")}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, "Computer and Mathematical", *r.Category.Field)
				assert.Equal(t, "Software Engineer", *r.Category.Role)
				assert.Nil(t, r.Category.Specialization, "the title's specialization is of another role")
				assert.NotContains(t, r.FilterKeys, normalize.FilterKey(domain.FieldCategoryRole, "Registered Nurse"), "one category: the shown one")
			}},
		{"remote from the location when no arrangement is given",
			domain.Job{Location: domain.Location{Full: "Remote - US"}},
			func(t *testing.T, r domain.JobRecord) {
				assert.Equal(t, domain.WorkArrangementRemote, *r.WorkArrangement)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.give.ID, tt.give.Company = "t-1", "Co"
			if tt.give.Title == "" {
				tt.give.Title = "Engineer"
			}
			r, err := n.Job(tt.give)
			require.NoError(t, err)
			tt.check(t, r)
		})
	}
}

func TestHTMLText(t *testing.T) {
	tests := []struct{ give, want string }{
		{"<p>Build <b>APIs</b> &amp; services.</p><ul><li>Go</li><li>SQL</li></ul>", "Build APIs & services.\nGo\nSQL"},
		{"<h2>About</h2>We&#39;re   hiring<br>now", "About\nWe're hiring\nnow"},
		{"<script>alert('x')</script><style>p{}</style><p>Text</p>", "Text"},
		{"plain text, no tags", "plain text, no tags"},
		{"plain text\n\n  on two   lines\n", "plain text\non two lines"},
		{"<p>unclosed <b>tags", "unclosed tags"},
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, normalize.HTMLText(tt.give), tt.give)
	}
}

// jobAt is a minimal valid record at a location.
func jobAt(location string) domain.Job {
	return domain.Job{ID: "t-1", Title: "Engineer", Company: "Co", Location: domain.Location{Full: location}}
}

func TestFreshnessAndMatchModes(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 30, 45, 0, time.UTC)
	n, err := normalize.New(normalize.WithClock(func() time.Time { return now }))
	require.NoError(t, err)
	str := func(s string) *string { return &s }
	all := domain.MatchAll
	tests := []struct {
		name  string
		give  domain.JobFilter
		after string // want PostedAfter, "" for none
		param string // want an error about it
	}{
		{name: "7 days", give: domain.JobFilter{PostedWithin: str("7d")}, after: "2026-11-13T15:30:45Z"},
		{name: "24 hours", give: domain.JobFilter{PostedWithin: str("24H")}, after: "2026-11-19T15:30:45Z"},
		{name: "a date", give: domain.JobFilter{PostedAfter: str("2026-11-01")}, after: "2026-11-01T00:00:00Z"},
		{name: "a date-time with offset", give: domain.JobFilter{PostedAfter: str("2026-11-01T09:00:00+02:00")}, after: "2026-11-01T07:00:00Z"},
		{name: "the later bound holds", give: domain.JobFilter{PostedAfter: str("2026-11-19"), PostedWithin: str("30d")}, after: "2026-11-19T00:00:00Z"},
		{name: "weeks are no unit", give: domain.JobFilter{PostedWithin: str("2w")}, param: "posted_within"},
		{name: "zero", give: domain.JobFilter{PostedWithin: str("0d")}, param: "posted_within"},
		{name: "too long", give: domain.JobFilter{PostedWithin: str("9999d")}, param: "posted_within"},
		{name: "not a date", give: domain.JobFilter{PostedAfter: str("last week")}, param: "posted_after"},
		{name: "bad match mode", give: domain.JobFilter{Skills: []string{"go"}, SkillsMatch: (*domain.MatchMode)(str("most"))}, param: "skills_match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := n.JobFilter(&tt.give)
			if tt.param != "" {
				assert.Equal(t, tt.param, domain.ErrorParam(err))
				return
			}
			require.NoError(t, err)
			require.NotNil(t, q.PostedAfter)
			assert.Equal(t, tt.after, q.PostedAfter.Format(time.RFC3339))
		})
	}
	q, err := n.JobFilter(&domain.JobFilter{Skills: []string{"golang", "k8s"}, SkillsMatch: &all, Tools: []string{"docker"}})
	require.NoError(t, err)
	assert.True(t, q.Filters[0].All, "skills: every value")
	assert.False(t, q.Filters[1].All, "tools: any value, the default")
	assert.Equal(t, domain.MatchAll, *q.Normalized.SkillsMatch)
}
