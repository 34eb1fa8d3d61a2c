package store_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/store"
)

// TestFeedIsCompleteUnderConcurrentWrites reads the change feed in small
// pages while writers open, update, close and expire postings at random,
// and checks that the reader saw every change exactly once, in order, and
// that replaying what it read gives exactly the open postings.
func TestFeedIsCompleteUnderConcurrentWrites(t *testing.T) {
	e := newEnv(t)
	const writers, rounds, ids = 3, 12, 40
	var writing, expiring sync.WaitGroup
	errs := make(chan error, writers+1)
	for w := range writers {
		writing.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range rounds {
				if err := e.randomImport(rng, ids); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	stop := make(chan struct{})
	expiring.Go(func() { // the expiry, as serve runs it
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				if _, err := e.st.ExpireDue(e.ctx); err != nil {
					errs <- err
					return
				}
			}
		}
	})
	written := make(chan struct{})
	go func() { writing.Wait(); close(written) }()

	var seen []domain.Change
	var cursor domain.FeedCursor
	read := func() bool {
		page, next, more, err := e.st.Changes(e.ctx, cursor, 3)
		require.NoError(t, err)
		seen = append(seen, page...)
		cursor = next
		return more
	}
	// Read while the writers write; then let every valid_through pass,
	// stop the expiry once it has closed them all, and read the rest.
	for reading := true; reading; {
		select {
		case err := <-errs:
			require.NoError(t, err)
		case <-written:
			reading = false
		default:
			read()
		}
	}
	time.Sleep(400 * time.Millisecond)
	for {
		n, err := e.st.ExpireDue(e.ctx)
		require.NoError(t, err)
		if n == 0 {
			break
		}
	}
	close(stop)
	expiring.Wait()
	select {
	case err := <-errs:
		require.NoError(t, err)
	default:
	}
	for read() {
	}

	var all []int64
	require.NoError(t, e.db.NewRaw("SELECT seq FROM job_changes ORDER BY seq").Scan(e.ctx, &all))
	got := make([]int64, len(seen))
	for i, c := range seen {
		got[i] = c.Seq
	}
	assert.NotEmpty(t, got)
	assert.Equal(t, all, got, "every change once, in order")
	assert.Equal(t, e.openIDs(), openByFeed(seen))
	e.checkStatesOfChanges(seen)
}

// checkStatesOfChanges checks what the feed keeps of each change of all
// (the whole feed): a change that found its job open (updated, closed)
// keeps it, an opening does not; the card a change left is the job as the
// next change found it, or as it is now after its job's last change.
func (e *env) checkStatesOfChanges(all []domain.Change) {
	e.t.Helper()
	seqs := make([]int64, len(all))
	for i, c := range all {
		seqs[i] = c.Seq
	}
	found, err := e.st.ChangeDocs(e.ctx, seqs)
	require.NoError(e.t, err)
	cards, err := e.st.CardsAfter(e.ctx, all)
	require.NoError(e.t, err)
	var now []struct {
		ID        string `bun:"id"`
		Title     string `bun:"title"`
		CompanyID int64  `bun:"company_id"`
	}
	require.NoError(e.t, e.db.NewRaw("SELECT id, title, company_id FROM jobs").Scan(e.ctx, &now))
	open := map[string]domain.JobCard{}
	for _, j := range now {
		open[j.ID] = domain.JobCard{ID: j.ID, Title: j.Title, CompanyID: j.CompanyID}
	}
	var befores []struct {
		Seq   int64  `bun:"seq"`
		Title string `bun:"title"`
	}
	require.NoError(e.t, e.db.NewRaw("SELECT seq, (before).title FROM job_changes WHERE (before).id IS NOT NULL").Scan(e.ctx, &befores))
	titleFound := map[int64]string{}
	for _, b := range befores {
		titleFound[b.Seq] = b.Title
	}
	for i, c := range all {
		f, card := found[c.Seq], cards[c.Seq]
		if c.Change == domain.ChangeOpened {
			assert.Nil(e.t, f.Doc, "an opening found nothing open: %+v", c)
		} else if assert.NotNil(e.t, f.Doc, "%+v found its job open", c) {
			assert.Equal(e.t, c.ID, f.Doc.ID)
			assert.NotEmpty(e.t, f.Company)
		}
		if c.Change == domain.ChangeClosed {
			assert.Nil(e.t, card, "a close leaves no card: %+v", c)
			continue
		}
		require.NotNil(e.t, card, "%+v leaves its job open", c)
		got := domain.JobCard{ID: card.ID, Title: card.Title, CompanyID: card.CompanyID}
		next := slices.IndexFunc(all[i+1:], func(n domain.Change) bool { return n.ID == c.ID })
		if next < 0 {
			assert.Equal(e.t, open[c.ID], got, "%+v is the job's last", c)
			continue
		}
		n := all[i+1+next]
		if d := found[n.Seq].Doc; assert.NotNil(e.t, d) {
			want := domain.JobCard{ID: c.ID, Title: titleFound[n.Seq], CompanyID: d.CompanyID}
			assert.Equal(e.t, want, got, "the card %+v left is what the next change found", c)
		}
	}
}

// TestJobStateHasTheColumnsOfJobs: what a change keeps of a job
// (job_state) has the columns of jobs it names, of the same types, in
// jobStateColumns' order.
func TestJobStateHasTheColumnsOfJobs(t *testing.T) {
	e := newEnv(t)
	var rows []struct {
		Name   string `bun:"name"`
		Type   string `bun:"type"`
		InJobs string `bun:"in_jobs"`
	}
	require.NoError(t, e.db.NewRaw(`SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
    coalesce((SELECT format_type(j.atttypid, j.atttypmod) FROM pg_attribute AS j
              WHERE j.attrelid = 'jobs'::regclass AND j.attname = a.attname AND NOT j.attisdropped), '') AS in_jobs
FROM pg_attribute AS a
WHERE a.attrelid = (SELECT typrelid FROM pg_type WHERE typname = 'job_state') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum`).Scan(e.ctx, &rows))
	var names []string
	for _, r := range rows {
		names = append(names, r.Name)
		assert.Equal(t, r.InJobs, r.Type, "job_state.%s has the type of jobs.%s", r.Name, r.Name)
	}
	assert.Equal(t, store.JobStateColumns, names)
}

// randomImport runs one import of random records, expiring records and
// tombstones of the postings feed-0 … feed-(ids-1).
func (e *env) randomImport(rng *rand.Rand, ids int) error {
	im, err := e.st.BeginImport(e.ctx)
	if err != nil {
		return err
	}
	var recs []domain.JobRecord
	var closes []domain.JobClose
	for range 1 + rng.IntN(8) {
		id := fmt.Sprintf("feed-%d", rng.IntN(ids))
		switch r := rng.IntN(10); {
		case r < 2:
			closes = append(closes, domain.JobClose{ID: id})
		case r < 3:
			soon := time.Now().Add(time.Duration(rng.IntN(300)) * time.Millisecond)
			recs = append(recs, e.posting(id, "Feedco", "feed", &soon))
		default:
			rec := e.posting(id, fmt.Sprintf("Feedco %d", rng.IntN(3)), "feed", nil)
			rec.Title = fmt.Sprintf("Engineer %d", rng.IntN(3))
			recs = append(recs, rec)
		}
	}
	err = im.Write(e.ctx, recs)
	if err == nil {
		err = im.Close(e.ctx, closes)
	}
	if err != nil {
		_ = im.Rollback()
		return err
	}
	return im.Commit(e.ctx)
}
