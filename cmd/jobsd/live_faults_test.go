package main_test

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestStreamsOfEveryInstance: two instances over one database each deliver
// an import's change to their own subscribers, with the same cursor.
func TestStreamsOfEveryInstance(t *testing.T) {
	dsn := pgtest.NewURL(t)
	a := loadedService(t, dsn)
	b := startServiceOn(t, dsn)
	b.key = a.key
	start := a.feedEnd(t)
	onA, onB := a.stream(t, "skills=golang&after="+start), b.stream(t, "skills=golang&after="+start)
	a.importLines(t, `{"id":"inst-1","title":"Go Developer","company":"Two Co","skills":["golang"]}`)
	_, idA, dataA := onA.next(t)
	_, idB, dataB := onB.next(t)
	assert.Equal(t, "inst-1", dataA["id"])
	assert.Equal(t, "inst-1", dataB["id"])
	assert.Equal(t, idA, idB, "one change, one cursor")
}

// TestExpiryIsDeliveredAtItsInstant: a posting that expires is a removed
// event at its valid_through, within a second of it.
func TestExpiryIsDeliveredAtItsInstant(t *testing.T) {
	s := startService(t)
	stream := s.stream(t, "skills=golang&after="+s.feedEnd(t))
	expires := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second)
	s.importLines(t, fmt.Sprintf(`{"id":"exp-1","title":"Go Developer","company":"Soon Co","skills":["golang"],"valid_through":%q}`,
		expires.Format(time.RFC3339)))
	kind, _, _ := stream.next(t)
	require.Equal(t, "added", kind)
	kind, _, data := stream.next(t)
	received := time.Now()
	require.Equal(t, "removed", kind)
	assert.Equal(t, "exp-1", data["id"])
	assert.Equal(t, expires.Format(time.RFC3339), data["at"], "at is the expiry's instant")
	assert.Less(t, received.Sub(expires), time.Second, "delivered within a second of the instant")
}

// TestStreamsSurviveADatabaseRestart: a stream open while the database
// restarts delivers what lands after, without a resync.
func TestStreamsSurviveADatabaseRestart(t *testing.T) {
	c := pgtest.NewCluster(t)
	s := loadedService(t, c.URL("postgres"))
	stream := s.stream(t, "skills=golang&after="+s.feedEnd(t))
	s.importLines(t, `{"id":"pg-1","title":"Go Developer","company":"Outage Co","skills":["golang"]}`)
	_, _, data := stream.next(t)
	require.Equal(t, "pg-1", data["id"])

	c.Stop()
	time.Sleep(time.Second)
	c.Start()
	s.waitReady(t, 20*time.Second, "ready again once the database is back")
	s.importLines(t, `{"id":"pg-2","title":"Go Developer","company":"Outage Co","skills":["golang"]}`)
	kind, _, data := stream.next(t)
	assert.Equal(t, "added", kind, "%v", data)
	assert.Equal(t, "pg-2", data["id"])
}

// TestStreamsEndCleanlyOnSIGTERM: on SIGTERM an event stream ends with an
// error event of code unavailable and the cursor to resume after, a
// WebSocket subscription with the same error, and the process exits
// cleanly.
func TestStreamsEndCleanlyOnSIGTERM(t *testing.T) {
	s := startService(t)
	start := s.feedEnd(t)
	stream := s.stream(t, "skills=golang&after="+start)
	s.importLines(t, `{"id":"term-1","title":"Go Developer","company":"Term Co","skills":["golang"]}`)
	_, delivered, _ := stream.next(t)

	ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.base, "http")+"/graphql",
		http.Header{"Sec-WebSocket-Protocol": {"graphql-transport-ws"}})
	require.NoError(t, err)
	resp.Body.Close()
	defer ws.Close()
	require.NoError(t, ws.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-key": s.key}}))
	var ack map[string]any
	require.NoError(t, ws.ReadJSON(&ack))
	require.Equal(t, "connection_ack", ack["type"])
	require.NoError(t, ws.WriteJSON(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query": `subscription { jobChanges { id } }`}}))
	require.Eventually(t, func() bool { return s.metric(t, `jobsd_subscriptions_open{transport="graphql"}`) == 1 },
		10*time.Second, 50*time.Millisecond)

	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	kind, _, data := stream.next(t)
	require.Equal(t, "error", kind)
	body := data["error"].(map[string]any)
	assert.Equal(t, "unavailable", body["code"])
	assert.Equal(t, delivered, body["cursor"], "the last cursor delivered")

	require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	var msg map[string]any
	for msg == nil || msg["type"] == "ping" {
		msg = nil
		require.NoError(t, ws.ReadJSON(&msg))
	}
	require.Equal(t, "error", msg["type"], "%v", msg)
	ext := msg["payload"].([]any)[0].(map[string]any)["extensions"].(map[string]any)
	assert.Equal(t, "unavailable", ext["code"])
	assert.NotEmpty(t, ext["cursor"])
	_, _, err = ws.ReadMessage()
	var closed *websocket.CloseError
	assert.ErrorAs(t, err, &closed, "then the socket is closed")
	assert.NoError(t, s.waitExit(t, 15*time.Second), "a clean exit")
}

// TestSocketsThatNeverStart: connections that upgrade and never send
// connection_init are closed after the init timeout, and meanwhile the
// service answers as before.
func TestSocketsThatNeverStart(t *testing.T) {
	s := startService(t)
	url := "ws" + strings.TrimPrefix(s.base, "http") + "/graphql"
	var conns []*websocket.Conn
	for range 300 {
		c, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Sec-WebSocket-Protocol": {"graphql-transport-ws"}})
		require.NoError(t, err)
		resp.Body.Close()
		conns = append(conns, c)
	}
	// Garbage on one of them closes it at once.
	require.NoError(t, conns[0].WriteMessage(websocket.TextMessage, []byte("\x00garbage")))
	status, _, _ := s.get(t, "/api/v1/jobs?skills=golang")
	assert.Equal(t, http.StatusOK, status, "the service answers while they idle")
	deadline := time.Now().Add(20 * time.Second)
	for i, c := range conns {
		require.NoError(t, c.SetReadDeadline(deadline))
		_, _, err := c.ReadMessage()
		var closed *websocket.CloseError
		var timeout net.Error
		require.False(t, assertTimeout(err, &timeout), "socket %d still open after 20 s", i)
		assert.ErrorAs(t, err, &closed, "socket %d", i)
	}
}

// assertTimeout reports whether err is a read timeout.
func assertTimeout(err error, target *net.Error) bool {
	ne, ok := err.(net.Error)
	if ok && ne.Timeout() {
		*target = ne
		return true
	}
	return false
}

// TestResumeAcrossARestart: a client resumes after its last cursor on a
// restarted instance and misses nothing that landed while it was down:
// the restart loads the index it saved, and the hub judges the changes
// since that index.
func TestResumeAcrossARestart(t *testing.T) {
	dsn := pgtest.NewURL(t)
	s := loadedService(t, dsn)
	require.Eventually(t, func() bool { return strings.Contains(s.logs.String(), `"msg":"index saved"`) },
		20*time.Second, 50*time.Millisecond, "the first start saves its index")
	stream := s.stream(t, "skills=golang&after="+s.feedEnd(t))
	s.importLines(t, `{"id":"rs-1","title":"Go Developer","company":"Restart Co","skills":["golang"]}`)
	_, cursor, _ := stream.next(t)

	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, s.waitExit(t, 15*time.Second))
	s.importLines(t, `{"id":"rs-2","title":"Go Developer","company":"Restart Co","skills":["golang"]}`)
	again := startServiceOn(t, dsn)
	again.key = s.key
	require.Contains(t, again.logs.String(), "index ready from the saved one")
	resumed := again.stream(t, "skills=golang&after="+cursor)
	kind, _, data := resumed.next(t)
	assert.Equal(t, "added", kind)
	assert.Equal(t, "rs-2", data["id"], "the posting that landed while it was down")
}
