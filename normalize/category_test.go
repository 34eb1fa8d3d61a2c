package normalize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// TestCategory: the category a posting shows, from what its source gave
// and its title (normalize.Category's rule, member by member).
func TestCategory(t *testing.T) {
	n := newNormalizer(t)
	const (
		computing  = "Computer and Mathematical"
		healthcare = "Healthcare Practitioners and Technical"
		swe        = "Software Engineer"
		nurse      = "Registered Nurse"
	)
	cat := func(field, role, spec string) domain.Category {
		p := func(s string) *string {
			if s == "" {
				return nil
			}
			return &s
		}
		return domain.Category{Field: p(field), Role: p(role), Specialization: p(spec)}
	}
	tests := []struct {
		name  string
		given domain.Category
		title string
		want  domain.Category
	}{
		{"nothing given: the title's", cat("", "", ""), "Senior Backend Engineer", cat(computing, swe, "Backend")},
		{"nothing given, unknown title: none", cat("", "", ""), "Chief Happiness Wizard", cat("", "", "")},
		{"all given: kept, spelled canonically", cat("computer and mathematical", "software engineer", "backend"), "ICU Nurse", cat(computing, swe, "Backend")},
		{"a given role brings its field, not the title's specialization", cat("", "software engineer", ""), "ICU Nurse", cat(computing, swe, "")},
		{"a given role the title agrees with takes its specialization", cat("", "Software Engineer", ""), "Backend Engineer", cat(computing, swe, "Backend")},
		{"a given role with an unknown title", cat("", "Registered Nurse", ""), "Chief Happiness Wizard", cat(healthcare, nurse, "")},
		{"a given field the title agrees with takes its role", cat("Healthcare Practitioners and Technical", "", ""), "ICU Nurse", cat(healthcare, nurse, "ICU/Critical Care")},
		{"a given field the title contradicts stays alone", cat("Computer and Mathematical", "", ""), "ICU Nurse", cat(computing, "", "")},
		{"a role unknown to the taxonomy is kept as given, the title's field beside it", cat("", "Dolphin Trainer", ""), "Backend Engineer", cat(computing, "Dolphin Trainer", "")},
		{"a given specialization brings its role and field", cat("", "", "backend"), "ICU Nurse", cat(computing, swe, "Backend")},
		{"a given specialization of another field than the given one implies nothing", cat("Healthcare Practitioners and Technical", "", "Backend"), "ICU Nurse", cat(healthcare, "", "Backend")},
		{"an unknown given specialization implies nothing", cat("", "", "Payments Wizardry"), "Backend Engineer", cat(computing, swe, "Payments Wizardry")},
		{"blank members count as not given", cat(" ", "", "  "), "Backend Engineer", cat(computing, swe, "Backend")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, n.Category(tt.given, tt.title))
		})
	}
}

// TestJobShowsOneCategory: a record's category keys are those of the
// category it shows, and no other category is kept for matching.
func TestJobShowsOneCategory(t *testing.T) {
	n := newNormalizer(t)
	role := "software engineer"
	rec, err := n.Job(domain.Job{ID: "t-1", Company: "Co", Title: "ICU Nurse", Category: domain.Category{Role: &role}})
	assert.NoError(t, err)
	var categoryKeys []string
	for _, k := range rec.FilterKeys {
		if len(k) > 9 && (k[:9] == "category_" || k[:6] == "title_") {
			categoryKeys = append(categoryKeys, k)
		}
	}
	assert.ElementsMatch(t, []string{
		normalize.FilterKey(domain.FieldCategoryField, "Computer and Mathematical"),
		normalize.FilterKey(domain.FieldCategoryRole, "Software Engineer"),
	}, categoryKeys)
}
