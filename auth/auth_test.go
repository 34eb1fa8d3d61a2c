package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewKey(t *testing.T) {
	key, prefix, hash := NewKey()
	assert.Regexp(t, `^jobsd_[A-Za-z0-9_-]{32}$`, key, "192 random bits, URL-safe")
	assert.Equal(t, key[:14], prefix)
	assert.Equal(t, Hash(key), hash)
	other, _, _ := NewKey()
	assert.NotEqual(t, key, other)
}

func TestCheckerCachesAndLearnsOfRevocation(t *testing.T) {
	key, _, hash := NewKey()
	active := true
	lookups := 0
	c := NewChecker(func(_ context.Context, h []byte) (*Key, error) {
		lookups++
		if active && string(h) == string(hash) {
			return NewKeyInfo(7, "alice", h, 0, 0), nil
		}
		return nil, nil
	}, 5*time.Second)
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	ctx := context.Background()

	k, err := c.Check(ctx, key)
	require.NoError(t, err)
	require.NotNil(t, k)
	assert.Equal(t, "alice", k.Name)
	_, _ = c.Check(ctx, key)
	assert.Equal(t, 1, lookups, "the second check is served from the cache")

	active = false
	now = now.Add(6 * time.Second)
	k, err = c.Check(ctx, key)
	require.NoError(t, err)
	assert.Nil(t, k, "a revoked key stops working once its cache entry expires")

	k, err = c.Check(ctx, "jobsd_unknown")
	require.NoError(t, err)
	assert.Nil(t, k)
	k, err = c.Check(ctx, "")
	require.NoError(t, err)
	assert.Nil(t, k)
}

func TestCheckerPassesLookupErrors(t *testing.T) {
	boom := errors.New("database down")
	c := NewChecker(func(context.Context, []byte) (*Key, error) { return nil, boom }, time.Second)
	_, err := c.Check(context.Background(), "jobsd_x")
	assert.ErrorIs(t, err, boom, "an error is not cached as 'unknown key'")
}
