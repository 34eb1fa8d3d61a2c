// Package live delivers the change feed to standing searches: GraphQL's
// subscriptions and REST's event streams (contract section 15).
//
// The Hub follows the server's in-memory index as it moves along the feed
// (store.IndexOptions.OnAdvance). For each move it reads the changes in
// between, takes each changed job's State out of the index before and the
// index after (index.State: what a query's conditions read), and judges
// every change once against the subscriptions it may concern: each
// subscription is filed under the keys of its most selective filter (a
// percolator: filter key → subscriptions), so that a change is judged only
// by the subscriptions filed under one of its job's keys, and by those
// without a key filter. Membership before and after the change gives the
// event: added, updated or removed.
//
// A filter with a full-text part is judged partly by the database (see
// text.go).
//
// Judged changes stay in a bounded history, States and all, so that a
// subscription can start after an older cursor and be judged exactly as a
// live one; each subscriber reads its events from a bounded queue and is
// ended with resync_required when it falls further behind.
package live

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
	"github.com/jobsd-dev/jobsd/store"
)

// Feed is what the hub reads: the change feed and the cards of open jobs,
// from the database the index follows (store.Store implements it).
type Feed interface {
	// PrimaryChanges returns at most limit changes after the cursor,
	// oldest first, and the cursor after them.
	PrimaryChanges(ctx context.Context, after domain.FeedCursor, limit int) ([]domain.Change, domain.FeedCursor, bool, error)
	// ChangeDocs returns, by change number, the job each change of seqs
	// found open (none when it found none, or when the feed did not keep
	// it).
	ChangeDocs(ctx context.Context, seqs []int64) (map[int64]store.Found, error)
	// CardsAfter returns, by change number, the card each change left (none
	// when it closed the job).
	CardsAfter(ctx context.Context, changes []domain.Change) (map[int64]*domain.JobCard, error)
	// FeedEnd returns the cursor after the feed's last change.
	FeedEnd(ctx context.Context) (domain.FeedCursor, error)
	// TextStart reads where a subscription with a full-text part starts:
	// the feed's end, the open jobs matching its whole filter there (at
	// most limit+1), and the text of the jobs changed after changedAfter.
	TextStart(ctx context.Context, q domain.JobQuery, changedAfter int64, limit int) (store.TextStart, error)
	// TextMatches judges jobs by full-text parts: whether each pair's job
	// is open and matches its text now, and whether that is final (its
	// description indexed for its current record).
	TextMatches(ctx context.Context, pairs []store.TextPair) ([]store.TextMatch, error)
}

// DefaultHistory is Options.History's default: about a quarter of an hour
// of changes at 50 postings a second, about 1 KB of memory each.
const DefaultHistory = 50_000

// Options tune a Hub. A zero member takes its default.
type Options struct {
	// History is how many changes are kept for subscriptions that resume
	// after a cursor (default 50,000); an older cursor is gone.
	History int
	// Buffer is how many events a subscriber may leave unread before it is
	// ended with resync_required (default 512).
	Buffer int
	// TextResults is the most jobs a subscription with a full-text part
	// may match when it starts (default MaxTextResults): it keeps their
	// ids.
	TextResults int
	// TextWait is how long after a change a keyword subscription waits for
	// the job's description to be indexed for its new record before it
	// judges the change by what keyword search reads then (0: it does not
	// wait). Set it where a text indexer runs (serve's, every 2 s).
	TextWait time.Duration
	// Chunk is how many changes of one move of the index are judged and
	// dispatched at a time (default 2,000): the hub holds the States of a
	// chunk's jobs, not of all a large import changed.
	Chunk int
	// LetGo, when set, is called once the hub has let go of an index for
	// another base (it judged the move to a base built anew, took a base
	// rebuilt at the same change, or restarted after a purge): that index
	// is garbage then, and its memory may go back to the system
	// (memtune.Runtime.Release).
	LetGo func()
	Log   *slog.Logger
}

// Hub judges the feed's changes for the open subscriptions and delivers
// their events. It is safe for concurrent use.
type Hub struct {
	feed Feed
	opts Options
	log  *slog.Logger

	// first is the first index the hub heard of, which it starts at (an
	// index loaded from a file, older than the first current one), and
	// latest the newest index the indexer made current that the hub has
	// not processed yet (nil: none); wake tells run.
	first, latest atomic.Pointer[index.Index]
	wake          chan struct{}
	// begun is set once the hub has started at first; firstMu makes
	// Advance's look at it and first's clearing one step, so that first
	// does not keep an old index alive.
	firstMu sync.Mutex
	begun   bool

	// mu guards what follows: the hub's place in the feed, the history
	// and the subscriptions' registry.
	mu sync.Mutex
	// at is the index whose changes are processed (nil before the first);
	// epoch the feed's purge epoch, for cursors.
	at    *index.Index
	epoch int64
	// judged is the last change dispatched: at's, except while a move to
	// a newer index is dispatched chunk by chunk (process).
	judged int64
	// history holds the changes after start, oldest first.
	history []*record
	start   int64
	// all files every subscription, texts those with a full-text part.
	all, texts percolator
	subs       map[*Sub]struct{}
	open       map[string]int // open subscriptions by transport
	closed     bool
	// pass numbers dispatches, marking the subscriptions judged in one.
	pass uint64

	started, delivered, resyncs atomic.Int64
	lag                         lagHistogram
}

// record is one change of the feed, with the job's State just before and
// just after it (nil: not open), and its card once read.
type record struct {
	change domain.Change
	// place is the change's place in the feed, cursor its text.
	place         domain.FeedCursor
	cursor        string
	before, after *index.State
	card          atomic.Pointer[domain.JobCard]
	cardRead      atomic.Bool
	// texts are the full-text parts the job was judged by after the
	// change (by subscriptions with one, when they first needed it).
	textMu sync.Mutex
	texts  map[domain.TextQuery]store.TextMatch
}

// NewHub returns a hub reading feed. Run makes it follow the index.
func NewHub(feed Feed, opts Options) *Hub {
	if opts.History <= 0 {
		opts.History = DefaultHistory
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 512
	}
	if opts.Chunk <= 0 {
		opts.Chunk = 2000
	}
	if opts.TextResults <= 0 {
		opts.TextResults = MaxTextResults
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Hub{feed: feed, opts: opts, log: opts.Log, wake: make(chan struct{}, 1),
		all: newPercolator(), texts: newPercolator(), subs: map[*Sub]struct{}{}, open: map[string]int{}}
}

// Advance tells the hub that cur is the current index (the indexer's
// OnAdvance). It only records cur: Run processes the changes up to it,
// from the first index it was told of.
func (h *Hub) Advance(_, cur *index.Index) {
	h.firstMu.Lock()
	if !h.begun {
		h.first.CompareAndSwap(nil, cur)
	}
	h.firstMu.Unlock()
	h.latest.Store(cur)
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// retryAfter is the pause before a pass that failed (the database
// unreachable) is tried again; the index waits as long.
const retryAfter = 500 * time.Millisecond

// Run processes the index's moves until ctx ends, then ends every
// subscription (Close).
func (h *Hub) Run(ctx context.Context) {
	defer h.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.wake:
		}
		cur := h.latest.Load()
		if cur == nil {
			continue
		}
		if err := h.process(ctx, cur); err != nil {
			if ctx.Err() != nil {
				return
			}
			h.log.Warn("subscriptions: the feed's changes are not read; retrying", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(retryAfter):
			}
			select {
			case h.wake <- struct{}{}:
			default:
			}
		}
	}
}

// pageSize is how many changes one read of the feed takes.
const pageSize = 1000

// process judges the changes from the hub's index to cur, and makes cur
// the hub's index. The hub's first index is the first it was told of.
func (h *Hub) process(ctx context.Context, cur *index.Index) error {
	h.mu.Lock()
	prev, epoch := h.at, h.epoch
	h.mu.Unlock()
	if prev == nil {
		h.firstMu.Lock()
		first := h.first.Swap(nil)
		if first == nil {
			first = cur
		}
		h.firstMu.Unlock()
		end, err := h.feed.FeedEnd(ctx) // the feed's epoch, for the cursors
		if err != nil {
			h.first.CompareAndSwap(nil, first)
			return err
		}
		h.firstMu.Lock()
		h.begun = true
		h.firstMu.Unlock()
		h.mu.Lock()
		h.at, h.epoch, h.start, h.judged = first, end.Epoch, first.Version(), first.Version()
		h.mu.Unlock()
		prev, epoch = first, end.Epoch
	}
	if cur.Version() <= prev.Version() {
		if cur.Version() == prev.Version() && cur != prev {
			// A base built anew, of the same change: the hub holds it
			// rather than the layered index it replaces, which would stay
			// alive, with its layer, until the next change.
			h.mu.Lock()
			if h.at == prev {
				h.at = cur
			}
			h.mu.Unlock()
			h.letGo(prev, cur)
		}
		return nil
	}
	if !prev.SameBase(cur) {
		// A move to a base built anew: the old index serves only to judge
		// it from now on. The hub keeps what that reads of it and lets the
		// rest go at once (most of its memory: index.Judging), and all of
		// it once the move is judged (letGo).
		judging := prev.Judging()
		h.mu.Lock()
		if h.at == prev {
			h.at = judging
		}
		h.mu.Unlock()
		prev = judging
	}
	var changes []domain.Change
	for pos := prev.Version(); pos < cur.Version(); {
		page, next, _, err := h.feed.PrimaryChanges(ctx, domain.FeedCursor{Seq: pos, Epoch: epoch}, pageSize)
		if domain.ErrorCode(err) == domain.CodeGone {
			return h.restart(ctx, cur)
		}
		if err != nil {
			return err
		}
		epoch = next.Epoch
		for _, c := range page {
			if c.Seq <= cur.Version() {
				changes = append(changes, c)
			}
		}
		if len(page) == 0 || next.Seq <= pos {
			break
		}
		pos = next.Seq
	}
	// The changes are judged, read and dispatched a chunk at a time, so
	// that a move of many changes (a crawl replacing a board) holds the
	// States of one chunk, not of all: judging 150,000 at once held 120 MB.
	// Once a chunk is dispatched, a failure does not give the move up (its
	// chunks would be dispatched twice): it is retried.
	chain := chainOf(changes)
	keepFrom := len(changes) - h.opts.History // the changes the history keeps
	for from := 0; from < len(changes); from += h.opts.Chunk {
		chunk := changes[from:min(from+h.opts.Chunk, len(changes))]
		// What the later changes of the chunk's jobs found, then the
		// records; then the cards after the changes, read now, in one
		// statement, for the changes the history keeps: a subscription
		// that resumes later is sent the card of the change, not of the
		// posting as it is by then. The same for the text of the changed
		// jobs, as the open subscriptions with a full-text part will judge
		// them.
		var records []*record
		read := func() error {
			if records == nil {
				found, err := h.feed.ChangeDocs(ctx, chain.later(chunk))
				if err != nil {
					return err
				}
				records = h.judge(prev, cur, chunk, epoch, chain, found)
			}
			if err := h.readCards(ctx, records[min(max(0, keepFrom-from), len(records)):]); err != nil {
				return err
			}
			return h.judgeTexts(ctx, records)
		}
		for err := read(); err != nil; err = read() {
			if from == 0 || ctx.Err() != nil {
				return err
			}
			h.log.Warn("subscriptions: the changed jobs are not read; retrying", "err", err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(retryAfter):
			}
		}
		h.mu.Lock()
		h.epoch, h.judged = epoch, chunk[len(chunk)-1].Seq
		if from+len(chunk) == len(changes) {
			h.at, h.judged = cur, cur.Version()
		}
		h.keep(records)
		for _, r := range records {
			h.dispatch(r)
		}
		h.mu.Unlock()
	}
	if len(changes) == 0 {
		h.mu.Lock()
		h.at, h.epoch, h.judged = cur, epoch, cur.Version()
		h.mu.Unlock()
	}
	h.letGo(prev, cur)
	return nil
}

// letGo tells Options.LetGo that the hub has moved from prev to cur, when
// cur is another base: prev is garbage now.
func (h *Hub) letGo(prev, cur *index.Index) {
	if h.opts.LetGo != nil && !prev.SameBase(cur) {
		h.opts.LetGo()
	}
}

// restart makes cur the hub's index when the feed no longer has the
// changes after the hub's place (a purge removed some): those changes
// cannot be judged, so every subscription ends with resync_required and
// the cursor it took last, and the history starts again at cur.
func (h *Hub) restart(ctx context.Context, cur *index.Index) error {
	end, err := h.feed.FeedEnd(ctx)
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.log.Warn("subscriptions: a purge removed changes not yet judged; every subscription ends with resync_required",
		"from", h.at.Version(), "to", cur.Version(), "subscriptions", len(h.subs))
	for s := range h.subs {
		h.endSub(s, endPurged)
	}
	clear(h.history)
	h.history = nil
	prev := h.at
	h.at, h.epoch, h.start, h.judged = cur, end.Epoch, cur.Version(), cur.Version()
	h.mu.Unlock()
	h.letGo(prev, cur)
	return nil
}

// endSub ends s with e (unless it has an ending) and takes it out of the
// percolator. h.mu is held.
func (h *Hub) endSub(s *Sub, e *ending) {
	s.mu.Lock()
	if s.end == nil {
		s.end = e
	}
	s.queue = nil
	s.mu.Unlock()
	h.unfile(s)
	s.signal()
}

// chain links the changes of one job within one move of the index: the
// state just after a change is the one its job's next change found.
type chain struct {
	next map[int64]int64         // a change's number → its job's next change's
	left map[string]*index.State // a job → the state its last judged change left, while a later one is to come
}

// chainOf links the changes of one move.
func chainOf(changes []domain.Change) *chain {
	ch := &chain{next: map[int64]int64{}, left: map[string]*index.State{}}
	last := make(map[string]int64, len(changes))
	for _, c := range changes {
		if seq, ok := last[c.ID]; ok {
			ch.next[seq] = c.Seq
		}
		last[c.ID] = c.Seq
	}
	return ch
}

// later returns the numbers of the changes that follow the changes of
// chunk that leave their job open: what those found is the state the
// earlier ones left.
func (ch *chain) later(chunk []domain.Change) []int64 {
	var out []int64
	for _, c := range chunk {
		if next, ok := ch.next[c.Seq]; ok && c.Change != domain.ChangeClosed {
			out = append(out, next)
		}
	}
	return out
}

// judge makes the records of changes, a chunk of the move from prev to
// cur: each change is judged by its job's State just before and just
// after it. Before a job's first change of the move, its State is prev's;
// after its last, cur's; in between, what the next change found (found,
// by the next change's number), which the feed keeps. Where the feed did
// not keep it (changes written before it did), the State is cur's.
func (h *Hub) judge(prev, cur *index.Index, changes []domain.Change, epoch int64, ch *chain, found map[int64]store.Found) []*record {
	var fresh, now []string // the jobs first changed here; those whose State after is cur's
	for _, c := range changes {
		if _, ok := ch.left[c.ID]; !ok {
			fresh = append(fresh, c.ID)
		}
		if next, chained := ch.next[c.Seq]; c.Change != domain.ChangeClosed && (!chained || found[next].Doc == nil) {
			now = append(now, c.ID)
		}
	}
	before, after := prev.States(fresh), cur.States(now)
	out := make([]*record, 0, len(changes))
	for _, c := range changes {
		place := domain.FeedCursor{Seq: c.Seq, Epoch: epoch}
		r := &record{change: c, place: place, cursor: place.Encode(), before: before[c.ID]}
		if s, ok := ch.left[c.ID]; ok {
			r.before = s
			delete(ch.left, c.ID)
		}
		next, chained := ch.next[c.Seq]
		if c.Change != domain.ChangeClosed {
			r.after = after[c.ID]
			if f := found[next]; chained && f.Doc != nil {
				r.after = cur.StateOf(f.Doc, f.Company)
			}
		}
		if chained {
			ch.left[c.ID] = r.after
		}
		out = append(out, r)
	}
	return out
}

// readCards reads, in one statement, the cards that the records' changes
// left (those that leave their job open).
func (h *Hub) readCards(ctx context.Context, records []*record) error {
	var changes []domain.Change
	for _, r := range records {
		if r.after != nil && !r.cardRead.Load() {
			changes = append(changes, r.change)
		}
	}
	if len(changes) == 0 {
		return nil
	}
	cards, err := h.feed.CardsAfter(ctx, changes)
	if err != nil {
		return err
	}
	for _, r := range records {
		if r.after != nil && !r.cardRead.Load() {
			r.card.Store(cards[r.change.Seq])
			r.cardRead.Store(true)
		}
	}
	return nil
}

// keep appends records to the history, dropping its oldest beyond
// Options.History. h.mu is held.
func (h *Hub) keep(records []*record) {
	h.history = append(h.history, records...)
	if over := len(h.history) - h.opts.History; over > 0 {
		h.start = h.history[over-1].change.Seq
		// Copy the kept ones down once the dropped ones are many, so that
		// the array does not grow without end.
		if over > h.opts.History/4 || cap(h.history) > 2*h.opts.History {
			h.history = append([]*record(nil), h.history[over:]...)
		} else {
			clear(h.history[:over])
			h.history = h.history[over:]
		}
	}
}

// dispatch judges r by the subscriptions it may concern and queues their
// events. h.mu is held.
func (h *Hub) dispatch(r *record) {
	h.pass++
	judge := func(s *Sub) {
		if s.pass == h.pass {
			return
		}
		s.pass = h.pass
		if kind, ok := s.kind(r); ok {
			h.push(s, queued{r: r, kind: kind})
		}
	}
	h.all.offer(judge, r.before, r.after)
}

// push queues an event for s, or ends s with resync_required when its
// queue is full. h.mu is held.
func (h *Hub) push(s *Sub, q queued) {
	s.mu.Lock()
	if s.end != nil {
		s.mu.Unlock()
		return
	}
	if len(s.queue) >= h.opts.Buffer {
		s.mu.Unlock()
		h.resyncs.Add(1)
		h.endSub(s, endResync)
		return
	}
	s.queue = append(s.queue, q)
	s.mu.Unlock()
	s.signal()
}

// Close ends every subscription with unavailable (the server is shutting
// down), each with the cursor to resume from; later subscriptions are
// refused.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for s := range h.subs {
		h.endSub(s, endShutdown)
	}
}

// Stats are a hub's figures for /metrics.
type Stats struct {
	Open      map[string]int // subscriptions open, by transport
	Started   int64          // subscriptions started
	Delivered int64          // events delivered
	Resyncs   int64          // subscriptions ended with resync_required
	History   int            // changes kept for resuming
	// Lag is the delays of the events delivered: from the change's
	// instant to the moment its subscriber took it.
	Lag LagCounts
}

// Stats returns the hub's figures.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	open := make(map[string]int, len(h.open))
	for via, n := range h.open {
		open[via] = n
	}
	return Stats{Open: open, Started: h.started.Load(), Delivered: h.delivered.Load(),
		Resyncs: h.resyncs.Load(), History: len(h.history), Lag: h.lag.counts()}
}

// Position is the last change the hub has judged (0 before the first
// index).
func (h *Hub) Position() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.at == nil {
		return 0
	}
	return h.judged
}

// anchor returns the keys a subscription of m is filed under: those of its
// most selective filter (any one key of a filter that needs them all), or
// none when it has no key filter.
func anchor(ix *index.Index, m *index.Matcher) []string {
	var best []string
	var bestJobs uint64
	for _, f := range m.Keys() {
		if len(f.Keys) == 0 {
			continue
		}
		keys := f.Keys
		if f.All {
			keys = []string{slices.MinFunc(f.Keys, func(a, b string) int { return cmp.Compare(ix.KeyJobs(a), ix.KeyJobs(b)) })}
		}
		var jobs uint64
		for _, k := range keys {
			jobs += ix.KeyJobs(k)
		}
		if best == nil || jobs < bestJobs {
			best, bestJobs = keys, jobs
		}
	}
	return best
}

// LagBounds are the upper bounds, in seconds, of the delivery lag's
// buckets.
var LagBounds = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 5, 10}

// LagCounts is a histogram of delivery lags: Buckets[i] events took at
// most LagBounds[i] (cumulative), Count in all, Sum their seconds.
type LagCounts struct {
	Buckets []uint64
	Count   uint64
	Sum     float64
}

// lagHistogram counts delivery lags by LagBounds.
type lagHistogram struct {
	mu      sync.Mutex
	buckets [16]uint64 // by LagBounds, the last past them all
	count   uint64
	sum     float64
}

// observe counts one delivery's lag.
func (l *lagHistogram) observe(d time.Duration) {
	sec := max(d.Seconds(), 0)
	i, _ := slices.BinarySearch(LagBounds, sec)
	l.mu.Lock()
	l.buckets[i]++
	l.count++
	l.sum += sec
	l.mu.Unlock()
}

// counts returns the histogram, cumulative by bucket.
func (l *lagHistogram) counts() LagCounts {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := LagCounts{Buckets: make([]uint64, len(LagBounds)), Count: l.count, Sum: l.sum}
	var run uint64
	for i := range LagBounds {
		run += l.buckets[i]
		out.Buckets[i] = run
	}
	return out
}
