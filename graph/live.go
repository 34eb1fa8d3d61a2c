package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/jobsd-dev/jobsd/domain"
)

// forward hands a subscription's events to gqlgen's WebSocket transport
// until the subscription or the operation ends. An end other than the
// client's (resync_required, gone, unavailable) is sent as the
// operation's error, with the cursor to resume after.
func (r *Resolver) forward(ctx context.Context, sub domain.Subscription) <-chan *domain.JobChangeEvent {
	ch := make(chan *domain.JobChangeEvent)
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
