package search

import (
	"context"
	"sync"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
)

// Live opens subscriptions (live.Hub implements it).
type Live interface {
	// Subscribe opens a subscription to q's results, delivering the
	// changes after the cursor after (nil: from now on); via names its
	// transport, for the figures.
	Subscribe(ctx context.Context, q domain.JobQuery, after *domain.FeedCursor, via string) (domain.Subscription, error)
}

// DefaultMaxSubscriptionsPerKey is how many subscriptions and streams one
// API key may hold open at once by default.
const DefaultMaxSubscriptionsPerKey = 100

// PushWriteLimit bounds each write of what a subscription pushes (a
// WebSocket frame, a stream's event or heartbeat): a client that reads
// nothing of it for that long is disconnected, rather than holding its
// subscriptions and its connection's writer forever.
const PushWriteLimit = 10 * time.Second

// WithLive makes the service open subscriptions through l, at most
// perKey open at once for one API key (0: DefaultMaxSubscriptionsPerKey).
func WithLive(l Live, perKey int) Option {
	if perKey <= 0 {
		perKey = DefaultMaxSubscriptionsPerKey
	}
	return func(s *Service) { s.live, s.liveLimit = l, &keyCounts{limit: perKey, open: map[string]int{}} }
}

// subscriberKey marks a context with who a subscription is for.
type subscriberKey struct{}

// subscriber is who opens a subscription: its API key and transport.
type subscriber struct{ key, via string }

// WithSubscriber returns a context whose subscriptions count against the
// API key named key (its rate-limit bucket), and are counted in the
// figures under the transport via ("graphql", "sse").
func WithSubscriber(ctx context.Context, key, via string) context.Context {
	return context.WithValue(ctx, subscriberKey{}, subscriber{key: key, via: via})
}

// keyCounts counts the open subscriptions of each key.
type keyCounts struct {
	limit int
	mu    sync.Mutex
	open  map[string]int
}

// take counts one more subscription of key, or refuses it at the limit.
func (k *keyCounts) take(key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.open[key] >= k.limit {
		return domain.Errorf(domain.CodeRateLimited,
			"this API key holds %d open subscriptions and streams, the most allowed; close one first", k.limit)
	}
	k.open[key]++
	return nil
}

// release counts one subscription of key less.
func (k *keyCounts) release(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.open[key]--; k.open[key] <= 0 {
		delete(k.open, key)
	}
}

// Subscribe opens a subscription to the results of filter (read once, as
// Jobs reads it): the changes committed after after (a change-feed cursor,
// nil for those after now), as events relative to the filter. A filter
// error is Jobs' error; after is checked as Changes checks it (gone when
// purged). The key of ctx (WithSubscriber) may hold only so many open.
func (s *Service) Subscribe(ctx context.Context, filter *domain.JobFilter, after *string) (domain.Subscription, error) {
	if s.live == nil {
		return nil, domain.Errorf(domain.CodeUnavailable, "this server does not serve subscriptions")
	}
	q, err := s.jobQuery(filter, Page{}, nil)
	if err != nil {
		return nil, err
	}
	var from *domain.FeedCursor
	if after != nil {
		c, err := feedCursor(after)
		if err != nil {
			return nil, err
		}
		if _, _, _, err := s.store.Changes(ctx, c, 1); err != nil {
			return nil, err // gone, when a purge removed what follows it
		}
		from = &c
	}
	who, _ := ctx.Value(subscriberKey{}).(subscriber)
	key := who.key
	if err := s.liveLimit.take(key); err != nil {
		return nil, err
	}
	sub, err := s.live.Subscribe(ctx, q, from, who.via)
	if err != nil {
		s.liveLimit.release(key)
		return nil, err
	}
	counted := &countedSub{Subscription: sub, release: sync.OnceFunc(func() { s.liveLimit.release(key) })}
	if ready, ok := sub.(domain.ReadySubscription); ok {
		return readySub{countedSub: counted, ready: ready}, nil
	}
	return counted, nil
}

// countedSub is a subscription that counts against its key until closed.
type countedSub struct {
	domain.Subscription
	release func()
}

// Close implements domain.Subscription.
func (c *countedSub) Close() {
	c.Subscription.Close()
	c.release()
}

// readySub is a countedSub of a domain.ReadySubscription.
type readySub struct {
	*countedSub
	ready domain.ReadySubscription
}

// TryNext implements domain.ReadySubscription.
func (r readySub) TryNext(ctx context.Context) (*domain.JobChangeEvent, bool, error) {
	return r.ready.TryNext(ctx)
}

// OnReady implements domain.ReadySubscription.
func (r readySub) OnReady(f func()) { r.ready.OnReady(f) }
