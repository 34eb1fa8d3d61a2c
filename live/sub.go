package live

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/index"
)

// Sub is one open subscription: a standing query and the events queued for
// it. Its reader takes them with Next, one goroutine at a time, and ends it
// with Close.
type Sub struct {
	h       *Hub
	m       *index.Matcher
	near    *domain.NearQuery // its near filter: cards carry their distance
	via     string            // its transport, for the figures
	anchors []string
	// text is its filter's full-text part (nil: none): the reader judges
	// its events (textPart).
	text *textPart
	// pass marks the dispatch that last judged it (Hub.pass; under h.mu).
	pass uint64

	// replayAfter and liveFrom bound the history's changes it still has
	// to judge itself (those after replayAfter up to liveFrom: it started
	// after an older cursor); the hub queues those after liveFrom. Only
	// Next touches replayAfter, and pending, the events replayed but not
	// yet taken.
	replayAfter, liveFrom int64
	pending               []queued
	// skipThrough: changes up to it are not delivered (a cursor of
	// another instance, ahead of this one).
	skipThrough int64

	mu    sync.Mutex
	queue []queued
	// end, once set, is why the subscription ends: its error is made
	// with the cursor delivered last when Next returns it.
	end       *ending
	delivered domain.FeedCursor
	closed    bool
	wake      chan struct{}
	// ready, when set, is told whenever wake is (OnReady).
	ready atomic.Pointer[func()]
}

// ending is why a subscription ends (its code and message); its error
// carries the cursor the reader took last.
type ending struct{ code, message string }

// The endings.
var (
	endResync = &ending{domain.CodeResyncRequired,
		"the subscriber fell too far behind the changes; read the results again and resume after the cursor"}
	endEvicted = &ending{domain.CodeGone,
		"the changes after the cursor are no longer kept for subscriptions; read the results again and subscribe without after"}
	endPurged = &ending{domain.CodeResyncRequired,
		"a purge removed changes the subscription had not been judged by; read the results again and resume after the cursor"}
	endShutdown = &ending{domain.CodeUnavailable, "the server is shutting down; subscribe again after the cursor"}
	endFailed   = &ending{domain.CodeUnavailable, "the database could not be read to judge a change; subscribe again after the cursor"}
)

// queued is an event waiting for its reader: a change and what it did to
// the subscription's results.
type queued struct {
	r    *record
	kind domain.JobChangeKind
}

// Subscribe opens a subscription to q's results: every change after the
// cursor after (nil: after the feed's last change now) is delivered by
// Next. A cursor older than the history is gone; a closed hub answers
// unavailable.
func (h *Hub) Subscribe(ctx context.Context, q domain.JobQuery, after *domain.FeedCursor, via string) (domain.Subscription, error) {
	var text *textPart
	if !q.Text().Empty() {
		tp, end, err := h.startText(ctx, q, after)
		if err != nil {
			return nil, err
		}
		text = tp
		if after == nil {
			after = &end
		}
	}
	if after == nil {
		// From the feed's end as it is now: the hub may not have judged
		// every change the feed has yet, and those are not after the start.
		end, err := h.feed.FeedEnd(ctx)
		if err != nil {
			return nil, err
		}
		after = &end
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return nil, errClosing()
	case h.at == nil:
		return nil, domain.Errorf(domain.CodeUnavailable, "the server is starting: its index is not built yet; retry in a few seconds")
	}
	pos := h.judged // the history's changes after it are still to come
	s := &Sub{h: h, m: h.at.Matcher(q), near: q.Near, via: via, text: text, liveFrom: pos, replayAfter: pos,
		delivered: domain.FeedCursor{Seq: pos, Epoch: h.epoch}, wake: make(chan struct{}, 1)}
	s.anchors = anchor(h.at, s.m)
	if after != nil {
		switch {
		case after.Seq > pos:
			s.skipThrough = after.Seq
		case after.Seq < h.start:
			return nil, cursorGone(*after)
		default:
			s.replayAfter = after.Seq
		}
		s.delivered = *after
	}
	h.file(s)
	h.started.Add(1)
	return s, nil
}

// errClosing refuses a subscription while the server shuts down.
func errClosing() error {
	return domain.Errorf(domain.CodeUnavailable, "the server is shutting down; subscribe again")
}

// cursorGone refuses a subscription after a cursor older than the history.
func cursorGone(after domain.FeedCursor) error {
	return &domain.Error{Code: domain.CodeGone, Param: "after", Cursor: after.Encode(),
		Message: "the cursor is older than the changes kept for subscriptions; read the results again and subscribe without after"}
}

// file registers s with the percolators. h.mu is held.
func (h *Hub) file(s *Sub) {
	h.subs[s] = struct{}{}
	h.open[s.via]++
	h.all.file(s)
	if s.text != nil {
		h.texts.file(s)
	}
}

// unfile removes s from the percolators. h.mu is held.
func (h *Hub) unfile(s *Sub) {
	if _, ok := h.subs[s]; !ok {
		return
	}
	delete(h.subs, s)
	if h.open[s.via]--; h.open[s.via] <= 0 {
		delete(h.open, s.via)
	}
	h.all.unfile(s)
	h.texts.unfile(s)
}

// Close ends the subscription; Next then returns nothing more.
func (s *Sub) Close() {
	s.h.mu.Lock()
	s.h.unfile(s)
	s.h.mu.Unlock()
	s.mu.Lock()
	s.closed, s.queue = true, nil
	s.mu.Unlock()
	s.signal()
}

// signal wakes the reader, and tells the function given to OnReady.
func (s *Sub) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	if ready := s.ready.Load(); ready != nil {
		(*ready)()
	}
}

// kind judges the change r for the subscription: added, updated, removed,
// or no event; unjudged for one with a full-text part that r may concern
// (its reader judges it).
func (s *Sub) kind(r *record) (domain.JobChangeKind, bool) {
	was, is := s.m.Match(r.before), s.m.Match(r.after)
	if s.text != nil {
		return unjudged, was || is
	}
	if r.change.Seq <= s.skipThrough {
		return "", false
	}
	switch {
	case is && !was:
		return domain.JobAdded, true
	case is:
		return domain.JobUpdated, true
	case was:
		return domain.JobRemoved, true
	}
	return "", false
}

// replayBatch is how many of the history's changes one look judges, and
// the most events replayed at once (their cards read together).
const replayBatch = 2048

// Next waits for the subscription's next event, in feed order. It returns
// an error with code resync_required (the reader fell behind, or a purge
// removed changes not yet judged), gone (the changes it had to replay are
// no longer kept) or unavailable (the server is shutting down), each with
// the cursor taken last; or ctx's error.
func (s *Sub) Next(ctx context.Context) (*domain.JobChangeEvent, error) {
	ev, _, err := s.next(ctx, true)
	return ev, err
}

// TryNext is Next without the wait: false when no event is ready now (the
// function given to OnReady is called when one may be).
func (s *Sub) TryNext(ctx context.Context) (*domain.JobChangeEvent, bool, error) {
	return s.next(ctx, false)
}

// OnReady makes the subscription call ready whenever an event or its end
// may be taken: after each event queued for it, and when it ends. ready
// must return at once (it runs under the hub's lock).
func (s *Sub) OnReady(ready func()) { s.ready.Store(&ready) }

// next is Next; without wait it returns false rather than wait for an
// event.
func (s *Sub) next(ctx context.Context, wait bool) (*domain.JobChangeEvent, bool, error) {
	for {
		s.mu.Lock()
		if err := s.ended(); err != nil {
			s.mu.Unlock()
			return nil, false, err
		}
		s.mu.Unlock()
		if len(s.pending) == 0 && s.replayAfter < s.liveFrom {
			if err := s.replay(ctx); err != nil {
				return nil, false, err
			}
			continue
		}
		var q queued
		var ok bool
		s.mu.Lock()
		switch {
		case s.closed:
			s.mu.Unlock()
			return nil, false, context.Canceled
		case len(s.pending) > 0:
			q, s.pending, ok = s.pending[0], s.pending[1:], true
		case len(s.queue) > 0:
			q, s.queue, ok = s.queue[0], s.queue[1:], true
		}
		if ok && q.kind == unjudged {
			s.mu.Unlock()
			kind, deliver, err := s.judgeText(ctx, q.r)
			if err != nil {
				return nil, false, s.failed(ctx, err)
			}
			if !deliver {
				continue
			}
			q.kind = kind
			s.mu.Lock()
		}
		if ok {
			prev := s.delivered
			s.delivered = q.r.place
			s.mu.Unlock()
			ev, err := s.event(ctx, q)
			if err != nil {
				// Not delivered: the cursor of the end is the one before it.
				s.mu.Lock()
				s.delivered = prev
				s.mu.Unlock()
				return nil, false, s.failed(ctx, err)
			}
			return ev, true, nil
		}
		s.mu.Unlock()
		if !wait {
			return nil, false, nil
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
}

// failed ends the subscription after a change could not be judged or its
// card read (the database unreachable): with unavailable and the cursor
// delivered last, so that a client resumes without losing the change, as
// Next promises. ctx's own end is returned as it is.
func (s *Sub) failed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.h.log.Warn("subscriptions: a change could not be judged; the subscription ends with unavailable", "err", err)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end == nil {
		s.end = endFailed
	}
	return s.ended()
}

// ended returns the error the subscription ends with, once it has an
// ending: nothing more is taken after it. s.mu is held.
func (s *Sub) ended() error {
	if s.end == nil {
		return nil
	}
	s.pending = nil
	return &domain.Error{Code: s.end.code, Message: s.end.message, Cursor: s.delivered.Encode()}
}

// event makes the event of q, reading its card when the hub has not.
func (s *Sub) event(ctx context.Context, q queued) (*domain.JobChangeEvent, error) {
	r := q.r
	ev := &domain.JobChangeEvent{Kind: q.kind, ID: r.change.ID, At: r.change.At, Cursor: r.cursor}
	if q.kind != domain.JobRemoved {
		if !r.cardRead.Load() {
			if err := s.h.readCards(ctx, []*record{r}); err != nil {
				return nil, err
			}
		}
		ev.Card = r.card.Load()
		if s.near != nil && ev.Card != nil && r.after != nil {
			// The card read is every subscription's; its distance is this
			// one's.
			c := *ev.Card
			if d, ok := s.near.Distance(r.after.Keys); ok {
				c.DistanceKm = domain.ShownKm(d)
			}
			ev.Card = &c
		}
	}
	s.h.delivered.Add(1)
	s.h.lag.observe(time.Since(r.change.At))
	return ev, nil
}

// replay judges the history's next changes up to liveFrom, putting their
// events in pending (their cards read together).
func (s *Sub) replay(ctx context.Context) error {
	h := s.h
	h.mu.Lock()
	if s.replayAfter < h.start {
		h.mu.Unlock()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.end == nil {
			s.end = endEvicted
		}
		return s.ended()
	}
	i, _ := searchSeq(h.history, s.replayAfter)
	var events []queued
	var records []*record
	for n := 0; i < len(h.history) && n < replayBatch && len(events) < replayBatch/8; i, n = i+1, n+1 {
		r := h.history[i]
		if r.change.Seq > s.liveFrom {
			break
		}
		s.replayAfter = r.change.Seq
		if kind, ok := s.kind(r); ok {
			events = append(events, queued{r: r, kind: kind})
			records = append(records, r)
		}
	}
	if i >= len(h.history) || h.history[i].change.Seq > s.liveFrom {
		s.replayAfter = s.liveFrom
	}
	h.mu.Unlock()
	if err := h.readCards(ctx, records); err != nil {
		return err
	}
	s.pending = events
	return nil
}

// searchSeq returns the position of the first record after seq.
func searchSeq(history []*record, seq int64) (int, bool) {
	i := sort.Search(len(history), func(i int) bool { return history[i].change.Seq > seq })
	return i, i < len(history)
}
