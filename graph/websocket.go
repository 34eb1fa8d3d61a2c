package graph

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// CloseForbidden is the WebSocket close code of a connection refused at
// connection_init: its API key is missing or unknown (section 15).
const CloseForbidden = 4403

// Intervals of the WebSocket transport: a connection must send
// connection_init within initTimeout; the server pings every pingInterval
// and closes a connection that does not answer within two intervals.
const (
	initTimeout  = 10 * time.Second
	pingInterval = 20 * time.Second
)

// socketTransport is gqlgen's WebSocket transport (protocols
// graphql-transport-ws and the older graphql-ws) with the API key checked
// at connection_init, a refusal closed with CloseForbidden (gqlgen's own
// refusal closes with 1000), and every connection closed when the server
// shuts down.
type socketTransport struct {
	transport.Websocket
}

var _ graphql.Transport = socketTransport{}

// newSocketTransport returns the transport. authenticate checks the key a
// connection presents and returns the context of its operations; closing
// ends every connection when it is done (nil: never).
func newSocketTransport(authenticate func(ctx context.Context, key string) (context.Context, error), closing context.Context) socketTransport {
	if closing == nil {
		closing = context.Background()
	}
	t := socketTransport{transport.Websocket{
		Upgrader: websocket.Upgrader{
			// The API key, not a cookie, authenticates a connection: a page of
			// any origin may open one (as CORS-enabled REST calls are made).
			CheckOrigin: func(*http.Request) bool { return true },
			// No buffer sizes: the connection reads and writes through the
			// HTTP server's buffers of the upgraded request, which the
			// hijack hands over, rather than through buffers of its own
			// besides.
		},
		InitTimeout:      initTimeout,
		PingPongInterval: pingInterval,
		// graphql-ws (the older protocol) has no ping: keep-alive messages.
		KeepAlivePingInterval: pingInterval,
	}}
	t.InitFunc = func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		key := payload.GetString("x-api-key")
		if key == "" {
			key = payload.GetString("X-Api-Key")
		}
		if key == "" {
			if hold, ok := ctx.Value(socketKey{}).(*socketConn); ok {
				key = hold.header
			}
		}
		authed, err := authenticate(ctx, key)
		if err != nil {
			forbid(ctx, err)
			return nil, nil, err
		}
		ctx = authed
		// The connection's operations end when the server shuts down, and
		// gqlgen then closes the socket.
		ctx, cancel := context.WithCancel(ctx)
		stop := context.AfterFunc(closing, cancel)
		if hold, ok := ctx.Value(socketKey{}).(*socketConn); ok {
			hold.release = func() { stop(); cancel() }
		}
		return ctx, nil, nil
	}
	t.CloseFunc = func(ctx context.Context, _ int) {
		if hold, ok := ctx.Value(socketKey{}).(*socketConn); ok && hold.release != nil {
			hold.release()
		}
	}
	return t
}

// socketKey marks a WebSocket request's context with its socketConn.
type socketKey struct{}

// socketConn is what the transport keeps of a WebSocket request: the
// connection once upgraded (to close it with a code of our own) and the
// x-api-key header, which a client other than a browser may send.
type socketConn struct {
	mu       sync.Mutex
	conn     net.Conn
	header   string
	release  func()
	upgraded chan struct{} // closed once conn is set
	// detach is the middleware's (WithDetach); ended what it returned.
	detach func() func()
	ended  func()
}

// close closes the connection, if it was upgraded.
func (s *socketConn) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		_ = s.conn.Close()
	}
}

// hijacked reports whether the connection was taken from the server.
func (s *socketConn) hijacked() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn != nil
}

// detachKey marks a WebSocket request's context with what the server's
// middleware wants told when the connection outlives the request's
// handler (WithDetach).
type detachKey struct{}

// WithDetach returns ctx for a WebSocket request whose middleware has
// work to do when the request ends (an access log line): once the
// connection is upgraded, the transport calls detach, and the handler
// returns while the connection lives on; the function detach returns is
// called, on the connection's goroutine, when the connection ends. A
// request that is not upgraded ends with its handler, and detach is not
// called.
func WithDetach(ctx context.Context, detach func() (ended func())) context.Context {
	return context.WithValue(ctx, detachKey{}, detach)
}

// Do implements graphql.Transport. The connection is served by a
// goroutine of its own, begun shallow: the request's goroutine, deep in
// the server's middleware, returns once the connection is hijacked (or
// the upgrade failed), rather than keeping the stack it grew there for as
// long as the socket lives. The connection's context is the request's
// without its end (the server ends the request when its handler
// returns); the connection ends with the socket, or at shutdown. What the
// request's context holds for its handler alone (chi's route context,
// which the router reuses) must not be read from the connection.
func (t socketTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	hold := &socketConn{header: r.Header.Get("x-api-key"), upgraded: make(chan struct{})}
	hold.detach, _ = r.Context().Value(detachKey{}).(func() func())
	ctx := context.WithValue(context.WithoutCancel(r.Context()), socketKey{}, hold)
	done := make(chan struct{})
	var panicked any // before the upgrade: the handler's to answer
	go func() {
		defer close(done)
		defer func() {
			if hold.ended != nil {
				hold.ended()
			}
		}()
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if !hold.hijacked() {
				panicked = p
				return
			}
			slog.Default().Error("the WebSocket connection's goroutine panicked", "panic", p, "stack", string(debug.Stack()))
			if hold.release != nil {
				hold.release()
			}
			hold.close()
		}()
		t.Websocket.Do(hijackRecorder{ResponseWriter: w, hold: hold}, r.WithContext(ctx), exec)
	}()
	select {
	case <-hold.upgraded:
	case <-done:
		if panicked != nil {
			panic(panicked)
		}
	}
}

// hijackRecorder hands the WebSocket upgrader the connection of any
// ResponseWriter that can be hijacked through Unwrap, and keeps it. Once
// the connection is hijacked, the request's handler returns (Do), so
// what is written through the ResponseWriter after that (gqlgen answers
// a handshake that fails after the hijack with an HTTP error) is dropped.
type hijackRecorder struct {
	http.ResponseWriter
	hold *socketConn
}

// Header implements http.ResponseWriter.
func (h hijackRecorder) Header() http.Header {
	if h.hold.hijacked() {
		return http.Header{}
	}
	return h.ResponseWriter.Header()
}

// WriteHeader implements http.ResponseWriter.
func (h hijackRecorder) WriteHeader(code int) {
	if !h.hold.hijacked() {
		h.ResponseWriter.WriteHeader(code)
	}
}

// Write implements http.ResponseWriter.
func (h hijackRecorder) Write(b []byte) (int, error) {
	if h.hold.hijacked() {
		return 0, http.ErrHijacked
	}
	return h.ResponseWriter.Write(b)
}

// Hijack implements http.Hijacker. The upgrader gets the connection with
// its writes bounded by search.PushWriteLimit; the request's middleware is told that
// the connection outlives the handler (WithDetach).
func (h hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	conn = stallBounded{conn, search.PushWriteLimit}
	if h.hold.detach != nil {
		h.hold.ended = h.hold.detach()
	}
	h.hold.mu.Lock()
	h.hold.conn = conn
	h.hold.mu.Unlock()
	close(h.hold.upgraded)
	return conn, rw, nil
}

// stallBounded is a connection whose every write must finish within its
// limit (gqlgen's transport sets no write deadline of its own).
type stallBounded struct {
	net.Conn
	limit time.Duration
}

// Write implements net.Conn.
func (c stallBounded) Write(p []byte) (int, error) {
	if err := c.Conn.SetWriteDeadline(time.Now().Add(c.limit)); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

// Close codes of a connection refused at connection_init for another
// reason than its key: too many failed authentications from its address
// (graphql-ws's code for too many initialisation requests: retry later),
// or the keys could not be checked (the server's fault: retry).
const (
	CloseTooManyInits = 4429
	CloseInternal     = websocket.CloseInternalServerErr
)

// closeCodeOf is the close code and reason of a refusal: CloseForbidden
// for a missing or unknown key, CloseTooManyInits when the address failed
// too often, CloseInternal when the keys could not be checked.
func closeCodeOf(err error) (int, string) {
	var appErr *domain.Error
	switch {
	case !errors.As(err, &appErr):
		return CloseInternal, "the API key cannot be checked"
	case appErr.Code == domain.CodeUnauthorized:
		return CloseForbidden, appErr.Message
	case appErr.Code == domain.CodeRateLimited:
		return CloseTooManyInits, appErr.Message
	}
	return CloseInternal, appErr.Message
}

// forbid closes a connection refused at connection_init with the code of
// the refusal (closeCodeOf) and its message. gqlgen has written nothing on
// it since the upgrade (the refusal comes before its acknowledgement), so
// the close frame is written on the connection itself.
func forbid(ctx context.Context, err error) {
	hold, ok := ctx.Value(socketKey{}).(*socketConn)
	if !ok {
		return
	}
	hold.mu.Lock()
	defer hold.mu.Unlock()
	if hold.conn == nil {
		return
	}
	code, msg := closeCodeOf(err)
	payload := websocket.FormatCloseMessage(code, shorten(msg, 120))
	frame := append([]byte{0x88, byte(len(payload))}, payload...) // FIN, close; unmasked from a server
	_ = hold.conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = hold.conn.Write(frame)
	_ = hold.conn.Close()
}

// transportRule refuses an operation sent over the wrong transport:
// subscriptions are served over a WebSocket only (an HTTP request cannot
// stay open for them), and a WebSocket serves subscriptions only (queries
// go over HTTP, where each one passes the key's rate limit).
type transportRule struct{}

var (
	_ graphql.HandlerExtension        = transportRule{}
	_ graphql.OperationContextMutator = transportRule{}
)

// ExtensionName implements graphql.HandlerExtension.
func (transportRule) ExtensionName() string { return "TransportRule" }

// Validate implements graphql.HandlerExtension.
func (transportRule) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (transportRule) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	_, socket := ctx.Value(socketKey{}).(*socketConn)
	subscription := oc.Operation.Operation == ast.Subscription
	var msg string
	switch {
	case subscription && !socket:
		msg = "subscriptions are served over a WebSocket at /graphql (protocol graphql-transport-ws, the graphql-ws client)"
	case socket && !subscription:
		msg = "a WebSocket serves subscriptions only: send queries with POST or GET to /graphql"
	default:
		return nil
	}
	e := gqlerror.Errorf("%s", msg)
	e.Extensions = map[string]any{"code": domain.CodeInvalidParameter}
	return e
}
