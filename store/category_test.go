package store_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/store"
)

// categoryPostings show one category each (normalize.Category), some given
// by their source against or without what their titles say:
//
//	cat-1  Chief Happiness Wizard, given role  → Computer and Mathematical / Software Engineer
//	cat-2  Backend Engineer                    → Computer and Mathematical / Software Engineer / Backend
//	cat-3  Software Engineer II                → Computer and Mathematical / Software Engineer
//	cat-4  ICU Nurse, given role               → Computer and Mathematical / Software Engineer
//	cat-5  ICU Nurse                           → Healthcare … / Registered Nurse / ICU/Critical Care
//	cat-6  Registered Nurse, given field       → Computer and Mathematical
//	cat-7  Chief Happiness Wizard              → none
var categoryPostings = strings.Join([]string{
	`{"id":"cat-1","title":"Chief Happiness Wizard","company":"Oneco","posted_at":"2026-11-07T00:00:00Z","category":{"role":"software engineer"},"skills":["Go"]}`,
	`{"id":"cat-2","title":"Backend Engineer","company":"Oneco","posted_at":"2026-11-06T00:00:00Z","skills":["Go"]}`,
	`{"id":"cat-3","title":"Software Engineer II","company":"Oneco","posted_at":"2026-11-05T00:00:00Z"}`,
	`{"id":"cat-4","title":"ICU Nurse","company":"Oneco","posted_at":"2026-11-04T00:00:00Z","category":{"role":"Software Engineer"}}`,
	`{"id":"cat-5","title":"ICU Nurse","company":"Oneco","posted_at":"2026-11-03T00:00:00Z"}`,
	`{"id":"cat-6","title":"Registered Nurse","company":"Oneco","posted_at":"2026-11-02T00:00:00Z","category":{"field":"Computer and Mathematical"}}`,
	`{"id":"cat-7","title":"Chief Happiness Wizard","company":"Oneco","posted_at":"2026-11-01T00:00:00Z"}`,
}, "\n") + "\n"

// categoryEnv is a database of categoryPostings with two stores over it:
// e.st answers in SQL alone, indexed with the index.
func categoryEnv(t *testing.T) (*env, *store.Store, *store.Indexer) {
	t.Helper()
	e := newEnv(t)
	res, err := e.importText(categoryPostings, importer.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Invalid)
	indexed, x := e.startIndexed(store.IndexOptions{})
	return e, indexed, x
}

// TestOneCategoryPerJob: similar jobs, the title intent, the category
// filters, the category facets and the company page all see the category
// a posting shows, in SQL and through the index alike.
func TestOneCategoryPerJob(t *testing.T) {
	e, indexed, x := categoryEnv(t)

	t.Run("similar jobs", func(t *testing.T) {
		for _, tt := range []struct {
			id   string
			want []string
		}{
			// An unknown title with a given role: the postings of that role,
			// shared skills first, then newest.
			{"cat-1", []string{"cat-2", "cat-3", "cat-4"}},
			// Backend: its role and its specialization.
			{"cat-2", []string{}},
			// Its title says nurse, as cat-4's does; cat-4 shows a software engineer.
			{"cat-5", []string{}},
			{"cat-6", []string{}}, // a field alone: no role, no peers
			{"cat-7", []string{}},
		} {
			cards, total, err := e.st.SimilarJobs(e.ctx, tt.id, 10, false)
			require.NoError(t, err)
			assert.Equal(t, tt.want, append([]string{}, cardIDs(cards)...), tt.id)
			assert.Equal(t, len(tt.want), total, tt.id)
		}
	})

	answered := x.Stats().Answered
	for _, tt := range []struct {
		name   string
		filter domain.JobFilter
		want   []string
	}{
		{"title intent finds a role given to an unknown title", domain.JobFilter{Title: ptr("software engineer")}, []string{"cat-1", "cat-2", "cat-3", "cat-4"}},
		{"title intent by role, not by the words of the title", domain.JobFilter{JobTitle: ptr("nurse")}, []string{"cat-5"}},
		{"title intent by specialization", domain.JobFilter{Title: ptr("Senior Backend Engineer")}, []string{"cat-2"}},
		{"title intent by field", domain.JobFilter{Title: ptr("healthcare")}, []string{"cat-5"}},
		{"category role filter", domain.JobFilter{CategoryRole: ptr("software engineer")}, []string{"cat-1", "cat-2", "cat-3", "cat-4"}},
		{"category field filter", domain.JobFilter{CategoryField: ptr("computer and mathematical")}, []string{"cat-1", "cat-2", "cat-3", "cat-4", "cat-6"}},
		{"category specialization filter", domain.JobFilter{CategorySpecialization: ptr("ICU/Critical Care")}, []string{"cat-5"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q, err := search.ReadJobQuery(e.norm, &tt.filter, search.Page{}, nil)
			require.NoError(t, err)
			for name, st := range map[string]*store.Store{"sql": e.st, "index": indexed} {
				cards, total, _, err := st.FindJobCards(e.ctx, q)
				require.NoError(t, err)
				assert.Equal(t, tt.want, cardIDs(cards), name)
				assert.Equal(t, len(tt.want), total, name)
			}
		})
	}

	t.Run("facets", func(t *testing.T) {
		fields := []string{domain.FieldCategoryField, domain.FieldCategoryRole}
		for _, tt := range []struct {
			name   string
			filter domain.JobFilter
			want   map[string][]domain.FacetValue
		}{
			{"every posting", domain.JobFilter{}, map[string][]domain.FacetValue{
				domain.FieldCategoryField: {{Value: "Computer and Mathematical", Count: 5}, {Value: "Healthcare Practitioners and Technical", Count: 1}},
				domain.FieldCategoryRole:  {{Value: "Software Engineer", Count: 4}, {Value: "Registered Nurse", Count: 1}},
			}},
			// The title intent is not the role facet's own filter: it narrows the counts.
			{"under a title intent", domain.JobFilter{Title: ptr("nurse")}, map[string][]domain.FacetValue{
				domain.FieldCategoryField: {{Value: "Healthcare Practitioners and Technical", Count: 1}},
				domain.FieldCategoryRole:  {{Value: "Registered Nurse", Count: 1}},
			}},
			// The role filter is: the role facet counts without it.
			{"under a role filter", domain.JobFilter{CategoryRole: ptr("nurse")}, map[string][]domain.FacetValue{
				domain.FieldCategoryField: {{Value: "Healthcare Practitioners and Technical", Count: 1}},
				domain.FieldCategoryRole:  {{Value: "Software Engineer", Count: 4}, {Value: "Registered Nurse", Count: 1}},
			}},
		} {
			q, err := search.ReadJobQuery(e.norm, &tt.filter, search.Page{}, nil)
			require.NoError(t, err)
			for name, st := range map[string]*store.Store{"sql": e.st, "index": indexed} {
				facets, err := st.Facets(e.ctx, q, fields, 10)
				require.NoError(t, err)
				got := map[string][]domain.FacetValue{}
				for _, f := range facets {
					got[string(f.Field)] = f.Values
				}
				assert.Equal(t, tt.want, got, "%s, %s", tt.name, name)
			}
		}
	})
	assert.Greater(t, x.Stats().Answered, answered, "the index answered")

	t.Run("company page", func(t *testing.T) {
		p, err := e.st.CompanyBySlug(e.ctx, "oneco")
		require.NoError(t, err)
		str := func(s string) *string { return &s }
		assert.Equal(t, []domain.ValueCount{
			{Value: str("Computer and Mathematical"), Count: 5},
			{Value: str("Healthcare Practitioners and Technical"), Count: 1},
			{Value: nil, Count: 1},
		}, p.ByCategory)
	})
}

// TestRenormalizeToOneCategory: postings stored under the earlier rule,
// whose filter keys also held the category of their title alone
// (title_field, title_role, title_specialization), are rewritten by
// renormalize without them, and no posting is lost.
func TestRenormalizeToOneCategory(t *testing.T) {
	e := newEnv(t)
	res, err := e.importText(categoryPostings, importer.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Invalid)
	// cat-4 as the earlier rule stored it: its title's category beside the
	// one it shows, and the hash of that row (of other columns).
	_, err = e.db.NewRaw(`UPDATE jobs SET filter_keys = filter_keys || ?::text[], content_hash = '\x00' WHERE id = 'cat-4'`,
		pgdialect.Array([]string{"title_field:healthcare practitioners and technical", "title_role:registered nurse",
			"title_specialization:registered nurse/icu/critical care"})).Exec(e.ctx)
	require.NoError(t, err)
	jobs := e.count("SELECT count(*) FROM jobs")

	out, err := e.st.Renormalize(e.ctx, e.norm.Digest(), e.norm.Rederive, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, out.Changed, "the old row is rewritten, the others are already right")
	assert.Equal(t, jobs, e.count("SELECT count(*) FROM jobs"), "no posting is lost")
	assert.Zero(t, e.count("SELECT count(*) FROM jobs, unnest(filter_keys) k WHERE k LIKE 'title\\_%'"), "no title keys are left")
	assert.Equal(t, 4, e.count("SELECT count(*) FROM jobs WHERE filter_keys @> '{category_role:software engineer}'"))
}
