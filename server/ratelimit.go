package server

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jobsd-dev/jobsd/auth"
	"github.com/jobsd-dev/jobsd/domain"
)

// allow takes a token from the key's bucket and writes the rate-limit
// headers; over the limit it answers 429 rate_limited with Retry-After and
// returns false.
func (s *server) allow(w http.ResponseWriter, r *http.Request, key *auth.Key, writeErr errorWriter) bool {
	shape := s.cfg.DefaultLimit
	if key.Rate > 0 {
		shape.Rate = key.Rate
	}
	if key.Burst > 0 {
		shape.Burst = key.Burst
	}
	res, err := s.cfg.Limiter.Allow(r.Context(), key.BucketID(), shape)
	if err != nil {
		writeErr(w, r, s.cfg.Log, err)
		return false
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.FormatFloat(shape.Rate, 'f', -1, 64))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(res.Remaining))
	h.Set("X-RateLimit-Reset", strconv.Itoa(ceilSeconds(res.Reset)))
	if res.Allowed {
		return true
	}
	retry := max(1, ceilSeconds(res.RetryAfter))
	h.Set("Retry-After", strconv.Itoa(retry))
	writeErr(w, r, s.cfg.Log, domain.Errorf(domain.CodeRateLimited,
		"this key may make %g requests a second (bursts of %d); retry in %d s", shape.Rate, shape.Burst, retry))
	return false
}

func ceilSeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}
