package store_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/store"
)

// posting is a normalized record of a job of company at source.
func (e *env) posting(id, company, source string, validThrough *time.Time) domain.JobRecord {
	e.t.Helper()
	rec, err := e.norm.Job(domain.Job{ID: id, Title: "Backend Engineer", Company: company, Source: &source})
	require.NoError(e.t, err)
	rec.ValidThrough = validThrough
	return rec
}

// write runs one import: the records, then the closes, optionally as a
// snapshot of scope.
func (e *env) write(recs []domain.JobRecord, closes []domain.JobClose, scope *domain.Scope, allowMassClose bool) (domain.ImportCounts, error) {
	e.t.Helper()
	im, err := e.st.BeginImport(e.ctx)
	require.NoError(e.t, err)
	if scope != nil {
		require.NoError(e.t, im.SetSnapshot(e.ctx, *scope, allowMassClose))
	}
	require.NoError(e.t, im.Write(e.ctx, recs))
	require.NoError(e.t, im.Close(e.ctx, closes))
	if err := im.Commit(e.ctx); err != nil {
		return im.Counts(), err
	}
	return im.Counts(), nil
}

// feedAll reads the whole feed from the beginning in pages of n.
func (e *env) feedAll(n int) []domain.Change {
	e.t.Helper()
	var all []domain.Change
	for after := (domain.FeedCursor{}); ; {
		page, next, more, err := e.st.Changes(e.ctx, after, n)
		require.NoError(e.t, err)
		all = append(all, page...)
		after = next
		if !more {
			return all
		}
	}
}

// openByFeed replays the feed: the set of postings it leaves open.
func openByFeed(changes []domain.Change) map[string]bool {
	open := map[string]bool{}
	for _, c := range changes {
		if c.Change == domain.ChangeClosed {
			delete(open, c.ID)
		} else {
			open[c.ID] = true
		}
	}
	return open
}

func (e *env) openIDs() map[string]bool {
	var ids []string
	require.NoError(e.t, e.db.NewRaw("SELECT id FROM jobs").Scan(e.ctx, &ids))
	out := map[string]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out
}

func TestLifecycle(t *testing.T) {
	e := newEnv(t)
	board := func(ids ...string) []domain.JobRecord {
		var out []domain.JobRecord
		for _, id := range ids {
			out = append(out, e.posting(id, "Acme", "acme-board", nil))
		}
		return out
	}

	counts, err := e.write(board("acme-1", "acme-2", "acme-3", "acme-4"), nil, nil, false)
	require.NoError(t, err)
	assert.Equal(t, domain.ImportCounts{Opened: 4}, counts)

	// The same records again change nothing; one changed record updates.
	recs := board("acme-1", "acme-2", "acme-3", "acme-4")
	recs[3].Title = "Frontend Engineer"
	counts, err = e.write(recs, nil, nil, false)
	require.NoError(t, err)
	assert.Equal(t, domain.ImportCounts{Updated: 1, Unchanged: 3}, counts)

	// Tombstones: one open, one unknown.
	closedAt := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	counts, err = e.write(nil, []domain.JobClose{{ID: "acme-1", ClosedAt: &closedAt}, {ID: "acme-99"}}, nil, false)
	require.NoError(t, err)
	assert.Equal(t, domain.ImportCounts{Closed: 1, CloseIgnored: 1}, counts)
	_, err = e.st.JobByID(e.ctx, "acme-1")
	var de *domain.Error
	require.True(t, errors.As(err, &de))
	assert.Equal(t, domain.CodeGone, de.Code)
	require.NotNil(t, de.ClosedAt)
	assert.True(t, closedAt.Equal(*de.ClosedAt))
	assert.Equal(t, 3, e.count("SELECT job_count FROM companies WHERE name = 'Acme'"))

	// A snapshot lacking more than half of its scope is refused, and
	// writes nothing; allowed, it closes the missing ones.
	scope := &domain.Scope{Source: "acme-board"}
	_, err = e.write(board("acme-5"), nil, scope, false)
	var mass *store.MassCloseError
	require.True(t, errors.As(err, &mass), "%v", err)
	assert.Equal(t, 3, mass.Open) // acme-2..4, before the snapshot wrote acme-5
	assert.Equal(t, 3, mass.Closing)
	assert.Equal(t, 0, e.count("SELECT count(*) FROM jobs WHERE id = 'acme-5'"))
	counts, err = e.write(board("acme-2", "acme-3", "acme-5"), nil, scope, false)
	require.NoError(t, err)
	assert.Equal(t, domain.ImportCounts{Opened: 1, Unchanged: 2, Closed: 1}, counts) // acme-4 closed
	assert.Equal(t, map[string]bool{"acme-2": true, "acme-3": true, "acme-5": true}, e.openIDs())

	// Reopening: a closed posting imported again.
	counts, err = e.write(board("acme-1"), nil, nil, false)
	require.NoError(t, err)
	assert.Equal(t, domain.ImportCounts{Opened: 1}, counts)
	_, err = e.st.JobByID(e.ctx, "acme-1")
	require.NoError(t, err)

	// Expiry: a record already expired closes its posting at its instant;
	// one expiring soon closes when ExpireDue passes it.
	past := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	soon := time.Now().Add(2 * time.Second) // far enough that the import and the first ExpireDue end before it
	expired := e.posting("acme-2", "Acme", "acme-board", &past)
	counts, err = e.write([]domain.JobRecord{expired, e.posting("acme-6", "Acme", "acme-board", &soon)}, nil, nil, false)
	require.NoError(t, err)
	assert.Equal(t, domain.ImportCounts{Opened: 1, Closed: 1}, counts)
	n, err := e.st.ExpireDue(e.ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
	time.Sleep(time.Until(soon) + 50*time.Millisecond)
	_, err = e.st.JobByID(e.ctx, "acme-6") // gone at its instant, before any write
	require.True(t, errors.As(err, &de))
	assert.Equal(t, domain.CodeGone, de.Code)
	n, err = e.st.ExpireDue(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, map[string]bool{"acme-1": true, "acme-3": true, "acme-5": true}, e.openIDs())
	assert.Equal(t, 3, e.count("SELECT job_count FROM companies WHERE name = 'Acme'"))

	// The feed, replayed in pages of any size, gives the open set.
	for _, size := range []int{1, 3, 1000} {
		assert.Equal(t, e.openIDs(), openByFeed(e.feedAll(size)), "pages of %d", size)
	}
	var last domain.Change
	for _, c := range e.feedAll(100) {
		if c.ID == "acme-2" {
			last = c
		}
	}
	assert.Equal(t, domain.ChangeClosed, last.Change)
	assert.True(t, past.Equal(last.At), "an expiry is fed at its instant")

	// Purge: the postings closed before the instant go for good, and a
	// cursor of the epoch before, from before their changes, is gone.
	_, early, _, err := e.st.Changes(e.ctx, domain.FeedCursor{}, 1)
	require.NoError(t, err)
	n, err = e.st.Purge(e.ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 3, n) // acme-2, acme-4, acme-6
	_, err = e.st.JobByID(e.ctx, "acme-4")
	require.True(t, errors.As(err, &de))
	assert.Equal(t, domain.CodeNotFound, de.Code)
	_, _, _, err = e.st.Changes(e.ctx, early, 10)
	require.True(t, errors.As(err, &de))
	assert.Equal(t, domain.CodeGone, de.Code)
	assert.Equal(t, e.openIDs(), openByFeed(e.feedAll(2)))
}

func TestSnapshotScopeByCompany(t *testing.T) {
	e := newEnv(t)
	var recs []domain.JobRecord
	for i := range 4 {
		recs = append(recs, e.posting(fmt.Sprintf("x-%d", i), "Xco", "ats", nil), e.posting(fmt.Sprintf("y-%d", i), "Yco", "ats", nil))
	}
	_, err := e.write(recs, nil, nil, false)
	require.NoError(t, err)
	counts, err := e.write(recs[:6:6], nil, &domain.Scope{Source: "ats", Company: "yco"}, false)
	require.NoError(t, err)
	assert.Equal(t, 1, counts.Closed) // y-3 only: Xco is outside the scope
	assert.Equal(t, 7, len(e.openIDs()))

	// An id the snapshot keeps (a line it skipped as invalid) stays open.
	im, err := e.st.BeginImport(e.ctx)
	require.NoError(t, err)
	require.NoError(t, im.SetSnapshot(e.ctx, domain.Scope{Source: "ats", Company: "Xco"}, false))
	require.NoError(t, im.Write(e.ctx, []domain.JobRecord{recs[0], recs[2]})) // x-0, x-1
	im.Keep([]string{"x-2"})
	require.NoError(t, im.Commit(e.ctx))
	assert.Equal(t, 1, im.Counts().Closed) // x-3
	assert.False(t, e.openIDs()["x-3"])
	assert.True(t, e.openIDs()["x-2"])

	im, err = e.st.BeginImport(e.ctx)
	require.NoError(t, err)
	defer im.Rollback() //nolint:errcheck // refused below
	var de *domain.Error
	require.True(t, errors.As(im.SetSnapshot(e.ctx, domain.Scope{}, false), &de))
	assert.Equal(t, domain.CodeInvalidParameter, de.Code)

	// A plain import does not keep the ids it writes, so it cannot turn
	// into a snapshot once it has written some.
	require.NoError(t, im.Write(e.ctx, recs[:1]))
	assert.ErrorContains(t, im.SetSnapshot(e.ctx, domain.Scope{Source: "ats"}, false), "written before it")
}

// TestExpiryDuringAnImport: the sweep closes an expired posting while an
// import is under way, and the import's changes come after it in the
// feed, numbered when it commits. The import reopens a posting the sweep
// closed, and the company counts are exact at each commit, whether the
// import only read the company or wrote it (a new logo).
func TestExpiryDuringAnImport(t *testing.T) {
	e := newEnv(t)
	soon := time.Now().Add(1500 * time.Millisecond)
	later := time.Now().Add(time.Hour)
	_, err := e.write([]domain.JobRecord{
		e.posting("acme-1", "Acme", "acme-board", &soon),
		e.posting("acme-2", "Acme", "acme-board", &soon),
		e.posting("acme-3", "Acme", "acme-board", nil),
		e.posting("beta-1", "Beta", "beta-board", &soon),
		e.posting("beta-2", "Beta", "beta-board", nil),
	}, nil, nil, false)
	require.NoError(t, err)
	before := e.feedAll(100)

	im, err := e.st.BeginImport(e.ctx)
	require.NoError(t, err)
	defer im.Rollback()
	logo := "https://logos.example.com/beta.png"
	beta := e.posting("beta-3", "Beta", "beta-board", nil)
	beta.CompanyLogo = &logo // the import writes Beta, and holds its row
	require.NoError(t, im.Write(e.ctx, []domain.JobRecord{e.posting("acme-4", "Acme", "acme-board", nil), beta}))

	time.Sleep(time.Until(soon) + 50*time.Millisecond)
	n, err := e.st.ExpireDue(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "the sweep does not wait for the import")
	assert.Equal(t, map[string]bool{"acme-3": true, "beta-2": true}, e.openIDs())
	assert.Equal(t, 1, e.count("SELECT job_count FROM companies WHERE name = 'Acme'"), "a company the import only read is recounted")
	fed := e.feedAll(100)[len(before):]
	require.Len(t, fed, 3, "the sweep's closes are fed at once; the import's changes wait for its commit")
	for _, c := range fed {
		assert.Equal(t, domain.ChangeClosed, c.Change)
	}

	// The import reopens acme-1, which the sweep closed after it began.
	require.NoError(t, im.Write(e.ctx, []domain.JobRecord{e.posting("acme-1", "Acme", "acme-board", &later)}))
	require.NoError(t, im.Commit(e.ctx))
	assert.Equal(t, domain.ImportCounts{Opened: 3}, im.Counts())
	assert.Equal(t, map[string]bool{"acme-1": true, "acme-3": true, "acme-4": true, "beta-2": true, "beta-3": true}, e.openIDs())
	assert.Equal(t, 3, e.count("SELECT job_count FROM companies WHERE name = 'Acme'"))
	assert.Equal(t, 2, e.count("SELECT job_count FROM companies WHERE name = 'Beta'"))
	all := e.feedAll(100)
	var kinds []string
	for _, c := range all[len(before):] {
		kinds = append(kinds, c.ID+" "+string(c.Change))
	}
	assert.Equal(t, []string{"acme-1 closed", "acme-2 closed", "beta-1 closed", "acme-4 opened", "beta-3 opened", "acme-1 opened"}, kinds)
	assert.Equal(t, e.openIDs(), openByFeed(all))
	assert.Zero(t, e.count("SELECT count(*) FROM jobs_closed WHERE id IN (SELECT id FROM jobs)"), "no posting both open and closed")
}
