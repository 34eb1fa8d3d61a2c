package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
	"github.com/jobsd-dev/jobsd/store"
)

// memFeed is a change feed in memory; found holds what changes found
// open, by change number.
type memFeed struct {
	changes []domain.Change
	found   map[int64]store.Found
	// onDocs, when set, runs as the hub reads what changes found: while
	// it judges a move.
	onDocs func()
}

func (f *memFeed) PrimaryChanges(_ context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	var out []domain.Change
	for _, c := range f.changes {
		if c.Seq > after.Seq && len(out) < limit {
			out = append(out, c)
		}
	}
	next := after
	if len(out) > 0 {
		next.Seq = out[len(out)-1].Seq
	}
	return out, next, false, nil
}

func (f *memFeed) FeedEnd(context.Context) (domain.FeedCursor, error) {
	if len(f.changes) == 0 {
		return domain.FeedCursor{Seq: 1}, nil
	}
	return domain.FeedCursor{Seq: f.changes[len(f.changes)-1].Seq}, nil
}

func (f *memFeed) ChangeDocs(_ context.Context, seqs []int64) (map[int64]store.Found, error) {
	if f.onDocs != nil {
		f.onDocs()
	}
	out := map[int64]store.Found{}
	for _, seq := range seqs {
		if d, ok := f.found[seq]; ok {
			out[seq] = d
		}
	}
	return out, nil
}

func (f *memFeed) CardsAfter(_ context.Context, changes []domain.Change) (map[int64]*domain.JobCard, error) {
	out := map[int64]*domain.JobCard{}
	for _, c := range changes {
		out[c.Seq] = &domain.JobCard{ID: c.ID}
	}
	return out, nil
}

// The memory feed holds no text: the tests of full-text subscriptions run
// against the store (hub_db_test.go).
func (f *memFeed) TextStart(context.Context, domain.JobQuery, int64, int) (store.TextStart, error) {
	return store.TextStart{}, errors.New("memFeed: no text")
}

func (f *memFeed) TextMatches(context.Context, []store.TextPair) ([]store.TextMatch, error) {
	return nil, errors.New("memFeed: no text")
}

// doc is a job with one skill key.
func doc(id, skill string) *index.Doc {
	return &index.Doc{ID: id, Posted: 1, Dated: true, SalaryMin: math.NaN(), SalaryMax: math.NaN(),
		Keys: []string{"skills:" + skill}, Facets: map[string][]string{"skills": {skill}}}
}

// build is an index of version over docs.
func build(version int64, docs ...*index.Doc) *index.Index {
	slices.SortFunc(docs, func(a, b *index.Doc) int { return strings.Compare(a.ID, b.ID) })
	b := index.NewBuilder(version)
	for i, d := range docs {
		b.Add(d)
		b.SetIDRank(uint32(i), uint32(i))
	}
	return b.Build(b.Names())
}

// kinds returns the kinds of a subscription's events until none comes.
func kinds(t *testing.T, sub domain.Subscription) []string {
	t.Helper()
	var out []string
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		ev, err := sub.Next(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			return out
		}
		require.NoError(t, err)
		out = append(out, string(ev.Kind)+" "+ev.ID)
	}
}

// TestChangesOfOneMoveAreJudgedEach: when one move of the index carries
// several changes of a job, each change is judged by the job just before
// and just after it (what the next change found), not by the job after
// the move: opened out of the filter then updated into it is ADDED;
// updated into it then closed is ADDED then REMOVED; closed then reopened
// is REMOVED then ADDED. Where the feed did not keep what a change found,
// the job after the move stands in for it.
func TestChangesOfOneMoveAreJudgedEach(t *testing.T) {
	feed := &memFeed{}
	h := NewHub(feed, Options{})
	q := domain.JobQuery{Filters: []domain.KeyFilter{{Field: "skills", Keys: []string{"skills:go"}}}}

	first := build(1, doc("b", "go"), doc("c", "rust"), doc("d", "rust"))
	require.NoError(t, h.process(context.Background(), first))
	sub, err := h.Subscribe(context.Background(), q, nil, "test")
	require.NoError(t, err)
	defer sub.Close()

	feed.changes = []domain.Change{
		{Seq: 2, ID: "a", Change: domain.ChangeOpened},
		{Seq: 3, ID: "a", Change: domain.ChangeUpdated},
		{Seq: 4, ID: "b", Change: domain.ChangeClosed},
		{Seq: 5, ID: "b", Change: domain.ChangeOpened},
		{Seq: 6, ID: "c", Change: domain.ChangeUpdated},
		{Seq: 7, ID: "c", Change: domain.ChangeClosed},
		{Seq: 8, ID: "d", Change: domain.ChangeUpdated},
		{Seq: 9, ID: "d", Change: domain.ChangeClosed},
	}
	feed.found = map[int64]store.Found{
		3: {Doc: doc("a", "rust")}, // a opened with rust
		4: {Doc: doc("b", "go")},
		7: {Doc: doc("c", "go")}, // c's update gave it go
		// d's update wrote before the feed kept what changes found: judged
		// by the job after the move (closed), it makes no event.
	}
	second := build(9, doc("a", "go"), doc("b", "go"))
	require.NoError(t, h.process(context.Background(), second))
	all := []string{"added a", "removed b", "added b", "added c", "removed c"}
	assert.Equal(t, all, kinds(t, sub))

	// Resumed from the first change's cursor: the same events after it.
	again, err := h.Subscribe(context.Background(), q, &domain.FeedCursor{Seq: 2}, "test")
	require.NoError(t, err)
	defer again.Close()
	assert.Equal(t, all, kinds(t, again))

	// A cursor older than the history is gone.
	_, err = h.Subscribe(context.Background(), q, &domain.FeedCursor{Seq: 0}, "test")
	assert.Equal(t, domain.CodeGone, domain.ErrorCode(err))
}

// TestPercolatorFilesByTheRarestKeys: a subscription is filed under the
// keys of its most selective filter (any one key of an all-of filter), and
// without a key filter it is judged on every change.
func TestPercolatorFilesByTheRarestKeys(t *testing.T) {
	ix := build(1, doc("a", "go"), doc("b", "go"), doc("c", "go"), doc("d", "rust"))
	for _, tc := range []struct {
		name    string
		filters []domain.KeyFilter
		want    []string
	}{
		{"none", nil, nil},
		{"one list", []domain.KeyFilter{{Keys: []string{"skills:go", "skills:rust"}}}, []string{"skills:go", "skills:rust"}},
		{"the rarer list", []domain.KeyFilter{{Keys: []string{"skills:go"}}, {Keys: []string{"skills:rust"}}}, []string{"skills:rust"}},
		{"all of", []domain.KeyFilter{{All: true, Keys: []string{"skills:go", "skills:rust"}}}, []string{"skills:rust"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, anchor(ix, ix.Matcher(domain.JobQuery{Filters: tc.filters})))
		})
	}
}

// TestEndingCarriesTheLastCursorTaken: a subscription ended while it
// still replays (its queue overflowed, or the hub closed) ends at once,
// and its error's cursor is the last event its reader took: resuming
// there repeats nothing.
func TestEndingCarriesTheLastCursorTaken(t *testing.T) {
	opened := func(from, to int) []domain.Change {
		var out []domain.Change
		for i := from; i <= to; i++ {
			out = append(out, domain.Change{Seq: int64(i), ID: fmt.Sprintf("j%03d", i), Change: domain.ChangeOpened})
		}
		return out
	}
	docs := func(to int) []*index.Doc {
		var out []*index.Doc
		for i := 2; i <= to; i++ {
			out = append(out, doc(fmt.Sprintf("j%03d", i), "go"))
		}
		return out
	}
	q := domain.JobQuery{Filters: []domain.KeyFilter{{Field: "skills", Keys: []string{"skills:go"}}}}
	for _, mode := range []string{"overflow", "close"} {
		t.Run(mode, func(t *testing.T) {
			feed := &memFeed{}
			h := NewHub(feed, Options{Buffer: 2})
			require.NoError(t, h.process(context.Background(), build(1)))
			feed.changes = opened(2, 11)
			require.NoError(t, h.process(context.Background(), build(11, docs(11)...)))
			sub, err := h.Subscribe(context.Background(), q, &domain.FeedCursor{Seq: 1}, "test")
			require.NoError(t, err)
			defer sub.Close()
			var taken string
			for range 2 {
				ev, err := sub.Next(context.Background())
				require.NoError(t, err)
				taken = ev.Cursor
			}
			if mode == "overflow" {
				feed.changes = opened(2, 15) // 4 live events for a queue of 2
				require.NoError(t, h.process(context.Background(), build(15, docs(15)...)))
			} else {
				h.Close()
			}
			_, err = sub.Next(context.Background())
			var ended *domain.Error
			require.ErrorAs(t, err, &ended)
			assert.Equal(t, taken, ended.Cursor, "the cursor of the last event taken")
		})
	}
}

// TestFirstIndexIsReleased: once the hub has started at the first index
// it heard of, it keeps no reference to it (a base index is most of the
// process's memory).
func TestFirstIndexIsReleased(t *testing.T) {
	feed := &memFeed{changes: []domain.Change{{Seq: 2, ID: "b", Change: domain.ChangeOpened}, {Seq: 3, ID: "c", Change: domain.ChangeOpened}}}
	h := NewHub(feed, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx)
	first := build(1, doc("a", "go"))
	gone := weak.Make(first)
	h.Advance(nil, first)
	first = nil
	h.Advance(nil, build(2, doc("a", "go"), doc("b", "go")))
	require.Eventually(t, func() bool { return h.Position() == 2 }, 5*time.Second, 5*time.Millisecond)
	h.Advance(nil, build(3, doc("a", "go"), doc("b", "go"), doc("c", "go")))
	require.Eventually(t, func() bool { return h.Position() == 3 }, 5*time.Second, 5*time.Millisecond)
	runtime.GC()
	runtime.GC()
	assert.Nil(t, gone.Value(), "the first index is garbage")
}

// TestReplacedBaseIsLetGo: when the index moves to a base built anew, the
// hub keeps of the index it judges from only what judging reads (the full
// index is garbage while the move is judged), and once the move is judged
// it calls LetGo, so that the memory goes back to the system; a move to a
// layer over the same base lets nothing go.
func TestReplacedBaseIsLetGo(t *testing.T) {
	feed := &memFeed{}
	var letGo atomic.Int32
	h := NewHub(feed, Options{LetGo: func() { letGo.Add(1) }})
	ctx := context.Background()
	q := domain.JobQuery{Filters: []domain.KeyFilter{{Field: "skills", Keys: []string{"skills:go"}}}}

	first := build(1, doc("a", "go"), doc("b", "rust"))
	require.NoError(t, h.process(ctx, first))
	sub, err := h.Subscribe(ctx, q, nil, "test")
	require.NoError(t, err)
	defer sub.Close()
	feed.changes = []domain.Change{{Seq: 2, ID: "c", Change: domain.ChangeOpened}, {Seq: 3, ID: "d", Change: domain.ChangeOpened}}
	replaced := weak.Make(first)
	first = nil
	rebuilt := build(3, doc("a", "go"), doc("b", "rust"), doc("c", "go"), doc("d", "go"))
	h.Advance(nil, rebuilt)
	judged := false
	feed.onDocs = func() {
		runtime.GC()
		runtime.GC()
		assert.Nil(t, replaced.Value(), "the hub judges from a copy, not the replaced index")
		assert.Zero(t, letGo.Load(), "not before the move is judged")
		judged = true
	}
	require.NoError(t, h.process(ctx, rebuilt))
	feed.onDocs = nil
	require.True(t, judged)
	assert.Equal(t, []string{"added c", "added d"}, kinds(t, sub), "judged from the copy")
	assert.Equal(t, int32(1), letGo.Load())

	feed.changes = append(feed.changes, domain.Change{Seq: 4, ID: "e", Change: domain.ChangeOpened})
	layered, err := rebuilt.Apply(4, index.Change{Add: []*index.Doc{doc("e", "go")}}, func(names []string) ([]string, error) { return names, nil })
	require.NoError(t, err)
	h.Advance(nil, layered)
	require.NoError(t, h.process(ctx, layered))
	assert.Equal(t, []string{"added e"}, kinds(t, sub))
	assert.Equal(t, int32(1), letGo.Load(), "a layer over the same base lets nothing go")
}
