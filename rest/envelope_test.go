package rest

import (
	"bytes"
	stdjson "encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/seed"
)

// TestWriteJSONMatchesEncodingJSON checks that the bodies writeJSON makes
// with go-json are byte for byte those of encoding/json (HTML left
// unescaped, as writeJSON asks): every REST answer's shape, on generated
// postings and on strings and numbers that encoders treat differently.
func TestWriteJSONMatchesEncodingJSON(t *testing.T) {
	jobs := benchJobs(t, 60)
	cards := make([]domain.JobCard, len(jobs))
	for i := range jobs {
		cards[i] = jobs[i].Card()
	}
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	all, yes := domain.MatchAll, true
	odd := []string{
		"<b>&amp;</b> 'quoted' \"double\"", "line\u2028sep\u2029para", "bad \xff\xfe utf-8", "tab\tnl\ncr\r\x00\x1f\x7f",
		"emoji 🧑‍💻 and CJK 求人", `back\slash /slash`, "",
	}
	for i, s := range odd {
		cards[i].Title, cards[i].Company = s, s+s
		cards[i].EmploymentType = str(s)
		jobs[i].DescriptionRaw = str(s)
	}
	for i, f := range []float64{0, -0.5, 1e21, 1e20, 1e-7, 123456.5, 0.1 + 0.2, math.MaxFloat64, math.SmallestNonzeroFloat64, 75000} {
		cards[i].Salary = &domain.Salary{Min: num(f), Max: num(-f), Currency: str("USD"), Period: nil}
	}
	cursor := domain.Cursor{Sort: domain.JobSortNewest, Time: seed.Reference, ID: cards[0].ID, Offset: 25}.Encode()
	page := envelope{Data: cards, Meta: &meta{
		Total: 41234, Limit: 25, HasMore: true, NextCursor: &cursor,
		Normalized: &domain.NormalizedFilter{Skills: []string{"Go", "Kubernetes"}, SkillsMatch: &all, City: []string{"San Francisco"},
			IncludeUnknownSalary: &yes, SalaryMin: num(1e21), SalaryMax: num(1e-7), Company: str("<Acme & Co>"),
			Title: &domain.NormalizedTitle{CategoryField: str("Engineering")}, SalaryCurrency: &domain.NormalizedCurrency{Currency: "EUR"},
			Location: &domain.NormalizedLocation{City: []string{"Austin"}, WorkArrangement: []domain.WorkArrangement{domain.WorkArrangementRemote}}},
		Facets: map[string]any{
			"skills":     []domain.FacetValue{{Value: "Go", Count: 12}, {Value: "<script>", Count: 1}},
			"salary":     []domain.SalaryBucket{{Min: 0, Max: num(50000), Count: 3}, {Min: 50000, Count: 9}},
			"work_empty": []domain.FacetValue{},
		},
	}}
	cases := map[string]any{
		"card page":      page,
		"empty page":     envelope{Data: []domain.JobCard{}, Meta: &meta{Limit: 25}},
		"companies":      envelope{Data: []domain.Company{{Name: "Acme <&>", JobCount: 3, Slug: "acme"}, {Name: "", LogoURL: str("https://x/y?a=1&b=2")}}, Meta: &meta{Total: 2, Limit: 50}},
		"company":        envelope{Data: &domain.CompanyProfile{ID: 7, Name: "Acme", ByCategory: []domain.ValueCount{{Value: nil, Count: 2}, {Value: str("Engineering"), Count: 1}}}},
		"interpretation": envelope{Data: map[string]any{"title": map[string]any{"field": "Engineering", "role": nil}, "notes": []string{}}},
	}
	for i := range jobs {
		cases["job "+jobs[i].ID] = envelope{Data: &jobs[i]}
	}
	for name, v := range cases {
		var want bytes.Buffer
		enc := stdjson.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(v), name)
		w := httptest.NewRecorder()
		writeJSON(w, httptest.NewRequest(http.MethodGet, "/", nil), http.StatusOK, v)
		require.Equal(t, http.StatusOK, w.Code, name)
		require.Equal(t, want.String(), w.Body.String(), name)
	}
}
