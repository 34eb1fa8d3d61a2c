// Package ratelimit limits the requests of each API key with a token bucket,
// the contract's per-key rate limit: in process for one instance, or in
// Redis so that several instances behind a load balancer share each key's
// bucket.
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"
)

// Limit is a bucket's shape: Rate tokens a second, up to Burst.
type Limit struct {
	Rate  float64
	Burst int
}

// Result is a decision and what the rate-limit headers report.
type Result struct {
	Allowed bool
	// Remaining is how many requests may be made now without waiting.
	Remaining int
	// Reset is how long until the bucket is full again.
	Reset time.Duration
	// RetryAfter is how long until the next request is allowed (denials).
	RetryAfter time.Duration
}

// Limiter decides whether a key may make a request now.
type Limiter interface {
	Allow(ctx context.Context, key string, l Limit) (Result, error)
}

// Local keeps the buckets in this process.
type Local struct {
	now     func() time.Time
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	lim   *rate.Limiter
	shape Limit
}

// NewLocal returns an in-process limiter.
func NewLocal() *Local {
	return &Local{now: time.Now, buckets: map[string]*bucket{}}
}

// Allow takes a token from the key's bucket if one is there.
func (l *Local) Allow(_ context.Context, key string, shape Limit) (Result, error) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok || b.shape != shape {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(shape.Rate), shape.Burst), shape: shape}
		l.buckets[key] = b
	}
	allowed := b.lim.AllowN(now, 1)
	tokens := b.lim.TokensAt(now)
	res := Result{
		Allowed:   allowed,
		Remaining: max(0, int(math.Floor(tokens))),
		Reset:     seconds((float64(shape.Burst) - tokens) / shape.Rate),
	}
	if !allowed {
		res.RetryAfter = seconds((1 - tokens) / shape.Rate)
	}
	return res, nil
}

func seconds(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// Redis keeps the buckets in Redis (GCRA, as go-redis/redis_rate does it),
// shared by every instance that uses the same Redis. When Redis cannot be
// reached it falls back to a bucket in this process, so that an outage of
// Redis neither stops the service nor lifts the limit.
type Redis struct {
	limiter  *redis_rate.Limiter
	fallback *Local
	log      *slog.Logger

	mu        sync.Mutex
	downUntil time.Time // after a failure, Redis is left alone until then
}

// retryRedisAfter is how long a failure keeps requests off Redis, so that an
// outage costs one slow call every few seconds, not one per request.
const retryRedisAfter = 5 * time.Second

// NewRedis returns a limiter over the Redis at url (redis://host:port/db).
func NewRedis(url string, log *slog.Logger) (*Redis, *redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 500*time.Millisecond, 500*time.Millisecond, 500*time.Millisecond
	opts.MaxRetries = 0
	client := redis.NewClient(opts)
	return &Redis{limiter: redis_rate.NewLimiter(client), fallback: NewLocal(), log: log}, client, nil
}

// Allow takes a token from the key's shared bucket.
func (r *Redis) Allow(ctx context.Context, key string, shape Limit) (Result, error) {
	r.mu.Lock()
	down := time.Now().Before(r.downUntil)
	r.mu.Unlock()
	if down {
		return r.fallback.Allow(ctx, key, shape)
	}
	res, err := r.limiter.Allow(ctx, "jobsd:"+key, redisLimit(shape))
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		r.mu.Lock()
		r.downUntil = time.Now().Add(retryRedisAfter)
		r.mu.Unlock()
		r.log.Warn("rate limit: Redis unreachable, limiting in process for a while", "error", err.Error(), "retry_in", retryRedisAfter.String())
		return r.fallback.Allow(ctx, key, shape)
	}
	out := Result{Allowed: res.Allowed > 0, Remaining: res.Remaining, Reset: max(0, res.ResetAfter)}
	if !out.Allowed {
		out.RetryAfter = max(0, res.RetryAfter)
	}
	return out, nil
}

// redisLimit expresses a rate as whole tokens per period, as redis_rate
// counts them: per second when the rate is whole, else per minute or hour.
func redisLimit(l Limit) redis_rate.Limit {
	for _, period := range []time.Duration{time.Second, time.Minute, time.Hour} {
		n := l.Rate * period.Seconds()
		if n == math.Trunc(n) || period == time.Hour {
			return redis_rate.Limit{Rate: max(1, int(math.Round(n))), Burst: l.Burst, Period: period}
		}
	}
	panic("unreachable")
}
