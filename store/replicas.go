package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/domain"
)

// replicaSet sends job and company reads to read replicas in turn. A
// replica that cannot be reached is left alone for a while, and the read
// goes to the primary instead, so a replica outage costs no failed request.
type replicaSet struct {
	dbs  []bun.IDB
	next atomic.Uint64

	mu        sync.Mutex
	downUntil []time.Time
}

// replicaRetryAfter is how long an unreachable replica gets no reads.
const replicaRetryAfter = 5 * time.Second

// WithReplicas returns a Store that reads jobs and companies from the
// replicas (falling back to s's database) and does everything else on s's.
func (s *Store) WithReplicas(replicas ...bun.IDB) *Store {
	if len(replicas) == 0 {
		return s
	}
	return &Store{db: s.db, index: s.index, log: s.log, replicas: &replicaSet{dbs: replicas, downUntil: make([]time.Time, len(replicas))}}
}

// read runs fn on a replica that is up, or on the primary when there is
// none or the replica turns out to be unreachable.
func (s *Store) read(ctx context.Context, fn func(db bun.IDB) error) error {
	rs := s.replicas
	if rs == nil {
		return fn(s.db)
	}
	now := time.Now()
	start := int(rs.next.Add(1))
	for i := range rs.dbs {
		k := (start + i) % len(rs.dbs)
		rs.mu.Lock()
		up := now.After(rs.downUntil[k])
		rs.mu.Unlock()
		if !up {
			continue
		}
		err := fn(rs.dbs[k])
		if domain.ErrorCode(err) != domain.CodeUnavailable || ctx.Err() != nil {
			return err
		}
		rs.mu.Lock()
		rs.downUntil[k] = time.Now().Add(replicaRetryAfter)
		rs.mu.Unlock()
	}
	return fn(s.db)
}

// readPrimary runs fn on the primary, as read does without replicas.
func (s *Store) readPrimary(_ context.Context, fn func(db bun.IDB) error) error { return fn(s.db) }

// readSnapshot runs fn as read does, in one REPEATABLE READ read-only
// transaction: every statement of fn reads the same snapshot, so that a
// page and its total (or a company and its counts) agree while imports
// commit. It costs two round trips more than read.
func (s *Store) readSnapshot(ctx context.Context, fn func(db bun.IDB) error) error {
	return s.read(ctx, func(db bun.IDB) error {
		var fnErr error
		err := db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, func(ctx context.Context, tx bun.Tx) error {
			fnErr = fn(tx)
			return fnErr
		})
		if err != nil && fnErr == nil {
			return wrap(err, "read a snapshot")
		}
		return err
	})
}
