package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/rest"
)

// etag gives GET and HEAD responses with status 200 a strong ETag (a hash of
// the body as sent, so a gzipped body has its own tag) and answers a
// matching If-None-Match with 304 Not Modified.
func etag(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		buf := bufferedWriters.Get().(*bufferedWriter)
		defer buf.release()
		next.ServeHTTP(buf, r)
		for k, v := range buf.header {
			w.Header()[k] = v
		}
		status := buf.status
		if status == 0 {
			status = http.StatusOK
		}
		if status == http.StatusOK && w.Header().Get("ETag") == "" {
			sum := sha256.Sum256(buf.body.Bytes())
			tag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
			w.Header().Set("ETag", tag)
			if matches(r.Header.Get("If-None-Match"), tag) {
				for _, h := range []string{"Content-Type", "Content-Length"} {
					w.Header().Del(h)
				}
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		w.WriteHeader(status)
		_, _ = w.Write(buf.body.Bytes())
	})
}

// matches reports whether an If-None-Match header names tag (weak
// comparison, as RFC 9110 asks for If-None-Match).
func matches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}

// bufferedWriter holds a response until it is complete.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// bufferedWriters are reused, so that a response does not grow a fresh
// buffer by doubling to its body's size.
var bufferedWriters = sync.Pool{New: func() any { return &bufferedWriter{header: http.Header{}} }}

// maxPooledBody is the largest body whose buffer goes back to the pool; a
// rare huge answer's buffer is left to the collector.
const maxPooledBody = 256 << 10

// release empties b and puts it back in the pool. The header map is the
// one copied to the response's, so it is replaced, not cleared.
func (b *bufferedWriter) release() {
	if b.body.Cap() > maxPooledBody {
		return
	}
	b.header, b.status = http.Header{}, 0
	b.body.Reset()
	bufferedWriters.Put(b)
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// limitBody answers a request whose body is larger than max bytes with 413
// payload_too_large (GraphQL-shaped on /graphql), before any handler reads
// it. It reads the whole body, so it runs after requireKey: a request
// without a valid key is answered before its body is read.
func (s *server) limitBody(max int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			tooLarge := r.ContentLength > max
			if !tooLarge {
				body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
				var maxErr *http.MaxBytesError
				switch {
				case errors.As(err, &maxErr):
					tooLarge = true
				case err != nil:
					s.writeError(w, r, domain.Errorf(domain.CodeInvalidParameter, "the request body could not be read"))
					return
				default:
					r.Body = io.NopCloser(bytes.NewReader(body))
				}
			}
			if tooLarge {
				w.Header().Set("Connection", "close")
				s.writeError(w, r, domain.Errorf(domain.CodePayloadTooLarge, "the request body is larger than %d bytes", max))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// writeError writes an error in the shape of the endpoint the request is
// for: GraphQL's on /graphql, the REST body elsewhere.
func (s *server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if strings.HasPrefix(r.URL.Path, "/graphql") {
		writeGraphQLError(w, r, s.cfg.Log, err)
		return
	}
	rest.WriteError(w, r, s.cfg.Log, err)
}
