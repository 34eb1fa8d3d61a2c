package normalize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph/model"
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
		{"PhD", n.EducationLevels, "Ph.D.", "Doctorate"},
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
	for give, want := range map[string]model.WorkArrangement{"on-site": "onsite", "in office": "onsite", "Remote": "remote", "HYBRID": "hybrid"} {
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
		{"Senior Backend Engineer (Remote)", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Specialization: "Backend", Level: normalize.LevelSpecialization}, true},
		{"Software Engineer, Backend", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Specialization: "Backend", Level: normalize.LevelSpecialization}, true},
		{"Software Engineer II", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Level: normalize.LevelRole}, true},
		{"Sr. Software Developer", normalize.TitleCategory{Field: "Computer and Mathematical", Role: "Software Engineer", Level: normalize.LevelRole}, true},
		{"Registered Nurse - ICU", normalize.TitleCategory{Field: "Healthcare Practitioners and Technical", Role: "Registered Nurse", Level: normalize.LevelRole}, true},
		{"ICU Nurse", normalize.TitleCategory{Field: "Healthcare Practitioners and Technical", Role: "Registered Nurse", Specialization: "ICU", Level: normalize.LevelSpecialization}, true},
		{"Engineering Manager, Payments", normalize.TitleCategory{Field: "Management", Role: "Engineering Manager", Level: normalize.LevelRole}, true},
		{"healthcare", normalize.TitleCategory{Field: "Healthcare Practitioners and Technical", Level: normalize.LevelField}, true},
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
