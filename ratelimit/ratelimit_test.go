package ratelimit

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalBucket(t *testing.T) {
	l := NewLocal()
	now := time.Unix(1000, 0)
	l.now = func() time.Time { return now }
	ctx := context.Background()
	shape := Limit{Rate: 2, Burst: 3}
	for i, want := range []int{2, 1, 0} {
		res, err := l.Allow(ctx, "k", shape)
		require.NoError(t, err)
		assert.True(t, res.Allowed, "request %d within the burst", i)
		assert.Equal(t, want, res.Remaining)
	}
	res, _ := l.Allow(ctx, "k", shape)
	assert.False(t, res.Allowed, "the burst is spent")
	assert.Equal(t, 500*time.Millisecond, res.RetryAfter, "one token comes every 1/rate seconds")
	assert.Equal(t, 1500*time.Millisecond, res.Reset, "three tokens to refill")
	other, _ := l.Allow(ctx, "other", shape)
	assert.True(t, other.Allowed, "keys have their own buckets")
	now = now.Add(500 * time.Millisecond)
	res, _ = l.Allow(ctx, "k", shape)
	assert.True(t, res.Allowed, "a token came back")
}

func TestRedisLimit(t *testing.T) {
	assert.Equal(t, 50, redisLimit(Limit{Rate: 50, Burst: 100}).Rate)
	assert.Equal(t, time.Second, redisLimit(Limit{Rate: 50, Burst: 100}).Period)
	l := redisLimit(Limit{Rate: 0.5, Burst: 1})
	assert.Equal(t, 30, l.Rate)
	assert.Equal(t, time.Minute, l.Period)
}

// redisURL is the Redis the tests use: JOBSD_TEST_REDIS_URL, by default
// database 15 of the local server (`make test` starts one if none runs).
func redisURL() string {
	if u := os.Getenv("JOBSD_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/15"
}

func TestRedisSharesBucketsAcrossInstances(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, client, err := NewRedis(redisURL(), log)
	require.NoError(t, err)
	defer client.Close()
	require.NoError(t, client.Ping(context.Background()).Err(), "Redis for tests at %s", redisURL())
	b, clientB, err := NewRedis(redisURL(), log)
	require.NoError(t, err)
	defer clientB.Close()

	ctx := context.Background()
	key := fmt.Sprintf("test-%d", time.Now().UnixNano())
	shape := Limit{Rate: 1, Burst: 4}
	allowed := 0
	for i := range 8 {
		inst := a
		if i%2 == 1 {
			inst = b
		}
		res, err := inst.Allow(ctx, key, shape)
		require.NoError(t, err)
		if res.Allowed {
			allowed++
		} else {
			assert.Greater(t, res.RetryAfter, time.Duration(0))
		}
	}
	assert.Equal(t, 4, allowed, "two instances share one burst of 4")
}

func TestRedisOutageFallsBackToLocal(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r, client, err := NewRedis("redis://127.0.0.1:1/0", log)
	require.NoError(t, err)
	defer client.Close()
	shape := Limit{Rate: 1, Burst: 1}
	first, err := r.Allow(context.Background(), "k", shape)
	require.NoError(t, err)
	assert.True(t, first.Allowed)
	second, _ := r.Allow(context.Background(), "k", shape)
	assert.False(t, second.Allowed, "the limit still holds without Redis")
}
