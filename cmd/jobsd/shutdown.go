package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// connTracker follows a server's connections (its listener's and
// ConnState's view), so that shutdown can wait for the requests whose
// headers are still arriving. net/http's Shutdown counts such a connection
// as new or idle, and drops the request once its headers are in.
type connTracker struct {
	mu    sync.Mutex
	conns map[*trackedConn]struct{}
}

func newConnTracker() *connTracker {
	return &connTracker{conns: map[*trackedConn]struct{}{}}
}

// trackedConn is a connection that remembers its state and whether bytes
// arrived since it last went idle: an idle connection that has read bytes
// is receiving its next request.
type trackedConn struct {
	net.Conn
	state atomic.Int32 // an http.ConnState
	read  atomic.Bool
}

// Read records that bytes arrived.
func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.read.Load() {
		c.read.Store(true)
	}
	return n, err
}

// CloseWrite half-closes the connection when the underlying one can (as
// net/http does before closing a connection whose request body it left
// unread).
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps the underlying connection's sendfile path, if any.
func (c *trackedConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// connState is the http.Server's ConnState hook.
func (t *connTracker) connState(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*trackedConn)
	if !ok {
		return
	}
	switch state {
	case http.StateIdle:
		c.read.Store(false) // set again by the next request's first bytes
	case http.StateHijacked, http.StateClosed:
		t.mu.Lock()
		delete(t.conns, c)
		t.mu.Unlock()
	}
	c.state.Store(int32(state))
}

// receiving counts the connections whose request's headers are arriving:
// new ones (net/http closes those silent for its ReadHeaderTimeout) and idle
// ones that have read bytes of their next request.
func (t *connTracker) receiving() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for c := range t.conns {
		switch http.ConnState(c.state.Load()) {
		case http.StateNew:
			n++
		case http.StateIdle:
			if c.read.Load() {
				n++
			}
		}
	}
	return n
}

// waitReceiving waits until no connection is receiving a request's
// headers, or until ctx is done; it returns how many still were.
func (t *connTracker) waitReceiving(ctx context.Context) int {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		n := t.receiving()
		if n == 0 {
			return 0
		}
		select {
		case <-ctx.Done():
			return n
		case <-tick.C:
		}
	}
}

// trackingListener wraps each accepted connection for a connTracker, and
// can stop accepting without making the server's Serve return: Accept then
// waits for Close, which Shutdown calls.
type trackingListener struct {
	net.Listener
	t                   *connTracker
	stopOnce, closeOnce sync.Once
	stopped, closed     chan struct{}
}

func (t *connTracker) listen(ln net.Listener) *trackingListener {
	return &trackingListener{Listener: ln, t: t, stopped: make(chan struct{}), closed: make(chan struct{})}
}

// Accept returns the next connection, wrapped and tracked from now on (in
// state new, the zero ConnState), so that no accepted connection escapes
// waitReceiving.
func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		select {
		case <-l.stopped:
			<-l.closed
			return nil, net.ErrClosed
		default:
			return nil, err
		}
	}
	tc := &trackedConn{Conn: c}
	l.t.mu.Lock()
	l.t.conns[tc] = struct{}{}
	l.t.mu.Unlock()
	return tc, nil
}

// stopAccepting closes the underlying listener: connections not yet
// accepted are refused from now on.
func (l *trackingListener) stopAccepting() {
	l.stopOnce.Do(func() {
		close(l.stopped)
		_ = l.Listener.Close()
	})
}

// Close stops accepting, and ends a waiting Accept.
func (l *trackingListener) Close() error {
	l.stopAccepting()
	l.closeOnce.Do(func() { close(l.closed) })
	return nil
}
