package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
)

// streamParams are the query parameters of GET /jobs/stream: the filters
// of GET /jobs and the cursor to resume after.
var streamParams = append(slices.Clone(filterParams), "after")

// DefaultStreamHeartbeat is how often a stream without events writes a comment
// line, so that proxies do not close it as idle (section 15).
const DefaultStreamHeartbeat = 15 * time.Second

// streamEvent is the data of an event of GET /jobs/stream: the REST shape
// of a subscription's event (its card as GET /jobs lists it).
type streamEvent struct {
	Kind domain.JobChangeKind `json:"kind"`
	ID   string               `json:"id"`
	At   string               `json:"at"`
	Card any                  `json:"card"` // cardOf
}

// stream serves GET /jobs/stream: the changes of a search's results as
// Server-Sent Events (section 15). Errors before the stream starts are
// the JSON errors of GET /jobs; after, an error event ends it.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request) {
	p := readParams(r.URL, streamParams...)
	f := filterOf(p)
	after := p.str("after")
	if p.err != nil {
		WriteError(w, r, h.log, p.err)
		return
	}
	// A reconnecting EventSource sends the last id it saw: it is newer
	// than the after its URL may still carry.
	if last := r.Header.Get("Last-Event-ID"); last != "" {
		after = &last
	}
	ctx := r.Context()
	sub, err := h.svc.Subscribe(ctx, f, after)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	defer sub.Close()
	// Its cards carry distance_km when the filter has a point, as GET
	// /jobs's do (cardsOf): as the filter was read, not as it was given.
	read, err := h.svc.Interpret(*f)
	if err != nil {
		WriteError(w, r, h.log, err)
		return
	}
	near := read.Near != nil
	// A stream outlives the server's read and write timeouts; each of its
	// writes has its own limit instead, so that a client that reads
	// nothing is let go (search.PushWriteLimit).
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	send := func(b []byte) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(h.writeLimit)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return false
		}
		if _, err := w.Write(b); err != nil || rc.Flush() != nil {
			return false
		}
		// No deadline between writes: over HTTP/2 one would reset a
		// stream that merely waits for its next event.
		_ = rc.SetWriteDeadline(time.Time{})
		return true
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	w.WriteHeader(http.StatusOK)
	if !send([]byte(": jobsd job changes\n\n")) {
		return
	}

	type next struct {
		ev  *domain.JobChangeEvent
		err error
	}
	// Events are taken in a goroutine of their own, so that heartbeats go
	// out while none comes; taking waits for the writer (one at a time).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := make(chan next)
	go func() {
		for {
			ev, err := sub.Next(ctx)
			select {
			case events <- next{ev, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	beat := time.NewTicker(h.heartbeat)
	defer beat.Stop()
	var buf bytes.Buffer
	for {
		buf.Reset()
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
			buf.WriteString(": keep-alive\n\n")
		case n := <-events:
			if n.err != nil {
				if ctx.Err() != nil {
					return
				}
				writeEvent(&buf, "error", "", errorBodyOf(r, h.log, n.err))
				send(buf.Bytes())
				return
			}
			ev := n.ev
			writeEvent(&buf, string(ev.Kind), ev.Cursor, streamEvent{Kind: ev.Kind, ID: ev.ID, At: domain.FormatTime(ev.At), Card: cardOf(ev.Card, near)})
		}
		if !send(buf.Bytes()) {
			return // the client is gone, or reads nothing
		}
	}
}

// writeEvent appends one Server-Sent Event: its type, its id (none when
// empty) and its data, JSON on one line.
func writeEvent(buf *bytes.Buffer, event, id string, data any) {
	buf.WriteString("event: " + event + "\n")
	if id != "" {
		buf.WriteString("id: " + id + "\n")
	}
	buf.WriteString("data: ")
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil { // ends with the newline
		buf.WriteString("{}\n")
	}
	buf.WriteString("\n")
}
