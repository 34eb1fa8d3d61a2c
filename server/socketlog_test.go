package server_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/search/searchtest"
	"github.com/jobsd-dev/jobsd/server"
)

// lockedBuffer is a buffer written by one goroutine and read by another.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestSocketIsLoggedWhenItEnds: the handler of a WebSocket's request
// returns once the connection is upgraded, but the socket's access log
// line is written when the socket ends: status 101, the key that
// connection_init presented, and the socket's whole life.
func TestSocketIsLoggedWhenItEnds(t *testing.T) {
	var access lockedBuffer
	h, key := newHandlerWith(t, &searchtest.Store{}, slog.New(slog.DiscardHandler), 0, func(c *server.Config) {
		c.AccessLog = slog.New(slog.NewJSONHandler(&access, nil))
	})
	srv := newServerOf(t, h)
	conn, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
		http.Header{"Sec-WebSocket-Protocol": {"graphql-transport-ws"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.NoError(t, conn.WriteJSON(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-key": key}}))
	var ack map[string]any
	require.NoError(t, conn.ReadJSON(&ack))
	require.Equal(t, "connection_ack", ack["type"])
	time.Sleep(100 * time.Millisecond)
	assert.NotContains(t, access.String(), `"path":"/graphql"`, "no line while the socket is open")
	require.NoError(t, conn.Close())

	var entry struct {
		Path     string  `json:"path"`
		Status   int     `json:"status"`
		Key      string  `json:"key"`
		Duration float64 `json:"duration_ms"`
	}
	require.Eventually(t, func() bool { return strings.Contains(access.String(), `"path":"/graphql"`) }, 5*time.Second, 10*time.Millisecond)
	for _, line := range strings.Split(strings.TrimSpace(access.String()), "\n") {
		if strings.Contains(line, `"path":"/graphql"`) {
			require.NoError(t, json.Unmarshal([]byte(line), &entry))
		}
	}
	assert.Equal(t, http.StatusSwitchingProtocols, entry.Status)
	assert.Equal(t, "test", entry.Key)
	assert.GreaterOrEqual(t, entry.Duration, 100.0, "the socket's life")
}

// newServerOf serves h until the test ends.
func newServerOf(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
