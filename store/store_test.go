package store_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/store"
)

type env struct {
	db   *bun.DB
	st   *store.Store
	norm *normalize.Normalizer
	ctx  context.Context
	t    *testing.T
}

func newEnv(t *testing.T) *env {
	t.Helper()
	norm, err := normalize.New()
	require.NoError(t, err)
	db := pgtest.NewDB(t)
	return &env{db: db, st: store.New(db), norm: norm, ctx: context.Background(), t: t}
}

// startIndexed starts the index on e's database (startIndexed).
func (e *env) startIndexed(opts store.IndexOptions) (*store.Store, *store.Indexer) {
	e.t.Helper()
	return startIndexed(e.t, e.db, opts)
}

// startIndexed starts the index on db, as serve does, with opts (Poll 50
// ms when unset) and waits until it is ready: a second store over the data
// that answers from the index, stopped when the test ends.
func startIndexed(tb testing.TB, db *bun.DB, opts store.IndexOptions) (*store.Store, *store.Indexer) {
	tb.Helper()
	if opts.Poll == 0 {
		opts.Poll = 50 * time.Millisecond
	}
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	indexed := store.New(db)
	x, err := indexed.StartIndex(ctx, opts)
	require.NoError(tb, err)
	waitCtx, done := context.WithTimeout(ctx, 30*time.Second)
	defer done()
	require.NoError(tb, x.WaitReady(waitCtx))
	return indexed, x
}

func (e *env) importText(text string, opts importer.Options) (importer.Result, error) {
	return importer.NDJSON(e.ctx, strings.NewReader(text), e.norm, e.st, opts)
}

func (e *env) importFixture(name string) {
	e.t.Helper()
	b, err := os.ReadFile(pgtest.Fixture(e.t, name))
	require.NoError(e.t, err)
	res, err := e.importText(string(b), importer.Options{BatchSize: 5})
	require.NoError(e.t, err)
	require.Empty(e.t, res.Invalid)
}

func (e *env) ids(f domain.JobFilter, limit, offset *int, sort *domain.JobSort, after *string) ([]string, int, *domain.Cursor) {
	e.t.Helper()
	q, err := search.ReadJobQuery(e.norm, &f, search.Page{Limit: limit, Offset: offset, After: after}, sort)
	require.NoError(e.t, err)
	cards, total, cursors, err := e.st.FindJobCards(e.ctx, q)
	require.NoError(e.t, err)
	require.Len(e.t, cursors, len(cards), "a cursor for each card")
	out := []string{}
	for _, c := range cards {
		out = append(out, c.ID)
	}
	if len(cursors) == 0 {
		return out, total, nil
	}
	return out, total, &cursors[len(cursors)-1]
}

func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	require.NoError(e.t, e.db.NewRaw(query, args...).Scan(e.ctx, &n))
	return n
}

func ptr[T any](v T) *T { return &v }

var allInOrder = []string{"test-1", "test-2", "test-3", "test-4", "test-5", "test-6", "test-7", "test-8", "test-9", "test-11", "test-12", "test-10"}

func TestImportThenRead(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")

	ids, total, _ := e.ids(domain.JobFilter{}, ptr(100), nil, nil, nil)
	assert.Equal(t, allInOrder, ids, "newest first, id breaks ties, undated last")
	assert.Equal(t, 12, total)

	job, err := e.st.JobByID(e.ctx, "test-1")
	require.NoError(t, err)
	assert.Equal(t, []string{"Go", "Kubernetes", "PostgreSQL", "Docker"}, job.Skills, "aliases spelled canonically; tools that are skills added")
	assert.Equal(t, []string{"H-1B"}, job.VisaSponsorship)
	assert.Equal(t, []string{"Bachelor's"}, job.EducationLevels, "derived from the education text")
	assert.Equal(t, []string{"Computer Science"}, job.EducationMajors)
	assert.Equal(t, "San Francisco, California, United States", job.Location.Full)
	assert.Equal(t, "2026-10-30T10:00:00Z", *job.PostedAt)
	assert.Equal(t, "USD", *job.Salary.Currency)
	assert.Equal(t, "annual", *job.Salary.Period)
	assert.Equal(t, "Build APIs & services.\nGo", *job.Description, "plain text derived from the HTML")
	assert.Equal(t, "Backend", *job.Category.Specialization)
	assert.Equal(t, "test", *job.Source, "source from the id")
	assert.Nil(t, job.SecurityClearances)
	assert.Equal(t, []string{}, job.Responsibilities)

	five, err := e.st.JobByID(e.ctx, "test-5")
	require.NoError(t, err)
	assert.Nil(t, five.Salary)
	assert.Nil(t, five.SecurityClearances, "an empty clearance list is null")
	assert.Equal(t, domain.WorkArrangementRemote, *five.WorkArrangement, "remote from the location text")
	assert.Equal(t, []string{"United States"}, five.Location.Country)

	nine, err := e.st.JobByID(e.ctx, "test-9")
	require.NoError(t, err)
	assert.Equal(t, "San Francisco, California, United States + 1 more", nine.Location.Full)

	_, err = e.st.JobByID(e.ctx, "test-404")
	assert.Equal(t, domain.CodeNotFound, domain.ErrorCode(err))

	companies, total, err := e.st.Companies(e.ctx, domain.CompanyQuery{MinJobs: 1, Limit: 50})
	require.NoError(t, err)
	assert.Equal(t, 7, total)
	assert.Equal(t, domain.Company{Name: "Acme Cloud", LogoURL: ptr("https://logos.example.com/acme.png"), JobCount: 3, Slug: "acme-cloud"}, companies[0])
	var names []string
	for _, c := range companies {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"Acme Cloud", "Globex", "Hooli", "Umbrella Corp", "Alphacorp", "Initech Defense", "St. Mary Hospital"}, names)
}

func TestImportIsAllOrNothing(t *testing.T) {
	e := newEnv(t)
	b, err := os.ReadFile(pgtest.Fixture(t, "invalid.ndjson"))
	require.NoError(t, err)

	res, err := e.importText(string(b), importer.Options{})
	require.ErrorIs(t, err, importer.ErrInvalid)
	var lines []int
	for _, bad := range res.Invalid {
		lines = append(lines, bad.Line)
	}
	assert.Equal(t, []int{2, 3, 4, 5, 6, 7}, lines, "every bad line reported")
	assert.Contains(t, res.Invalid[0].Reason, "not shaped <source>-<number>")
	assert.Contains(t, res.Invalid[1].Reason, "title is required")
	assert.Contains(t, res.Invalid[3].Reason, "work_arrangement")
	assert.Contains(t, res.Invalid[5].Reason, `unknown field "titel"`)
	assert.Equal(t, 0, e.count("SELECT count(*) FROM jobs"), "nothing written")
	assert.Equal(t, 0, e.count("SELECT count(*) FROM companies"))

	res, err = e.importText(string(b), importer.Options{SkipInvalid: true})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Imported)
	assert.Len(t, res.Invalid, 6)
	assert.Equal(t, 1, e.count("SELECT count(*) FROM jobs"))
}

func TestReimportReplacesAndKeepsCountsExact(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	e.importFixture("jobs.ndjson")
	assert.Equal(t, 12, e.count("SELECT count(*) FROM jobs"), "re-import is idempotent")
	assert.Equal(t, 3, e.count("SELECT job_count FROM companies WHERE name = 'Acme Cloud'"))

	// test-2 moves from Acme Cloud to Globex; a duplicate id in one file keeps the last.
	_, err := e.importText(`{"id":"test-2","title":"Frontend Developer","company":"Globex"}
{"id":"test-13","title":"Nurse","company":"acme cloud"}
{"id":"test-13","title":"ICU Nurse","company":"Acme Cloud"}`, importer.Options{})
	require.NoError(t, err)
	assert.Equal(t, 3, e.count("SELECT job_count FROM companies WHERE name = 'Acme Cloud'"), "lost test-2, gained test-13")
	assert.Equal(t, 3, e.count("SELECT job_count FROM companies WHERE name = 'Globex'"))
	assert.Equal(t, 0, e.count(`SELECT count(*) FROM companies c WHERE job_count <> (SELECT count(*) FROM jobs j WHERE j.company_id = c.id)`))
	job, err := e.st.JobByID(e.ctx, "test-13")
	require.NoError(t, err)
	assert.Equal(t, "ICU Nurse", job.Title)
	assert.Nil(t, job.Salary, "a replaced job keeps nothing of the old record")
}

func TestPagination(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")

	ids, total, _ := e.ids(domain.JobFilter{}, ptr(5), ptr(10), nil, nil)
	assert.Equal(t, []string{"test-12", "test-10"}, ids)
	assert.Equal(t, 12, total)
	ids, total, next := e.ids(domain.JobFilter{}, ptr(5), ptr(100), nil, nil)
	assert.Empty(t, ids)
	assert.Equal(t, 12, total)
	assert.Nil(t, next)

	for _, sort := range []domain.JobSort{domain.JobSortNewest, domain.JobSortOldest, domain.JobSortSalaryDesc, domain.JobSortSalaryAsc} {
		t.Run(string(sort), func(t *testing.T) {
			byOffset, _, _ := e.ids(domain.JobFilter{}, ptr(100), nil, &sort, nil)
			var walked []string
			var after *string
			for range 10 {
				ids, total, next := e.ids(domain.JobFilter{}, ptr(5), nil, &sort, after)
				assert.Equal(t, 12, total)
				walked = append(walked, ids...)
				if next == nil || len(ids) < 5 {
					break
				}
				after = ptr(next.Encode())
			}
			assert.Equal(t, byOffset, walked, "cursor pages walk the same order as offsets")
		})
	}
	salaryDesc := domain.JobSortSalaryDesc
	ids, _, _ = e.ids(domain.JobFilter{}, ptr(100), nil, &salaryDesc, nil)
	assert.Equal(t, "test-9", ids[0], "highest annualized salary first")
	assert.Equal(t, "test-5", ids[len(ids)-1], "no salary last")
}

func TestCompanySlugs(t *testing.T) {
	e := newEnv(t)
	e.importFixture("jobs.ndjson")
	assert.Equal(t, "st-mary-hospital", e.slugOf("St. Mary Hospital"), "imports write slugs")
	_, err := e.db.ExecContext(e.ctx, "UPDATE companies SET slug = ''")
	require.NoError(t, err)
	n, err := e.st.FillSlugs(e.ctx, fold.Slug)
	require.NoError(t, err)
	assert.Equal(t, 7, n)
	assert.Equal(t, "st-mary-hospital", e.slugOf("St. Mary Hospital"), "filled from the name")
	n, err = e.st.FillSlugs(e.ctx, fold.Slug)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "nothing left to fill")
	p, err := e.st.CompanyBySlug(e.ctx, "initech-defense")
	require.NoError(t, err)
	assert.Equal(t, 1, p.JobCount)
	assert.Equal(t, []domain.ValueCount{{Value: ptr("Computer and Mathematical"), Count: 1}}, p.ByCategory)
}

func (e *env) slugOf(name string) string {
	e.t.Helper()
	var slug string
	require.NoError(e.t, e.db.NewRaw("SELECT slug FROM companies WHERE name = ?", name).Scan(e.ctx, &slug))
	return slug
}
