package graph

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/jobsd-dev/jobsd/domain"
)

// forward hands a subscription's events to gqlgen's WebSocket transport
// until the subscription or the operation ends. An end other than the
// client's (resync_required, gone, unavailable) is sent as the
// operation's error, with the cursor to resume after.
func (r *Resolver) forward(ctx context.Context, sub domain.Subscription) <-chan *domain.JobChangeEvent {
	ch := make(chan *domain.JobChangeEvent)
	if ready, ok := sub.(domain.ReadySubscription); ok {
		p := &pump{r: r, ctx: ctx, sub: ready, ch: ch}
		ready.OnReady(p.kick)
		context.AfterFunc(ctx, p.kick)
		p.kick() // what a resumed subscription replays
		return ch
	}
	go func() {
		defer close(ch)
		defer sub.Close()
		for {
			ev, err := sub.Next(ctx)
			if err != nil {
				if ctx.Err() == nil {
					r.endWith(ctx, err)
				}
				return
			}
			select {
			case ch <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

// endWith makes err the error the transport ends the operation with. Only
// the WebSocket transport serves subscriptions, and it gives their
// contexts the place for it.
func (r *Resolver) endWith(ctx context.Context, err error) {
	defer func() {
		if recover() != nil {
			r.log.WarnContext(ctx, "a subscription ended outside the WebSocket transport", "err", err)
		}
	}()
	transport.AddSubscriptionError(ctx, r.present(ctx, err))
}

// pump forwards a ReadySubscription's events with a goroutine only while
// some are ready: an idle subscription holds none (a goroutine's stack is
// most of what one costs). kick starts it, or has the running one look
// again before it stops.
type pump struct {
	r   *Resolver
	ctx context.Context
	sub domain.ReadySubscription
	ch  chan *domain.JobChangeEvent

	mu                   sync.Mutex
	running, again, done bool
}

// kick runs the pump if it is not running (OnReady, and the operation's
// end).
func (p *pump) kick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.done:
	case p.running:
		p.again = true
	default:
		p.running = true
		go p.run()
	}
}

// run sends the events that are ready, then stops; at the end of the
// subscription or of the operation it closes the channel.
func (p *pump) run() {
	for {
		if p.ctx.Err() != nil {
			p.finish()
			return
		}
		ev, ok, err := p.sub.TryNext(p.ctx)
		switch {
		case err != nil:
			if p.ctx.Err() == nil {
				p.r.endWith(p.ctx, err)
			}
			p.finish()
			return
		case !ok:
			p.mu.Lock()
			if p.again {
				p.again = false
				p.mu.Unlock()
				continue
			}
			p.running = false
			p.mu.Unlock()
			return
		}
		select {
		case p.ch <- ev:
		case <-p.ctx.Done():
			p.finish()
			return
		}
	}
}

// finish ends the subscription and closes the channel, once.
func (p *pump) finish() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
	p.sub.Close()
	close(p.ch)
}
