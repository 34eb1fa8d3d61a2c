package live

import (
	"context"
	"math"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/store"
)

// Subscriptions with a full-text part (a keyword search q, or title words
// outside the taxonomy) are judged partly by the database, which alone
// holds the text. The index's State of a change tells whether the job meets
// the filter's other conditions; whether its text matches is asked of the
// database, once per change and text (record.texts), when a subscriber first
// needs it. A job's text before a change is no longer in the database, so
// the subscription keeps its results instead: the jobs of its filter when
// it started (read in one snapshot with the feed's end), kept current by
// each change it judges. Membership before a change is membership in that
// set; after it, the State's conditions and the text.
//
// Such events are judged by the subscription's reader (Next), in feed
// order: the hub queues every change that meets the other conditions
// before or after it, unjudged.

// MaxTextResults is the most jobs a subscription with a full-text part may
// match when it starts, unless Options say otherwise: it keeps their ids.
const MaxTextResults = 50_000

// unjudged marks a queued change that the reader judges (a subscription
// with a full-text part).
const unjudged domain.JobChangeKind = ""

// textPart is the full-text part of a subscription.
type textPart struct {
	query domain.TextQuery
	// from is the change the subscription's results were read at; members
	// are its results since: at from, then after each change judged.
	from    int64
	members map[string]struct{}
	// Changes up to from (replayed after an older cursor) are judged by
	// the text as it was at from: atStart holds the jobs changed after the
	// cursor that were open at from with matching text; seen is each job's
	// text as the replay last judged it.
	atStart map[string]bool
	seen    map[string]bool
}

// startText reads where a subscription of q with a full-text part starts:
// its results at the feed's end, and the text of the jobs changed after
// after (nil: none) at that end.
func (h *Hub) startText(ctx context.Context, q domain.JobQuery, after *domain.FeedCursor) (*textPart, domain.FeedCursor, error) {
	changedAfter := int64(math.MaxInt64)
	if after != nil {
		changedAfter = after.Seq
	}
	// The refusals that cost nothing come before the statement.
	h.mu.Lock()
	closed, start := h.closed, h.start
	h.mu.Unlock()
	switch {
	case closed:
		return nil, domain.FeedCursor{}, errClosing()
	case after != nil && after.Seq < start:
		return nil, domain.FeedCursor{}, cursorGone(*after)
	}
	st, err := h.feed.TextStart(ctx, q, changedAfter, h.opts.TextResults)
	if err != nil {
		return nil, domain.FeedCursor{}, err
	}
	text := q.Text()
	if len(st.Members) > h.opts.TextResults {
		param := "q"
		if text.Q == "" {
			param = "title"
		}
		return nil, domain.FeedCursor{}, domain.InvalidParam(param,
			"a subscription with a keyword search or title words follows at most %d postings, and this filter matches more; narrow it with other filters", h.opts.TextResults)
	}
	tp := &textPart{query: text, from: st.End.Seq, members: make(map[string]struct{}, len(st.Members)),
		atStart: make(map[string]bool, len(st.TextMatched)), seen: map[string]bool{}}
	for _, id := range st.Members {
		tp.members[id] = struct{}{}
	}
	for _, id := range st.TextMatched {
		tp.atStart[id] = true
	}
	return tp, st.End, nil
}

// judgeTexts asks the database, in one statement, for the text of the
// changed jobs that the open subscriptions with a full-text part will judge
// (those that meet their other conditions after the change), so that a
// change is judged by the text it wrote, not by a later one. A subscription
// opened meanwhile asks itself (textOf).
func (h *Hub) judgeTexts(ctx context.Context, records []*record) error {
	type ask struct {
		text domain.TextQuery
		r    *record
	}
	var asks []ask
	h.mu.Lock()
	if !h.texts.empty() {
		seen := map[ask]bool{}
		for _, r := range records {
			h.texts.offer(func(s *Sub) {
				if a := (ask{s.text.query, r}); !seen[a] && s.m.Match(r.after) {
					seen[a] = true
					asks = append(asks, a)
				}
			}, r.after)
		}
	}
	h.mu.Unlock()
	if len(asks) == 0 {
		return nil
	}
	pairs := make([]store.TextPair, len(asks))
	for i, a := range asks {
		pairs[i] = store.TextPair{Text: a.text, ID: a.r.change.ID}
	}
	matched, err := h.feed.TextMatches(ctx, pairs)
	if err != nil {
		return err
	}
	for i, a := range asks {
		a.r.setText(a.text, matched[i])
	}
	return nil
}

// textPoll is how often a keyword subscription asks again whether a
// change's description is indexed (Options.TextWait).
const textPoll = 250 * time.Millisecond

// judgeText judges the change r for s (which has a full-text part): its
// event, and whether it is delivered (it follows the cursor the
// subscription started after). Only the reader calls it, in feed order.
func (s *Sub) judgeText(ctx context.Context, r *record) (domain.JobChangeKind, bool, error) {
	tp, id := s.text, r.change.ID
	var was, is bool
	if r.change.Seq <= tp.from {
		// A replayed change: judged by the text the change wrote when the
		// hub judged it for another subscription, or else by the text at
		// from. The text before a job's first replayed change is not known:
		// it counts as matching, so that a client that listed the job is
		// told it was updated or removed (one that did not may be too).
		before, ok := tp.seen[id]
		if !ok {
			before = true
		}
		m, ok := r.text(tp.query)
		after := m.Matched
		if !ok || !m.Final {
			after = tp.atStart[id]
		}
		tp.seen[id] = after
		was, is = before && s.m.Match(r.before), after && s.m.Match(r.after)
	} else {
		tp.seen = nil // every replayed change is judged
		_, was = tp.members[id]
		if s.m.Match(r.after) {
			var err error
			if is, err = s.h.textOf(ctx, r, tp.query, s.upcoming(r)); err != nil {
				return "", false, err
			}
		}
		if is {
			tp.members[id] = struct{}{}
		} else {
			delete(tp.members, id)
		}
	}
	if r.change.Seq <= s.skipThrough {
		return "", false, nil
	}
	switch {
	case is && !was:
		return domain.JobAdded, true, nil
	case is:
		return domain.JobUpdated, true, nil
	case was:
		return domain.JobRemoved, true, nil
	}
	return "", false, nil
}

// upcoming returns the changes queued for s after r whose text s will
// need (jobs meeting its other conditions after the change), so that their
// text is asked together with r's.
func (s *Sub) upcoming(r *record) []*record {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*record
	for _, list := range [][]queued{s.pending, s.queue} {
		for _, q := range list {
			if o := q.r; o != r && o.change.Seq > s.text.from && s.m.Match(o.after) {
				out = append(out, o)
			}
		}
	}
	return out
}

// textOf returns whether the job of r, after the change, matches text: as
// judged before, or asked of the database now, together with the jobs of
// more (changes to judge next) whose text is not known yet. A judgement
// that is not final (the description not yet indexed for the job's new
// record) is asked again until it is, or until Options.TextWait has passed
// since the change.
func (h *Hub) textOf(ctx context.Context, r *record, text domain.TextQuery, more []*record) (bool, error) {
	for {
		m, ok := r.text(text)
		switch {
		case ok && (m.Final || time.Since(r.change.At) >= h.opts.TextWait):
			return m.Matched, nil
		case ok:
			select {
			case <-ctx.Done():
				return false, ctx.Err()
			case <-time.After(min(textPoll, h.opts.TextWait-time.Since(r.change.At))):
			}
		}
		ask := []*record{r}
		for _, o := range more {
			if m, ok := o.text(text); !ok || !m.Final {
				ask = append(ask, o)
			}
		}
		more = nil // asked once
		pairs := make([]store.TextPair, len(ask))
		for i, o := range ask {
			pairs[i] = store.TextPair{Text: text, ID: o.change.ID}
		}
		matched, err := h.feed.TextMatches(ctx, pairs)
		if err != nil {
			return false, err
		}
		for i, o := range ask {
			o.setText(text, matched[i])
		}
	}
}

// text returns the job's text judgement after r's change, if made.
func (r *record) text(t domain.TextQuery) (store.TextMatch, bool) {
	r.textMu.Lock()
	defer r.textMu.Unlock()
	v, ok := r.texts[t]
	return v, ok
}

// setText keeps the job's text judgement after r's change: the first
// final one stays (every subscription judges the change alike), one not
// final is replaced by a later one.
func (r *record) setText(t domain.TextQuery, v store.TextMatch) {
	r.textMu.Lock()
	defer r.textMu.Unlock()
	if r.texts == nil {
		r.texts = map[domain.TextQuery]store.TextMatch{}
	}
	if old, ok := r.texts[t]; !ok || !old.Final {
		r.texts[t] = v
	}
}
