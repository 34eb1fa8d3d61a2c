package store_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// indexedEnv is a database of generated postings and the fixture, with two
// stores over it: e.st answers in SQL alone, indexed with the index.
func indexedEnv(t *testing.T, n int) (*env, *store.Store, *store.Indexer) {
	t.Helper()
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	var buf bytes.Buffer
	require.NoError(t, seed.Write(&buf, seed.Options{N: n, Seed: 7}))
	res, err := e.importText(buf.String(), importer.Options{})
	require.NoError(t, err)
	require.Empty(t, res.Invalid)
	indexed, x := e.startIndexed(store.IndexOptions{})
	return e, indexed, x
}

// randomFilter draws a job filter from values the data has and has not.
func randomFilter(r *rand.Rand) domain.JobFilter {
	some := func(pool ...string) []string {
		var out []string
		for range 1 + r.IntN(3) {
			out = append(out, pool[r.IntN(len(pool))])
		}
		return out
	}
	str := func(pool ...string) *string { return &pool[r.IntN(len(pool))] }
	num := func(pool ...float64) *float64 { return &pool[r.IntN(len(pool))] }
	all := domain.MatchAll
	var f domain.JobFilter
	for range 1 + r.IntN(3) {
		switch r.IntN(16) {
		case 0:
			f.Skills = some("golang", "python", "aws", "reactjs", "k8s", "sql", "excel", "patient care", "eks", "nope")
			if r.IntN(3) == 0 {
				f.SkillsMatch = &all
			}
		case 1:
			f.City = str("San Francisco", "NYC", "Austin", "London", "Toronto", "Berlin", "Nowhere")
		case 2:
			f.Country = str("US", "UK", "Canada", "Germany", "India")
		case 3:
			f.WorkArrangement = []domain.WorkArrangement{[]domain.WorkArrangement{domain.WorkArrangementRemote, domain.WorkArrangementHybrid, domain.WorkArrangementOnsite}[r.IntN(3)]}
		case 4:
			f.EmploymentType = some("full-time", "contract", "part-time", "internship")
		case 5:
			f.Company = str("a", "ac", "pacific", "labs", "zzz", "ACME")
		case 6:
			f.SalaryMin = num(0, 50000, 120000, 180000, 400000)
		case 7:
			f.SalaryMax = num(30000, 90000, 150000)
			if r.IntN(2) == 0 {
				yes := true
				f.IncludeUnknownSalary = &yes
			}
		case 8:
			f.Title = str("software engineer", "backend engineer", "nurse", "accountant", "data scientist")
		case 9:
			f.PostedAfter = str("2026-01-01", "2026-09-01", "2026-11-01T12:00:00Z", "1960-01-01")
		case 10:
			f.State = str("CA", "New York", "TX", "Ontario")
		case 11:
			f.Tools = some("git", "jira", "excel", "figma")
		case 12:
			f.Visas = some("h1b", "tn", "opt")
		case 13:
			f.EducationLevels = some("bachelors", "masters", "phd", "high school")
		case 14:
			f.CategoryField = str("Software Engineering", "Healthcare", "Sales")
		case 15:
			f.Location = str("Remote - US", "Austin, TX", "London, UK", "remote")
		}
	}
	return f
}

// TestIndexAnswersAsSQL checks that the index gives the SQL answers, card
// for card, cursor for cursor and count for count, over random filters,
// every keyset sort, offsets, cursor walks and every facet.
func TestIndexAnswersAsSQL(t *testing.T) {
	e, indexed, x := indexedEnv(t, 1500)
	r := rand.New(rand.NewPCG(1, 2))
	sorts := []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc, domain.JobSortSalaryAsc}
	for i := range 120 {
		f := randomFilter(r)
		sort := sorts[r.IntN(len(sorts))]
		limit, offset := 1+r.IntN(30), 0
		if r.IntN(3) == 0 {
			offset = r.IntN(200)
		}
		q, err := search.ReadJobQuery(e.norm, &f, search.Page{Limit: &limit, Offset: &offset}, &sort)
		if domain.ErrorCode(err) == domain.CodeInvalidParameter {
			continue // such as salary_min above salary_max
		}
		require.NoError(t, err)
		name := fmt.Sprintf("%d %+v sort=%s limit=%d offset=%d", i, q.Normalized, sort, limit, offset)
		requireSamePages(t, e, indexed, q, name)
		minJobs, climit, coffset := r.IntN(4), 1+r.IntN(60), r.IntN(3)*10
		cq := domain.CompanyQuery{MinJobs: minJobs, Limit: climit, Offset: coffset, Jobs: &q}
		if i%4 == 0 {
			cq.Jobs = nil // /companies without job filters
		}
		requireSameCompanies(t, e, indexed, cq, name)

		n := 3 + r.IntN(20)
		want, err := e.st.Facets(e.ctx, q, domain.FacetFields, n)
		require.NoError(t, err)
		got, err := indexed.Facets(e.ctx, q, domain.FacetFields, n)
		require.NoError(t, err)
		require.Equal(t, want, got, "%s: facets", name)
	}
	stats := x.Stats()
	assert.Greater(t, stats.Answered, int64(300), "the index answered")
	_, _, err := indexed.Companies(e.ctx, domain.CompanyQuery{MinJobs: 1, Limit: 50})
	require.NoError(t, err)
	assert.Equal(t, stats.Answered+1, x.Stats().Answered, "the index answers /companies without filters")
	assert.Zero(t, stats.Stale)
}

// TestIndexCompanySubstringAsSQL checks the company substring's own paths
// (its total from its companies' counts, its page by a walk of the order,
// its jobs kept from a narrower filter by their company) against SQL:
// needles naming many companies, a few, one and none, alone and with a
// filter narrower or wider than they are, in every keyset sort, at offsets
// and through cursors, with the facets and the companies list.
func TestIndexCompanySubstringAsSQL(t *testing.T) {
	e, indexed, x := indexedEnv(t, 1500)
	sorts := []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc, domain.JobSortSalaryAsc}
	remote := []domain.WorkArrangement{domain.WorkArrangementRemote}
	narrower := func(f *domain.JobFilter) { f.City = ptr("Austin") }
	wider := func(f *domain.JobFilter) { f.WorkArrangement = remote }
	for _, needle := range []string{"a", "ac", "lab", "pacific", "ACME", "zzz"} {
		for _, with := range []struct {
			name string
			set  func(*domain.JobFilter)
		}{{"alone", nil}, {"narrower", narrower}, {"wider", wider}} {
			for _, sort := range sorts {
				for _, offset := range []int{0, 7, 140} {
					f := domain.JobFilter{Company: &needle}
					if with.set != nil {
						with.set(&f)
					}
					limit := 10
					q, err := search.ReadJobQuery(e.norm, &f, search.Page{Limit: &limit, Offset: &offset}, &sort)
					require.NoError(t, err)
					name := fmt.Sprintf("%q %s sort=%s offset=%d", needle, with.name, sort, offset)
					requireSamePages(t, e, indexed, q, name)
					if offset == 0 && sort == domain.JobSortNewest {
						want, err := e.st.Facets(e.ctx, q, domain.FacetFields, 10)
						require.NoError(t, err)
						got, err := indexed.Facets(e.ctx, q, domain.FacetFields, 10)
						require.NoError(t, err)
						require.Equal(t, want, got, "%s: facets", name)
						requireSameCompanies(t, e, indexed, domain.CompanyQuery{MinJobs: 1, Limit: 20, Jobs: &q}, name)
					}
				}
			}
		}
	}
	assert.Zero(t, x.Stats().Stale)
}

// requireSamePages follows q's cursors for three pages in SQL and through
// the index, and requires the same totals, cards and cursors.
func requireSamePages(t *testing.T, e *env, indexed *store.Store, q domain.JobQuery, name string) {
	t.Helper()
	var after *domain.Cursor
	for page := range 3 {
		q.After = after
		if after != nil {
			q.Offset = after.Offset
		}
		want, wantTotal, wantNext, err := e.st.FindJobCards(e.ctx, q)
		require.NoError(t, err)
		got, gotTotal, gotNext, err := indexed.FindJobCards(e.ctx, q)
		require.NoError(t, err)
		require.Equal(t, wantTotal, gotTotal, "%s page %d: total", name, page)
		require.Equal(t, cardIDs(want), cardIDs(got), "%s page %d: cards", name, page)
		require.Equal(t, want, got, "%s page %d", name, page)
		require.Equal(t, wantNext, gotNext, "%s page %d: cursors", name, page)
		if len(gotNext) == 0 {
			return
		}
		after = &gotNext[len(gotNext)-1]
	}
}

// requireSameCompanies requires the same companies list in SQL and
// through the index.
func requireSameCompanies(t *testing.T, e *env, indexed *store.Store, cq domain.CompanyQuery, name string) {
	t.Helper()
	want, wantN, err := e.st.Companies(e.ctx, cq)
	require.NoError(t, err)
	got, gotN, err := indexed.Companies(e.ctx, cq)
	require.NoError(t, err)
	require.Equal(t, wantN, gotN, "%s: number of companies", name)
	require.Equal(t, want, got, "%s: companies", name)
}

func cardIDs(cards []domain.JobCard) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.ID
	}
	return out
}

// TestIndexStaysExact checks that a write is seen by the very next query
// (a page found changed brings the index up to date), that the index
// follows the feed by applying changes rather than building again, and
// that it answers as SQL does after opens, updates and closes.
func TestIndexStaysExact(t *testing.T) {
	e, indexed, x := indexedEnv(t, 300)
	builds := x.Stats().Builds
	q, err := search.ReadJobQuery(e.norm, &domain.JobFilter{}, search.Page{}, nil)
	require.NoError(t, err)
	_, before, _, err := indexed.FindJobCards(e.ctx, q)
	require.NoError(t, err)

	line := `{"id":"late-1","title":"Backend Engineer","company":"Latecomer Inc","posted_at":"2030-01-01T00:00:00Z","location":{"full":"Austin, TX"}}`
	_, err = e.importText(line+"\n", importer.Options{})
	require.NoError(t, err)

	cards, total, _, err := indexed.FindJobCards(e.ctx, q)
	require.NoError(t, err)
	assert.Equal(t, before+1, total, "the new job counts at once")
	require.NotEmpty(t, cards)
	assert.Equal(t, "late-1", cards[0].ID, "and leads the newest page")
	require.Eventually(t, func() bool {
		facets, err := indexed.Facets(e.ctx, q, []string{domain.FacetCompany}, 100)
		return err == nil && slices.Contains(facets[0].Values, domain.FacetValue{Value: "Latecomer Inc", Count: 1})
	}, 5*time.Second, 10*time.Millisecond, "the facets follow within a poll")

	// Close it: it leaves the page at once, and the facets within a poll.
	im, err := e.st.BeginImport(e.ctx)
	require.NoError(t, err)
	require.NoError(t, im.Close(e.ctx, []domain.JobClose{{ID: "late-1"}}))
	require.NoError(t, im.Commit(e.ctx))
	cards, total, _, err = indexed.FindJobCards(e.ctx, q)
	require.NoError(t, err)
	assert.Equal(t, before, total)
	assert.NotEqual(t, "late-1", cards[0].ID)
	require.Eventually(t, func() bool {
		facets, err := indexed.Facets(e.ctx, q, []string{domain.FacetCompany}, 100)
		return err == nil && !slices.ContainsFunc(facets[0].Values, func(v domain.FacetValue) bool { return v.Value == "Latecomer Inc" })
	}, 5*time.Second, 10*time.Millisecond, "the closed job leaves the facets")

	stats := x.Stats()
	assert.Equal(t, builds, stats.Builds, "no build: the changes were applied")
	assert.GreaterOrEqual(t, stats.Applied, int64(2))
	assert.Zero(t, stats.SQLAnswers)
}

// TestIndexFollowsChangesAsSQL applies random batches of opens, updates
// and closes, and after each compares the index's answers (pages, totals,
// cursors, companies, facets) with SQL's, once the index has caught up.
func TestIndexFollowsChangesAsSQL(t *testing.T) {
	e, indexed, x := indexedEnv(t, 600)
	r := rand.New(rand.NewPCG(3, 4))
	var ids []string
	require.NoError(t, e.db.NewRaw("SELECT id FROM jobs ORDER BY id").Scan(e.ctx, &ids))
	sorts := []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc, domain.JobSortSalaryAsc}
	var buf bytes.Buffer
	require.NoError(t, seed.Write(&buf, seed.Options{N: 200, Seed: 99}))
	fresh := strings.Split(strings.TrimSpace(buf.String()), "\n")
	for batch := range 6 {
		var lines []string
		for range 10 + r.IntN(20) {
			lines = append(lines, strings.Replace(fresh[r.IntN(len(fresh))], `"id":"`, fmt.Sprintf(`"id":"b%d`, batch), 1))
		}
		_, err := e.importText(strings.Join(lines, "\n")+"\n", importer.Options{})
		require.NoError(t, err)
		im, err := e.st.BeginImport(e.ctx)
		require.NoError(t, err)
		var closes []domain.JobClose
		for range 5 + r.IntN(20) {
			closes = append(closes, domain.JobClose{ID: ids[r.IntN(len(ids))]})
		}
		require.NoError(t, im.Close(e.ctx, closes))
		require.NoError(t, im.Commit(e.ctx))
		var last int64
		require.NoError(t, e.db.NewRaw("SELECT last_seq FROM jobsd_feed").Scan(e.ctx, &last))
		require.Eventually(t, func() bool { return x.Stats().BehindChanges == 0 && x.Version() == last }, 10*time.Second, 10*time.Millisecond)
		for i := range 25 {
			f := randomFilter(r)
			sort := sorts[r.IntN(len(sorts))]
			limit, offset := 1+r.IntN(30), r.IntN(3)*7
			q, err := search.ReadJobQuery(e.norm, &f, search.Page{Limit: &limit, Offset: &offset}, &sort)
			if domain.ErrorCode(err) == domain.CodeInvalidParameter {
				continue
			}
			require.NoError(t, err)
			name := fmt.Sprintf("batch %d query %d %+v sort=%s", batch, i, q.Normalized, sort)
			requireSamePages(t, e, indexed, q, name)
			requireSameCompanies(t, e, indexed, domain.CompanyQuery{MinJobs: 1 + r.IntN(2), Limit: 40, Jobs: &q}, name)
			want, err := e.st.Facets(e.ctx, q, domain.FacetFields, 10)
			require.NoError(t, err)
			got, err := indexed.Facets(e.ctx, q, domain.FacetFields, 10)
			require.NoError(t, err)
			require.Equal(t, want, got, "%s: facets", name)
		}
	}
	assert.Equal(t, int64(1), x.Stats().Builds, "every batch applied without a build")
}

// TestOneRebuildUntilAdopted: a base built in the background is one
// rebuild until the indexer adopts it. A catch-up that finds the old index
// too far behind in the meantime (a request's) used to start a second
// build of the same changes, holding a third index in memory beside the
// old one and the one waiting.
func TestOneRebuildUntilAdopted(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	_, x := e.startIndexed(store.IndexOptions{})
	var held atomic.Bool
	held.Store(true)
	store.SetPassHook(t, func(loop string) {
		for loop == "index" && held.Load() {
			time.Sleep(time.Millisecond)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := x.Stats().Builds
	x.StartRebuild(ctx)
	require.Eventually(t, func() bool { return x.Stats().Builds == before+1 }, 30*time.Second, 5*time.Millisecond, "the base is built")
	// Handed over, not adopted (the indexer's loop is held): another
	// catch-up's rebuild is the same one.
	x.StartRebuild(ctx)
	time.Sleep(300 * time.Millisecond)
	assert.Equal(t, before+1, x.Stats().Builds, "no second build before the first base is adopted")

	held.Store(false)
	// Adopted: the next rebuild is a new one.
	require.Eventually(t, func() bool {
		x.StartRebuild(ctx)
		return x.Stats().Builds == before+2
	}, 30*time.Second, 20*time.Millisecond, "a rebuild after the adoption builds")
}
