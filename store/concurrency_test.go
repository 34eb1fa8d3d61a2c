package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/importer"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
	"github.com/jobsd-dev/jobsd/migrations"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// syncBuffer is a log's destination that goroutines may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// openShortTimeout returns a migrated test database whose statements time
// out after timeout.
func openShortTimeout(t *testing.T, timeout time.Duration) *bun.DB {
	t.Helper()
	db, err := store.Open(context.Background(), pgtest.NewURL(t), store.Options{MaxOpenConns: 4, StatementTimeout: timeout})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	_, err = migrations.Up(context.Background(), db)
	require.NoError(t, err)
	return db
}

// TestImportWaitsForImport: while an import runs, a second import, and a
// text indexer told to wait, wait for it past the statement timeout and
// then succeed; the second import says that it waits, and its statements
// have their timeout again once it has the lock; an indexer told not to
// wait returns ErrImporting at once.
func TestImportWaitsForImport(t *testing.T) {
	const timeout = 300 * time.Millisecond
	for _, tc := range []struct {
		name string
		// second runs while the first import holds the lock, and returns
		// the id it wrote, if any.
		second  func(t *testing.T, st *store.Store) (string, error)
		logLine string // logged by the waiting side
	}{{
		name: "import",
		second: func(t *testing.T, st *store.Store) (string, error) {
			im, err := st.BeginImport(context.Background())
			if err != nil {
				return "", err
			}
			var setting string
			require.NoError(t, store.ImportDB(im).NewRaw("SHOW statement_timeout").Scan(context.Background(), &setting))
			assert.Equal(t, "300ms", setting, "the statement timeout is back once the lock is taken")
			if err := im.Write(context.Background(), []domain.JobRecord{{Job: domain.Job{ID: "wait-2", Title: "Welder", Company: "Wait"}}}); err != nil {
				_ = im.Rollback()
				return "", err
			}
			return "wait-2", im.Commit(context.Background())
		},
		logLine: "waiting for another import to finish",
	}, {
		name: "text indexer",
		second: func(t *testing.T, st *store.Store) (string, error) {
			n, err := st.IndexTexts(context.Background(), 1, nil)
			if err == nil && n != 1 {
				err = fmt.Errorf("indexed %d jobs, not the first import's 1", n)
			}
			return "", err
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			db := openShortTimeout(t, timeout)
			var log syncBuffer
			st := store.New(db).WithLog(slog.New(slog.NewTextHandler(&log, nil)))
			ctx := context.Background()

			first, err := st.BeginImport(ctx)
			require.NoError(t, err)
			require.NoError(t, first.Write(ctx, []domain.JobRecord{{Job: domain.Job{ID: "wait-1", Title: "Fitter", Company: "Wait"}}}))

			type result struct {
				id  string
				err error
			}
			done := make(chan result, 1)
			go func() {
				id, err := tc.second(t, st)
				done <- result{id, err}
			}()
			select {
			case r := <-done:
				t.Fatalf("the second ended while the first import ran: %v", r.err)
			case <-time.After(4 * timeout):
			}
			if tc.logLine != "" {
				assert.Contains(t, log.String(), tc.logLine)
			}
			_, err = st.IndexTextsNoWait(ctx)
			assert.ErrorIs(t, err, store.ErrImporting, "an indexer that does not wait gives way to the import")

			require.NoError(t, first.Commit(ctx))
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the second did not go on after the first import")
			}
			require.NoError(t, r.err)
			want := 1
			if r.id != "" {
				want = 2
			}
			var n int
			require.NoError(t, db.NewRaw("SELECT count(*) FROM jobs").Scan(ctx, &n))
			assert.Equal(t, want, n)
		})
	}
}

// TestReimportKeepsSearchText: a job re-imported with the description it
// had is found by its description's words at once; when its other words
// changed, by the new ones too, until the text indexer rebuilds its
// document; a changed description waits for the indexer.
func TestReimportKeepsSearchText(t *testing.T) {
	for _, tc := range []struct {
		name      string
		line      string
		found     []string // words that find the job right after the re-import
		notFound  []string
		texts     int  // rows of job_texts after the re-import
		stale     bool // the kept document waits for a rebuild
		afterwood []string
		gone      []string // words that no longer find it once rebuilt
	}{{
		name:  "unchanged",
		line:  `{"id":"rk-1","title":"Operator","company":"Rk","description":"Run the Kafka clusters."}`,
		found: []string{"kafka", "operator"}, texts: 1,
	}, {
		name:  "title changed",
		line:  `{"id":"rk-1","title":"Steward","company":"Rk","description":"Run the Kafka clusters."}`,
		found: []string{"kafka", "steward", "kafka steward"}, texts: 1, stale: true,
		afterwood: []string{"kafka", "steward"}, gone: []string{"operator"},
	}, {
		name:  "description changed",
		line:  `{"id":"rk-1","title":"Operator","company":"Rk","description":"Run the Pulsar clusters."}`,
		found: []string{"operator"}, notFound: []string{"kafka", "pulsar"}, texts: 0,
		afterwood: []string{"pulsar"}, gone: []string{"kafka"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			q := func(words string) []string {
				ids, _, _ := e.ids(domain.JobFilter{Q: &words}, nil, nil, nil, nil)
				return ids
			}
			_, err := e.importText(`{"id":"rk-1","title":"Operator","company":"Rk","description":"Run the Kafka clusters."}
{"id":"rk-2","title":"Baker","company":"Rk","description":"Bake bread."}`, importer.Options{})
			require.NoError(t, err)
			n, err := e.st.IndexTexts(e.ctx, 1, nil)
			require.NoError(t, err)
			require.Equal(t, 2, n)
			var before string
			require.NoError(t, e.db.NewRaw("SELECT tsv::text FROM job_texts WHERE job_id = 'rk-1'").Scan(e.ctx, &before))

			_, err = e.importText(tc.line, importer.Options{})
			require.NoError(t, err)
			for _, w := range tc.found {
				assert.Equal(t, []string{"rk-1"}, q(w), "found by %q right after the re-import", w)
			}
			for _, w := range tc.notFound {
				assert.Empty(t, q(w), "not found by %q", w)
			}
			assert.Equal(t, tc.texts, e.count("SELECT count(*) FROM job_texts WHERE job_id = 'rk-1'"))
			assert.Equal(t, tc.stale, e.count("SELECT count(*) FROM job_texts WHERE job_id = 'rk-1' AND stale") == 1)
			if tc.name == "unchanged" {
				var after string
				require.NoError(t, e.db.NewRaw("SELECT tsv::text FROM job_texts WHERE job_id = 'rk-1'").Scan(e.ctx, &after))
				assert.Equal(t, before, after, "the very document the indexer made")
			}

			n, err = e.st.IndexTexts(e.ctx, 1, nil)
			require.NoError(t, err)
			assert.Equal(t, 1-tc.texts+map[bool]int{true: 1}[tc.stale], n, "only what waits is indexed again")
			assert.Zero(t, e.count("SELECT count(*) FROM job_texts WHERE stale"))
			for _, w := range tc.afterwood {
				assert.Equal(t, []string{"rk-1"}, q(w), "found by %q once indexed", w)
			}
			for _, w := range tc.gone {
				assert.Empty(t, q(w), "not found by %q once indexed", w)
			}
			var rebuilt, fresh string
			require.NoError(t, e.db.NewRaw(`SELECT t.tsv::text, (j.search_tsv || to_tsvector('english', coalesce(j.description, '')))::text
				FROM job_texts t JOIN jobs j ON j.id = t.job_id WHERE t.job_id = 'rk-1'`).Scan(e.ctx, &rebuilt, &fresh))
			assert.Equal(t, fresh, rebuilt, "the document is the job's own")
		})
	}
}

// TestTextIndexersConcurrently: indexers of two processes (two pools) and
// several workers each, over one backlog, all succeed, and between them
// index every job once.
func TestTextIndexersConcurrently(t *testing.T) {
	for _, tc := range []struct {
		name    string
		workers [2]int
	}{
		{"one worker each", [2]int{1, 1}},
		{"mixed workers", [2]int{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgtest.NewURL(t)
			open := func() *bun.DB {
				db, err := store.Open(context.Background(), dsn, store.Options{MaxOpenConns: 4})
				require.NoError(t, err)
				t.Cleanup(func() { _ = db.Close() })
				return db
			}
			db := open()
			_, err := migrations.Up(context.Background(), db)
			require.NoError(t, err)
			norm, err := normalize.New()
			require.NoError(t, err)
			e := &env{db: db, st: store.New(db), norm: norm, ctx: context.Background(), t: t}
			const jobs = 2500 // five batches
			var buf bytes.Buffer
			require.NoError(t, seed.Write(&buf, seed.Options{N: jobs, Seed: 7}))
			_, err = importer.NDJSON(e.ctx, &buf, e.norm, e.st, importer.Options{})
			require.NoError(t, err)
			// Half the jobs' documents are stale, as after a re-import.
			_, err = e.db.ExecContext(e.ctx, `INSERT INTO job_texts (job_id, tsv, stale)
				SELECT id, search_tsv, true FROM jobs WHERE abs(hashtext(id) % 2) = 0`)
			require.NoError(t, err)

			stores := [2]*store.Store{e.st, store.New(open())}
			var counts [2]int
			var errs [2]error
			var wg sync.WaitGroup
			for i := range stores {
				wg.Go(func() { counts[i], errs[i] = stores[i].IndexTexts(e.ctx, tc.workers[i], nil) })
			}
			wg.Wait()
			require.NoError(t, errors.Join(errs[:]...))
			assert.Equal(t, jobs, counts[0]+counts[1], "every job indexed once: %v", counts)
			assert.Equal(t, jobs, e.count("SELECT count(*) FROM job_texts WHERE NOT stale"))
			assert.Zero(t, e.count(`SELECT count(*) FROM job_texts t JOIN jobs j ON j.id = t.job_id
				WHERE t.tsv <> j.search_tsv || to_tsvector('english', left(coalesce(j.description, ''), 100000))`), "every document is the job's own")
		})
	}
}

// TestDeletedJobLosesText: a job deleted outside an import loses its
// keyword-search document, so that a job written later with its id is
// not found by the old description.
func TestDeletedJobLosesText(t *testing.T) {
	for _, tc := range []struct {
		name, stmt string
		left       int // documents left of the two
	}{
		{"delete", "DELETE FROM jobs WHERE id = 'dl-1'", 1},
		{"truncate", "TRUNCATE jobs", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.importText(`{"id":"dl-1","title":"Operator","company":"Dl","description":"Run the Kafka clusters."}
{"id":"dl-2","title":"Baker","company":"Dl","description":"Bake bread."}`, importer.Options{})
			require.NoError(t, err)
			_, err = e.st.IndexTexts(e.ctx, 1, nil)
			require.NoError(t, err)
			_, err = e.db.ExecContext(e.ctx, tc.stmt)
			require.NoError(t, err)
			assert.Equal(t, tc.left, e.count("SELECT count(*) FROM job_texts"))
			assert.Zero(t, e.count("SELECT count(*) FROM job_texts WHERE job_id = 'dl-1'"))
		})
	}
}

// TestListInOneSnapshot: a list answered in SQL reads its total and its
// page in one snapshot: an import committed between the two statements
// is in neither.
func TestListInOneSnapshot(t *testing.T) {
	for _, tc := range []struct {
		name string
		list func(e *env) (ids []string, total int)
	}{{
		name: "jobs with q",
		list: func(e *env) ([]string, int) {
			q := "engineer"
			ids, total, _ := e.ids(domain.JobFilter{Q: &q}, ptr(50), nil, nil, nil)
			return ids, total
		},
	}, {
		name: "companies",
		list: func(e *env) ([]string, int) {
			companies, total, err := e.st.Companies(e.ctx, domain.CompanyQuery{MinJobs: 0, Limit: 50})
			require.NoError(e.t, err)
			names := []string{}
			for _, c := range companies {
				names = append(names, c.Name)
			}
			return names, total
		},
	}, {
		name: "similar jobs",
		list: func(e *env) ([]string, int) {
			cards, total, err := e.st.SimilarJobs(e.ctx, "os-1", 50, false)
			require.NoError(e.t, err)
			ids := []string{}
			for _, c := range cards {
				ids = append(ids, c.ID)
			}
			return ids, total
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.importText(`{"id":"os-1","title":"Software Engineer","company":"Os One"}
{"id":"os-2","title":"Software Engineer","company":"Os Two"}`, importer.Options{})
			require.NoError(t, err)
			imported := 0
			store.SetCountedHook(t, func() {
				imported++
				_, err := e.importText(fmt.Sprintf(`{"id":"os-%d","title":"Software Engineer","company":"Os %d"}`, 10+imported, 10+imported), importer.Options{})
				require.NoError(t, err)
			})
			items, total := tc.list(e)
			require.Equal(t, 1, imported, "the hook ran between the count and the page")
			assert.Len(t, items, total, "the page and its total are of one snapshot")
		})
	}
}

// TestBackgroundLoopsRecover: a panic in a pass of a background loop is
// logged with its stack, and the loop runs again after the backoff.
func TestBackgroundLoopsRecover(t *testing.T) {
	store.SetPanicBackoff(t, 50*time.Millisecond)
	for _, tc := range []struct {
		loop string
		// start starts the loop and returns whether it has done its work.
		start func(ctx context.Context, e *env, log *slog.Logger) (done func() bool)
	}{{
		loop: "text indexer",
		start: func(ctx context.Context, e *env, log *slog.Logger) func() bool {
			go e.st.RunTextIndexer(ctx, 20*time.Millisecond, log)
			return func() bool { return e.count("SELECT count(*) FROM job_texts") == 1 }
		},
	}, {
		loop: "index",
		start: func(ctx context.Context, e *env, log *slog.Logger) func() bool {
			x, err := e.st.StartIndex(ctx, store.IndexOptions{Poll: 20 * time.Millisecond, Log: log})
			require.NoError(e.t, err)
			return x.Ready
		},
	}} {
		t.Run(tc.loop, func(t *testing.T) {
			e := newEnv(t)
			_, err := e.importText(`{"id":"pr-1","title":"Operator","company":"Pr","description":"Run the Kafka clusters."}`, importer.Options{})
			require.NoError(t, err)
			var mu sync.Mutex
			passes := 0
			store.SetPassHook(t, func(loop string) {
				if loop != tc.loop {
					return
				}
				mu.Lock()
				passes++
				n := passes
				mu.Unlock()
				if n <= 2 {
					panic("injected")
				}
			})
			var log syncBuffer
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := tc.start(ctx, e, slog.New(slog.NewJSONHandler(&log, nil)))
			require.Eventually(t, done, 10*time.Second, 20*time.Millisecond, "the loop went on after its panics")
			mu.Lock()
			assert.Greater(t, passes, 2)
			mu.Unlock()
			out := log.String()
			assert.Equal(t, 2, strings.Count(out, `"msg":"background loop panicked; it goes on after a pause"`), out)
			assert.Contains(t, out, `"loop":"`+tc.loop+`"`)
			assert.Contains(t, out, `"panic":"injected"`)
			assert.Contains(t, out, `guard`, "the stack is logged")
		})
	}
}
