package rest

import (
	"bytes"
	"net/http"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/jobsd-dev/jobsd/domain"
)

// envelope is the body of every REST success: data, and meta for lists.
type envelope struct {
	Data any   `json:"data"`
	Meta *meta `json:"meta,omitempty"`
}

// meta is the pagination of a list response, with the job list's
// extensions: how the filters were read and the cursor of the next page.
type meta struct {
	Total      int                      `json:"total"`
	Limit      int                      `json:"limit"`
	Offset     int                      `json:"offset"`
	HasMore    bool                     `json:"has_more"`
	NextCursor *string                  `json:"next_cursor,omitempty"`
	Normalized *domain.NormalizedFilter `json:"normalized,omitempty"`
	// Facets are the counts by field, when asked for.
	Facets map[string]any `json:"facets,omitempty"`
}

// normalized is meta's normalized: absent without filters.
func normalized(n *domain.NormalizedFilter) *domain.NormalizedFilter {
	if n.IsEmpty() {
		return nil
	}
	return n
}

// nearCard is a card of a list with a point (contract section 13): the
// specification's eight fields and distance_km (null for a remote posting
// the filter adds).
type nearCard struct {
	domain.JobCard
	DistanceKm *float64 `json:"distance_km"`
}

// cardsOf returns the data of a page of cards: the cards, or with a point
// the cards with their distance.
func cardsOf(page *domain.JobCardPage) any {
	if page.Normalized.Near == nil {
		return page.Nodes
	}
	out := make([]nearCard, len(page.Nodes))
	for i := range page.Nodes {
		out[i] = nearCard{JobCard: page.Nodes[i], DistanceKm: page.Nodes[i].DistanceKm}
	}
	return out
}

// cardOf returns a card as a list with a point (near) or without shows it;
// nil stays nil.
func cardOf(c *domain.JobCard, near bool) any {
	switch {
	case c == nil:
		return nil
	case near:
		return nearCard{JobCard: *c, DistanceKm: c.DistanceKm}
	}
	return c
}

// feed is the body of a page of the change feed.
type feed struct {
	Data []feedEntry `json:"data"`
	Meta feedMeta    `json:"meta"`
}

// feedEntry is one change: at is RFC 3339 UTC, to the second.
type feedEntry struct {
	ID     string            `json:"id"`
	Change domain.ChangeKind `json:"change"`
	At     string            `json:"at"`
}

// feedMeta is where a page of the feed ends; next_cursor is always given,
// so that a client at the end polls with it.
type feedMeta struct {
	Limit      int    `json:"limit"`
	HasMore    bool   `json:"has_more"`
	NextCursor string `json:"next_cursor"`
}

// feedBody returns the body of a page of the change feed.
func feedBody(page *domain.ChangePage) feed {
	data := make([]feedEntry, len(page.Nodes))
	for i, c := range page.Nodes {
		data[i] = feedEntry{ID: c.ID, Change: c.Change, At: domain.FormatTime(c.At)}
	}
	return feed{Data: data, Meta: feedMeta{Limit: page.PageInfo.Limit, HasMore: page.PageInfo.HasMore, NextCursor: page.PageInfo.NextCursor}}
}

// bodies are the buffers answers are encoded in, reused, so that an answer
// does not grow a fresh buffer by doubling to its size.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer kept for reuse.
const maxPooledBody = 256 << 10

// writeJSON writes v as the JSON body with the status (for HEAD, net/http
// sends the headers only).
func writeJSON(w http.ResponseWriter, _ *http.Request, status int, v any) {
	buf := bodies.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBody {
			buf.Reset()
			bodies.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":{"code":"internal","message":"internal error"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
