package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// eventStreamPath is the REST event stream's path (section 15).
const eventStreamPath = "/api/v1/jobs/stream"

// isSocket reports a WebSocket upgrade of /graphql.
func isSocket(r *http.Request) bool {
	return r.URL.Path == "/graphql" && r.Header.Get("Upgrade") != ""
}

// streaming reports a request answered over a connection that lasts: a
// WebSocket of /graphql or an event stream. The middleware that buffers a
// response (ETag, gzip) or bounds its time passes them by.
func streaming(r *http.Request) bool {
	return isSocket(r) || r.URL.Path == eventStreamPath
}

// unlessStreaming applies mw to every request but the streams.
func unlessStreaming(mw func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return unless(streaming, mw)
}

// unlessSocket applies mw to every request but WebSocket upgrades.
func unlessSocket(mw func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return unless(isSocket, mw)
}

// unless applies mw to the requests for which skip is false.
func unless(skip func(*http.Request) bool, mw func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		wrapped := mw(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if skip(r) {
				next.ServeHTTP(w, r)
				return
			}
			wrapped.ServeHTTP(w, r)
		})
	}
}

// socketAddrKey marks a WebSocket request's context with its client's
// address, for the limit on failed authentications.
type socketAddrKey struct{}

// socketAddr records a WebSocket request's client address in its context.
func (s *server) socketAddr(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isSocket(r) {
			r = r.WithContext(context.WithValue(r.Context(), socketAddrKey{}, s.client(r)))
		}
		next.ServeHTTP(w, r)
	})
}

// authenticateSocket checks the API key a WebSocket connection presented
// at connection_init, as requireKey checks a request's header, and
// returns the context of the connection's operations: its subscriptions
// count against the key.
func (s *server) authenticateSocket(ctx context.Context, presented string) (context.Context, error) {
	addr, _ := ctx.Value(socketAddrKey{}).(string)
	key, err := s.cfg.Keys.Check(ctx, presented, addr)
	var tooMany *auth.TooManyFailuresError
	switch {
	case errors.As(err, &tooMany):
		return nil, domain.Errorf(domain.CodeRateLimited, "too many connections from this address failed to authenticate; retry in %s s",
			strconv.Itoa(max(1, ceilSeconds(tooMany.RetryAfter))))
	case err != nil:
		if domain.ErrorCode(err) == domain.CodeInternal {
			s.cfg.Log.ErrorContext(ctx, "internal error checking a WebSocket's key", "error", err.Error())
		}
		return nil, err
	case key == nil && presented == "":
		return nil, domain.Errorf(domain.CodeUnauthorized, `connection_init's payload needs the API key: {"x-api-key": "…"}`)
	case key == nil && !auth.WellFormed(presented):
		return nil, domain.Errorf(domain.CodeUnauthorized, "the x-api-key is not a jobsd key")
	case key == nil:
		return nil, domain.Errorf(domain.CodeUnauthorized, "the x-api-key is unknown or revoked")
	}
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		info.key, info.apiKey = key.Name, key
	}
	s.touch(key.ID)
	return search.WithSubscriber(ctx, key.BucketID(), "graphql"), nil
}
