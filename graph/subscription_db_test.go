package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/client"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/search"
)

// testKey is the one key the socket tests' endpoint accepts.
const testKey = "key-1"

// socketServer serves env's GraphQL endpoint with subscriptions over
// WebSocket, accepting testKey (counted as its own subscriber).
func socketServer(t *testing.T, env *apitest.Env, opts graph.HandlerOptions) string {
	t.Helper()
	opts.Authenticate = func(ctx context.Context, key string) (context.Context, error) {
		if key != testKey {
			return nil, domain.Errorf(domain.CodeUnauthorized, "the x-api-key is unknown or revoked")
		}
		return search.WithSubscriber(ctx, key, "graphql"), nil
	}
	srv := httptest.NewServer(env.GraphQL(opts))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// socket is a graphql-transport-ws client connection.
type socket struct {
	t    *testing.T
	conn *websocket.Conn
}

// dial opens a connection and, unless key is nil, sends connection_init
// with it and waits for the acknowledgement.
func dial(t *testing.T, url string, key *string) *socket {
	t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Sec-WebSocket-Protocol": {"graphql-transport-ws"}})
	require.NoError(t, err)
	resp.Body.Close()
	t.Cleanup(func() { conn.Close() })
	s := &socket{t: t, conn: conn}
	if key != nil {
		s.send(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-key": *key}})
		require.Equal(t, "connection_ack", s.read()["type"])
	}
	return s
}

func (s *socket) send(msg any) {
	s.t.Helper()
	require.NoError(s.t, s.conn.WriteJSON(msg))
}

// read returns the next message other than a ping.
func (s *socket) read() map[string]any {
	s.t.Helper()
	for {
		require.NoError(s.t, s.conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		var msg map[string]any
		require.NoError(s.t, s.conn.ReadJSON(&msg))
		if msg["type"] != "ping" {
			return msg
		}
	}
}

// subscribe starts operation id with the query and variables.
func (s *socket) subscribe(id, query string, vars map[string]any) {
	s.t.Helper()
	s.send(map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}})
}

// in returns the socket reporting to t, a subtest's, so that a failed
// read stops the subtest and not its parent.
func (s *socket) in(t *testing.T) *socket {
	return &socket{t: t, conn: s.conn}
}

// readOf returns the next message of operation id. It skips the
// completes of operations the client completed, which the server sends
// whenever their goroutine ends: before or after id's messages.
func (s *socket) readOf(id string) map[string]any {
	s.t.Helper()
	msg := s.read()
	for msg["type"] == "complete" && msg["id"] != id {
		msg = s.read()
	}
	require.Equal(s.t, id, msg["id"], "%v", msg)
	return msg
}

// errorOf reads operation id's error and returns its first error's
// extensions. gqlgen sends an error before the subscription runs as an
// error message, and a resolver's as a next message with errors and no
// data, then complete.
func (s *socket) errorOf(id string) map[string]any {
	s.t.Helper()
	msg := s.readOf(id)
	var errs []any
	switch msg["type"] {
	case "error":
		errs = msg["payload"].([]any)
	case "next":
		payload := msg["payload"].(map[string]any)
		require.Nil(s.t, payload["data"])
		errs = payload["errors"].([]any)
		done := s.readOf(id)
		require.Equal(s.t, "complete", done["type"], "%v", done)
	default:
		s.t.Fatalf("not an error: %v", msg)
	}
	require.NotEmpty(s.t, errs)
	return errs[0].(map[string]any)["extensions"].(map[string]any)
}

const watchGo = `subscription ($after: String) { jobChanges(filter: {skills: ["golang"]}, after: $after) { kind id cursor card { id title } } }`

// TestSubscriptionOverWebSocket: an event of a subscription over the
// socket as graphql-transport-ws sends it; a bad key is closed with 4403;
// the transports keep to their operations; the GraphQL limits apply to
// subscription documents; the per-key bound refuses one more subscription
// with rate_limited and keeps the socket; garbage closes the socket.
func TestSubscriptionOverWebSocket(t *testing.T) {
	env := apitest.NewWithOptions(t, `{"id":"ws-0","title":"Registered Nurse","company":"Socket Co"}`, apitest.Options{Live: true, LivePerKey: 2})
	require.Eventually(t, func() bool { return env.Hub.Position() > 0 }, 10*time.Second, 10*time.Millisecond)
	url := socketServer(t, env, graph.HandlerOptions{DepthLimit: 4})
	key := testKey

	s := dial(t, url, &key)
	s.subscribe("1", watchGo, nil)
	require.Eventually(t, func() bool { return env.Hub.Stats().Open["graphql"] == 1 }, 5*time.Second, 10*time.Millisecond)
	env.ImportLines(t, []string{`{"id":"ws-1","title":"Go Developer","company":"Socket Co","skills":["golang"]}`})
	msg := s.read()
	require.Equal(t, "next", msg["type"], "%v", msg)
	assert.Equal(t, "1", msg["id"])
	ev := msg["payload"].(map[string]any)["data"].(map[string]any)["jobChanges"].(map[string]any)
	assert.Equal(t, "ADDED", ev["kind"])
	assert.Equal(t, "ws-1", ev["id"])
	assert.Equal(t, "Go Developer", ev["card"].(map[string]any)["title"])

	t.Run("the per-key bound", func(t *testing.T) {
		s := s.in(t)
		s.subscribe("2", watchGo, nil)
		require.Eventually(t, func() bool { return env.Hub.Stats().Open["graphql"] == 2 }, 5*time.Second, 10*time.Millisecond)
		s.subscribe("3", watchGo, nil)
		assert.Equal(t, domain.CodeRateLimited, s.errorOf("3")["code"])
		s.send(map[string]any{"id": "2", "type": "complete"})
		require.Eventually(t, func() bool { return env.Hub.Stats().Open["graphql"] == 1 }, 5*time.Second, 10*time.Millisecond)
		s.subscribe("4", watchGo, nil) // room again; the socket stayed open
		require.Eventually(t, func() bool { return env.Hub.Stats().Open["graphql"] == 2 }, 5*time.Second, 10*time.Millisecond)
		s.send(map[string]any{"id": "4", "type": "complete"})
	})
	t.Run("limits apply to subscriptions", func(t *testing.T) {
		s := s.in(t)
		var aliases []string
		for i := range 11 {
			aliases = append(aliases, "a"+string(rune('a'+i))+": id")
		}
		s.subscribe("5", `subscription { jobChanges { `+strings.Join(aliases, " ")+` } }`, nil)
		assert.Equal(t, domain.CodeQueryTooComplex, s.errorOf("5")["code"])
	})
	t.Run("a filter error", func(t *testing.T) {
		s := s.in(t)
		s.subscribe("6", `subscription { jobChanges(filter: {postedWithin: "forever"}) { id } }`, nil)
		ext := s.errorOf("6")
		assert.Equal(t, domain.CodeInvalidParameter, ext["code"])
		assert.Equal(t, "postedWithin", ext["param"])
	})
	t.Run("a cursor older than what is kept", func(t *testing.T) {
		s := s.in(t)
		old := domain.FeedCursor{Seq: 0}.Encode()
		s.subscribe("7", watchGo, map[string]any{"after": old})
		ext := s.errorOf("7")
		assert.Equal(t, domain.CodeGone, ext["code"])
		assert.Equal(t, old, ext["cursor"])
	})
	t.Run("queries go over HTTP", func(t *testing.T) {
		s := s.in(t)
		s.subscribe("8", `{ jobs { totalCount } }`, nil)
		assert.Equal(t, domain.CodeInvalidParameter, s.errorOf("8")["code"])
		var resp struct{ Errors []gqlError }
		require.NoError(t, gqlPost(env, `subscription { jobChanges { id } }`, &resp))
		require.Len(t, resp.Errors, 1)
		assert.Equal(t, domain.CodeInvalidParameter, resp.Errors[0].Extensions.Code)
		assert.Contains(t, resp.Errors[0].Message, "WebSocket")
	})
	t.Run("a bad key is closed with 4403", func(t *testing.T) {
		for _, bad := range []string{"", "nope"} {
			refused := dial(t, url, nil)
			refused.send(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-key": bad}})
			_, _, err := refused.conn.ReadMessage()
			var closed *websocket.CloseError
			require.ErrorAs(t, err, &closed)
			assert.Equal(t, graph.CloseForbidden, closed.Code)
			assert.Contains(t, closed.Text, "unknown or revoked")
		}
	})
	t.Run("garbage closes the socket", func(t *testing.T) {
		g := dial(t, url, &key)
		require.NoError(t, g.conn.WriteMessage(websocket.TextMessage, []byte("{not json")))
		_, _, err := g.conn.ReadMessage()
		var closed *websocket.CloseError
		require.ErrorAs(t, err, &closed, "closed by the server")
	})
}

// gqlPost posts a query to env's GraphQL endpoint over HTTP and decodes
// the answer into v.
func gqlPost(env *apitest.Env, query string, v any) error {
	body, _ := json.Marshal(map[string]any{"query": query})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	env.GraphQL(graph.HandlerOptions{}).ServeHTTP(rec, req)
	return json.Unmarshal(rec.Body.Bytes(), v)
}

// TestTypedClientSubscribes: the typed Go client (package client) runs
// WatchJobs over the WebSocket with its key in connection_init, and gets
// the event of a posting imported after it.
func TestTypedClientSubscribes(t *testing.T) {
	env := apitest.NewWithOptions(t, `{"id":"ws-0","title":"Registered Nurse","company":"Socket Co"}`, apitest.Options{Live: true})
	require.Eventually(t, func() bool { return env.Hub.Position() > 0 }, 10*time.Second, 10*time.Millisecond)
	base := "http" + strings.TrimPrefix(socketServer(t, env, graph.HandlerOptions{}), "ws")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	ws := client.NewSubscriber(base, testKey)
	_, err := ws.Start(ctx)
	require.NoError(t, err)
	defer ws.Close()
	events, _, err := client.WatchJobs(ctx, ws, &client.JobFilter{Skills: []string{"golang"}}, nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return env.Hub.Stats().Open["graphql"] == 1 }, 5*time.Second, 10*time.Millisecond)
	env.ImportLines(t, []string{`{"id":"ws-2","title":"Go Developer","company":"Typed Co","skills":["golang"]}`})
	select {
	case ev := <-events:
		require.Empty(t, ev.Errors)
		change := ev.Data.JobChanges
		assert.Equal(t, client.JobChangeKindAdded, change.Kind)
		assert.Equal(t, "ws-2", change.Id)
		assert.NotEmpty(t, change.Cursor)
		require.NotNil(t, change.Card)
		assert.Equal(t, "Typed Co", change.Card.Company)
	case <-ctx.Done():
		t.Fatal("no event")
	}

	refused := client.NewSubscriber(base, "nope")
	_, err = refused.Start(ctx)
	assert.Error(t, err, "an unknown key is refused")
}
