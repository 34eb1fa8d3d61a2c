package store_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
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
