package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/live"
	"github.com/jobsd-dev/jobsd/search"
	"github.com/jobsd-dev/jobsd/seed"
	"github.com/jobsd-dev/jobsd/store"
)

// postings returns n seeded postings as NDJSON lines: the same ids for
// every seed, other content.
func postings(t testing.TB, n int, seedN uint64) []string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, seed.Write(&buf, seed.Options{N: n, Seed: seedN}))
	return strings.Split(strings.TrimSpace(buf.String()), "\n")
}

func ptr[T any](v T) *T { return &v }

// filters are standing searches of every kind of condition the index
// answers: lists (any and all), places, the category, the company
// substring, salaries, and none.
func filters() []domain.JobFilter {
	return []domain.JobFilter{
		{},
		{Skills: []string{"golang"}},
		{Skills: []string{"python", "react"}},
		{Skills: []string{"python", "sql"}, SkillsMatch: ptr(domain.MatchAll)},
		{WorkArrangement: []domain.WorkArrangement{domain.WorkArrangementRemote}},
		{City: ptr("San Francisco")},
		{Country: ptr("United States"), WorkArrangement: []domain.WorkArrangement{domain.WorkArrangementHybrid}},
		{Title: ptr("software engineer")},
		{CategoryField: ptr("Healthcare Practitioners and Technical")},
		{Company: ptr("a")},
		{SalaryMin: ptr(100000.0)},
		{SalaryMin: ptr(80000.0), SalaryMax: ptr(150000.0), IncludeUnknownSalary: ptr(true)},
		{Visas: []string{"h1b"}, Skills: []string{"golang", "java"}},
		{EmploymentType: []string{"contract"}},
		{PostedAfter: ptr("2026-01-01")},
		{Near: &domain.NearInput{Place: ptr("San Francisco"), Radius: ptr(80.0)}},
		{Near: &domain.NearInput{Lat: ptr(50.0), Lng: ptr(5.0), Radius: ptr(500.0), IncludeRemote: ptr(true)}, Skills: []string{"python"}},
		// Full-text parts, judged in the database.
		{Q: ptr("engineer")},
		{Q: ptr("python OR react"), WorkArrangement: []domain.WorkArrangement{domain.WorkArrangementRemote}},
		{Title: ptr("senior")},
	}
}

// hasText reports whether f has a full-text part (a keyword search, or
// title words outside the taxonomy).
func hasText(t *testing.T, env *apitest.Env, f domain.JobFilter) bool {
	t.Helper()
	page, err := env.Service.Jobs(context.Background(), search.JobsRequest{Filter: &f, Page: search.Page{Limit: ptr(1)}})
	require.NoError(t, err)
	return !page.Query.Text().Empty()
}

// listOf returns the ids of every job matching f, by paging Jobs.
func listOf(t *testing.T, env *apitest.Env, f domain.JobFilter) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	var after *string
	for {
		page, err := env.Service.Jobs(context.Background(), search.JobsRequest{Filter: &f, Page: search.Page{Limit: ptr(100), After: after}})
		require.NoError(t, err)
		for _, c := range page.Nodes {
			out[c.ID] = true
		}
		if !page.PageInfo.HasMore {
			return out
		}
		after = page.PageInfo.EndCursor
	}
}

// TestEventsKeepAListCurrent: for subscriptions of many filters, while
// imports replace, add and close postings (some quicker than the index's
// poll, so that one move of the index carries several changes of a job),
// a client that starts from a filter's list and applies its events (ADDED
// adds a job not in it, UPDATED names one in it, REMOVED takes one out)
// ends with the list the filter gives afterwards. A subscription opened
// after a cursor of the middle ends with the same list from the list
// there.
func TestEventsKeepAListCurrent(t *testing.T) {
	// Chunks of two changes: an import's changes are judged and
	// dispatched across many chunks, one job's changes in several.
	for _, chunk := range []int{0, 2} {
		t.Run(fmt.Sprintf("chunk %d", chunk), func(t *testing.T) {
			eventsKeepAListCurrent(t, live.Options{Chunk: chunk})
		})
	}
}

func eventsKeepAListCurrent(t *testing.T, opts live.Options) {
	lines := postings(t, 400, 1)
	env := apitest.NewWithOptions(t, strings.Join(lines[:300], "\n"), apitest.Options{Live: true, LiveOptions: opts})
	ctx := context.Background()
	waitFor(t, env, func(pos int64) bool { return pos > 0 })

	type watched struct {
		filter domain.JobFilter
		list   map[string]bool
		sub    domain.Subscription
	}
	var subs []*watched
	for _, f := range filters() {
		w := &watched{filter: f, list: listOf(t, env, f)}
		sub, err := env.Service.Subscribe(ctx, &f, nil)
		require.NoError(t, err, "%+v", f)
		t.Cleanup(sub.Close)
		w.sub = sub
		subs = append(subs, w)
	}

	r := rand.New(rand.NewPCG(7, 7))
	var middle string
	var middleLists []map[string]bool
	for round := range 12 {
		var batch []string
		other := postings(t, 400, uint64(10+round))
		for range 5 + r.IntN(20) {
			i := r.IntN(400)
			switch r.IntN(5) {
			case 0:
				batch = append(batch, fmt.Sprintf(`{"id":%q,"closed":true}`, idOf(t, lines[i])))
			default:
				batch = append(batch, other[i])
			}
		}
		env.ImportLines(t, batch)
		if round%3 == 0 {
			time.Sleep(150 * time.Millisecond) // the others land within one poll
		}
		if round == 5 {
			waitFor(t, env, func(pos int64) bool { return pos >= feedLast(t, env) })
			middle = feedCursor(t, env)
			for _, f := range filters() {
				middleLists = append(middleLists, listOf(t, env, f))
			}
		}
	}
	last := feedLast(t, env)
	waitFor(t, env, func(pos int64) bool { return pos >= last })

	// apply applies a subscription's events to list. lenient: an UPDATED or
	// REMOVED may name a job not listed (a subscription with a full-text
	// part resumed after an older cursor: the text before a job's first
	// replayed change is not known).
	apply := func(t *testing.T, f domain.JobFilter, sub domain.Subscription, list map[string]bool, lenient bool) {
		t.Helper()
		for {
			ev, err := next(sub, 300*time.Millisecond)
			if errors.Is(err, context.DeadlineExceeded) {
				return
			}
			require.NoError(t, err)
			if lenient && ev.Kind == domain.JobUpdated && !list[ev.ID] {
				list[ev.ID] = true
				continue
			}
			if lenient && ev.Kind == domain.JobRemoved && !list[ev.ID] {
				continue
			}
			switch ev.Kind {
			case domain.JobAdded:
				require.False(t, list[ev.ID], "ADDED %s, already listed", ev.ID)
				require.NotNil(t, ev.Card)
				list[ev.ID] = true
				if f.Near != nil && len(ev.Card.Location.City) > 0 {
					require.NotNil(t, ev.Card.DistanceKm, "a near subscription's card carries its distance")
					assert.LessOrEqual(t, *ev.Card.DistanceKm, 500.0)
				}
			case domain.JobUpdated:
				require.True(t, list[ev.ID], "UPDATED %s, not listed", ev.ID)
				require.NotNil(t, ev.Card)
			case domain.JobRemoved:
				require.True(t, list[ev.ID], "REMOVED %s, not listed", ev.ID)
				require.Nil(t, ev.Card)
				delete(list, ev.ID)
			}
		}
	}
	texts := 0
	for _, w := range subs {
		apply(t, w.filter, w.sub, w.list, false)
		assert.Equal(t, listOf(t, env, w.filter), w.list, "filter %+v", w.filter)
		if hasText(t, env, w.filter) {
			texts++
			assert.NotEmpty(t, w.list, "filter %+v matches some jobs", w.filter)
		}
	}
	assert.Equal(t, 3, texts, "subscriptions with a full-text part")
	for i, f := range filters() {
		sub, err := env.Service.Subscribe(ctx, &f, &middle)
		require.NoError(t, err)
		apply(t, f, sub, middleLists[i], hasText(t, env, f))
		sub.Close()
		assert.Equal(t, listOf(t, env, f), middleLists[i], "resumed, filter %+v", f)
	}
	st := env.Hub.Stats()
	assert.Positive(t, st.Delivered)
	assert.Zero(t, st.Resyncs)
}

// next waits up to d for the subscription's next event.
func next(sub domain.Subscription, d time.Duration) (*domain.JobChangeEvent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return sub.Next(ctx)
}

// idOf returns the id of an NDJSON posting.
func idOf(t *testing.T, line string) string {
	t.Helper()
	_, rest, ok := strings.Cut(line, `"id":"`)
	require.True(t, ok)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}

// feedLast returns the number of the feed's last change.
func feedLast(t *testing.T, env *apitest.Env) int64 {
	t.Helper()
	var last int64
	require.NoError(t, env.DB.NewRaw("SELECT last_seq FROM jobsd_feed").Scan(context.Background(), &last))
	return last
}

// feedCursor returns the cursor after the feed's last change.
func feedCursor(t *testing.T, env *apitest.Env) string {
	t.Helper()
	var epoch int64
	require.NoError(t, env.DB.NewRaw("SELECT epoch FROM jobsd_feed").Scan(context.Background(), &epoch))
	return domain.FeedCursor{Seq: feedLast(t, env), Epoch: epoch}.Encode()
}

// waitFor waits until the hub's position satisfies ok.
func waitFor(t *testing.T, env *apitest.Env, ok func(pos int64) bool) {
	t.Helper()
	require.Eventually(t, func() bool { return ok(env.Hub.Position()) }, 20*time.Second, 10*time.Millisecond)
}

// TestSlowSubscriberIsResynced: a subscriber that leaves more events
// unread than its buffer is ended with resync_required and the cursor of
// the last event it took; resumed there, it gets what followed.
func TestSlowSubscriberIsResynced(t *testing.T) {
	lines := postings(t, 60, 1)
	env := apitest.NewWithOptions(t, strings.Join(lines[:10], "\n"), apitest.Options{Live: true, LiveOptions: live.Options{Buffer: 5}})
	waitFor(t, env, func(pos int64) bool { return pos > 0 })
	sub, err := env.Service.Subscribe(context.Background(), &domain.JobFilter{}, nil)
	require.NoError(t, err)
	defer sub.Close()
	env.ImportLines(t, lines[10:13])
	first, err := next(sub, 10*time.Second)
	require.NoError(t, err)
	env.ImportLines(t, lines[13:40]) // 27 events for a buffer of 5
	last := feedLast(t, env)
	waitFor(t, env, func(pos int64) bool { return pos >= last })
	taken := []string{first.ID}
	var ended *domain.Error
	for {
		ev, err := next(sub, 5*time.Second)
		if err != nil {
			require.ErrorAs(t, err, &ended)
			break
		}
		taken = append(taken, ev.ID)
	}
	assert.Equal(t, domain.CodeResyncRequired, ended.Code)
	require.NotEmpty(t, ended.Cursor)
	assert.Equal(t, int64(1), env.Hub.Stats().Resyncs)
	assert.Less(t, len(taken), 30, "it fell behind")

	// Resumed after the cursor it ended with: every posting once, in
	// feed order, with what it took before.
	again, err := env.Service.Subscribe(context.Background(), &domain.JobFilter{}, &ended.Cursor)
	require.NoError(t, err)
	defer again.Close()
	for {
		ev, err := next(again, 500*time.Millisecond)
		if err != nil {
			break
		}
		taken = append(taken, ev.ID)
	}
	var want []string
	for _, line := range lines[10:40] {
		want = append(want, idOf(t, line))
	}
	assert.Equal(t, want, taken)
}

// gatedFeed is the store as the hub reads it, with its reads of the feed
// held back while mu is locked (a hub that lags behind the index).
type gatedFeed struct {
	*store.Store
	mu sync.RWMutex
}

func (g *gatedFeed) PrimaryChanges(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.Store.PrimaryChanges(ctx, after, limit)
}

// TestPurgeOfUnjudgedChanges: when a purge removes changes the hub has not
// judged yet, every subscription ends with resync_required (nothing is
// silently skipped), and the hub goes on from the index: a subscription
// opened after gets what follows.
func TestPurgeOfUnjudgedChanges(t *testing.T) {
	lines := postings(t, 20, 1)
	env := apitest.NewWithOptions(t, strings.Join(lines[:10], "\n"), apitest.Options{NoIndex: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed := &gatedFeed{Store: env.Store}
	h := live.NewHub(feed, live.Options{})
	go h.Run(ctx)
	ix, err := env.Store.StartIndex(ctx, store.IndexOptions{Poll: 100 * time.Millisecond, OnAdvance: h.Advance})
	require.NoError(t, err)
	require.NoError(t, ix.WaitReady(ctx))
	require.Eventually(t, func() bool { return h.Position() > 0 }, 10*time.Second, 10*time.Millisecond)
	sub, err := h.Subscribe(ctx, domain.JobQuery{}, nil, "test")
	require.NoError(t, err)
	defer sub.Close()

	feed.mu.Lock() // the hub lags behind while a posting opens, closes and is purged
	env.ImportLines(t, lines[10:12])
	env.ImportLines(t, []string{fmt.Sprintf(`{"id":%q,"closed":true}`, idOf(t, lines[10]))})
	time.Sleep(300 * time.Millisecond)
	_, err = env.Store.Purge(ctx, time.Now().Add(time.Second))
	require.NoError(t, err)
	feed.mu.Unlock()

	_, err = next(sub, 10*time.Second)
	var ended *domain.Error
	require.ErrorAs(t, err, &ended)
	assert.Equal(t, domain.CodeResyncRequired, ended.Code)
	last := feedLast(t, env)
	require.Eventually(t, func() bool { return h.Position() >= last }, 10*time.Second, 10*time.Millisecond, "the hub goes on")
	again, err := h.Subscribe(ctx, domain.JobQuery{}, nil, "test")
	require.NoError(t, err)
	defer again.Close()
	env.ImportLines(t, lines[12:13])
	ev, err := next(again, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, idOf(t, lines[12]), ev.ID)
}

// TestReplayedEventsCarryTheirCards: a subscription that resumes after a
// cursor gets the card of each change it replays, read when the change
// was judged, even for a posting closed since (no subscription was open
// then).
func TestReplayedEventsCarryTheirCards(t *testing.T) {
	lines := postings(t, 20, 1)
	env := apitest.NewWithOptions(t, strings.Join(lines[:10], "\n"), apitest.Options{Live: true})
	waitFor(t, env, func(pos int64) bool { return pos > 0 })
	before := feedCursor(t, env)
	env.ImportLines(t, lines[10:11])
	opened := feedLast(t, env)
	waitFor(t, env, func(pos int64) bool { return pos >= opened })
	env.ImportLines(t, []string{fmt.Sprintf(`{"id":%q,"closed":true}`, idOf(t, lines[10]))})
	closed := feedLast(t, env)
	waitFor(t, env, func(pos int64) bool { return pos >= closed })

	sub, err := env.Service.Subscribe(context.Background(), &domain.JobFilter{}, &before)
	require.NoError(t, err)
	defer sub.Close()
	ev, err := next(sub, 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, domain.JobAdded, ev.Kind)
	require.NotNil(t, ev.Card, "the card of the posting as it opened")
	assert.Equal(t, idOf(t, lines[10]), ev.Card.ID)
	ev, err = next(sub, 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, domain.JobRemoved, ev.Kind)
}

// TestKeywordSubscription: a subscription with a keyword search follows
// its text through updates (into and out of the search) and closing; one
// whose search matches more jobs than it may follow is refused, naming q.
func TestKeywordSubscription(t *testing.T) {
	lines := postings(t, 30, 1)
	env := apitest.NewWithOptions(t, strings.Join(lines[:20], "\n"), apitest.Options{Live: true, LiveOptions: live.Options{TextResults: 3}})
	waitFor(t, env, func(pos int64) bool { return pos > 0 })
	ctx := context.Background()

	_, err := env.Service.Subscribe(ctx, &domain.JobFilter{Q: ptr("engineer")}, nil)
	var refused *domain.Error
	require.ErrorAs(t, err, &refused)
	assert.Equal(t, domain.CodeInvalidParameter, refused.Code)
	assert.Equal(t, "q", refused.Param)
	assert.Contains(t, refused.Message, "at most 3 postings")

	sub, err := env.Service.Subscribe(ctx, &domain.JobFilter{Q: ptr("zebrafish")}, nil)
	require.NoError(t, err)
	defer sub.Close()
	id := idOf(t, lines[20])
	titled := func(title string) string {
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(lines[20]), &rec))
		rec["title"] = title
		b, err := json.Marshal(rec)
		require.NoError(t, err)
		return string(b)
	}
	steps := []struct {
		line string
		want domain.JobChangeKind
	}{
		{titled("Zebrafish Husbandry Technician"), domain.JobAdded},
		{titled("Zebrafish Facility Technician"), domain.JobUpdated},
		{titled("Mouse Facility Technician"), domain.JobRemoved},
		{titled("Senior Zebrafish Technician"), domain.JobAdded},
		{fmt.Sprintf(`{"id":%q,"closed":true}`, id), domain.JobRemoved},
	}
	for _, st := range steps {
		env.ImportLines(t, []string{st.line})
		ev, err := next(sub, 10*time.Second)
		require.NoError(t, err, "after %s", st.line)
		assert.Equal(t, st.want, ev.Kind, "after %s", st.line)
		assert.Equal(t, id, ev.ID)
	}
	// An unrelated change makes no event.
	env.ImportLines(t, lines[21:22])
	_, err = next(sub, 500*time.Millisecond)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestOneJobAcrossChunks: one import updates a job, closes it and opens
// it again, and the hub judges each change in a chunk of its own: the
// state before each change is the one after the change before, whatever
// chunk judged it.
func TestOneJobAcrossChunks(t *testing.T) {
	lines := postings(t, 20, 1)
	env := apitest.NewWithOptions(t, strings.Join(lines[:10], "\n"), apitest.Options{Live: true, LiveOptions: live.Options{Chunk: 1}})
	waitFor(t, env, func(pos int64) bool { return pos > 0 })
	sub, err := env.Service.Subscribe(context.Background(), &domain.JobFilter{}, nil)
	require.NoError(t, err)
	defer sub.Close()
	changed := postings(t, 20, 2)
	id := idOf(t, lines[3])
	env.ImportLines(t, []string{changed[3], fmt.Sprintf(`{"id":%q,"closed":true}`, id), changed[3], lines[12]})
	var got []string
	for len(got) < 4 {
		ev, err := next(sub, 10*time.Second)
		require.NoError(t, err, "events so far: %v", got)
		got = append(got, string(ev.Kind)+" "+ev.ID)
	}
	want := []string{string(domain.JobUpdated) + " " + id, string(domain.JobRemoved) + " " + id,
		string(domain.JobAdded) + " " + id, string(domain.JobAdded) + " " + idOf(t, lines[12])}
	assert.Equal(t, want, got)
}

// TestEachChangeByItsOwnStates: one import moves a job into a search,
// closes it and opens it again outside the search, all in one move of the
// index. Each change is judged by the job just before and just after it,
// not by the job the move left: ADDED with the card of the version that
// matched, then REMOVED, and nothing for the reopening.
func TestEachChangeByItsOwnStates(t *testing.T) {
	posting := func(title, skill string) string {
		return fmt.Sprintf(`{"id":"chained-1","title":%q,"company":"Chain Works","skills":[%q],"location":{"full":"Berlin, Germany"}}`, title, skill)
	}
	env := apitest.NewWithOptions(t, posting("Rust Engineer", "rust"), apitest.Options{Live: true})
	waitFor(t, env, func(pos int64) bool { return pos > 0 })
	sub, err := env.Service.Subscribe(context.Background(), &domain.JobFilter{Skills: []string{"golang"}}, nil)
	require.NoError(t, err)
	defer sub.Close()

	env.ImportLines(t, []string{posting("Go Engineer", "golang"), `{"id":"chained-1","closed":true}`, posting("Rust Lead", "rust")})
	ev, err := next(sub, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, domain.JobAdded, ev.Kind)
	require.NotNil(t, ev.Card)
	assert.Equal(t, "Go Engineer", ev.Card.Title, "the card the change left, not the job's latest")
	ev, err = next(sub, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, domain.JobRemoved, ev.Kind)
	_, err = next(sub, 500*time.Millisecond)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "the reopening outside the search makes no event")
}
