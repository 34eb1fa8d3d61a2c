package store

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/jobsd-dev/jobsd/currency"
	"github.com/jobsd-dev/jobsd/index"
)

// Indexer keeps an in-process index (package index) of the store's open
// jobs current. It builds one at start; after that it follows the change
// feed (job_changes), applying the changes after its index's last one as a
// layer over the built base (index.Index.Apply), every poll and at once
// when a request finds a page changed. When the layer grows large it
// builds a new base in the background, serving the layered index
// meanwhile. An index is always of one change of the feed (its Version):
// it answers exactly as of that change, and the store checks, in the
// statement that reads a page's rows, that none of them changed since.
type Indexer struct {
	db   *bun.DB // builds read from it
	tail *bun.DB // catch-ups read from it
	log  *slog.Logger
	poll time.Duration
	mem  MemoryTuner
	// cacheDir, when set, is where built bases are saved and the last is
	// loaded from at start (indexcache.go).
	cacheDir string
	// rates are the current reference rates salaries are converted at;
	// an index of other rates is rebuilt.
	rates func() *currency.Rates
	// onAdvance hears each move of current (IndexOptions.OnAdvance).
	onAdvance func(prev, cur *index.Index)

	current atomic.Pointer[index.Index]
	ready   chan struct{}
	kick    chan struct{}
	rebuilt chan *index.Index
	// mu makes catch-ups (the loop's and requests') one at a time.
	mu         sync.Mutex
	rebuilding atomic.Bool

	built, applied atomic.Int64 // builds done, changed jobs applied
	// answered counts the lists and facets the index answered; staleHits
	// the pages found changed since the index; sqlAnswers the lists the
	// index could have answered that SQL answered instead.
	answered, staleHits, sqlAnswers atomic.Int64
	// freshAt is when (unix nanoseconds) the index was last found current
	// or brought up to date; behindSince when it was last found behind
	// while current before (0: not behind); behind how many changes it
	// was behind at the last check.
	freshAt, behindSince, behind atomic.Int64
}

// IndexOptions tune an Indexer.
type IndexOptions struct {
	// Poll is how often the change feed is checked (default 100ms).
	Poll time.Duration
	Log  *slog.Logger
	// Memory, when set, is told of the indexer's phases, to keep the
	// process's memory in step with the index (cmd/jobsd passes
	// memtune.Runtime); nil leaves the runtime as it is.
	Memory MemoryTuner
	// DB is the database the indexer reads its builds from (default the
	// store's). A pool of its own keeps a build, which holds a connection
	// for as long as it reads every job, from taking one that requests
	// need. Catch-ups, short reads, use the store's.
	DB *bun.DB
	// CacheDir, when set, is a directory of this machine where each
	// built index is saved, and from which the next start loads the last
	// one and applies the changes since, instead of building anew.
	CacheDir string
	// OnAdvance, when set, hears each move of the current index: prev the
	// index before (nil for the first) and cur the one now current. It is
	// called in the order of the moves, under the indexer's lock: it must
	// not block (live.Hub.Advance only records the pair). An index loaded
	// from the cache is heard before the first current one, both with a
	// nil prev (neither follows a current index), so that the changes since
	// the saved one are heard too.
	OnAdvance func(prev, cur *index.Index)
	// Rates returns the current reference rates (nil: none; the default).
	// When they change, the index is built anew at them; meanwhile the
	// queries that compare salaries are answered in SQL.
	Rates func() *currency.Rates
}

// MemoryTuner tunes the process's memory around the indexer's phases: the
// index dominates the live heap, and a build holds two.
type MemoryTuner interface {
	// Tune fits the collector to the live heap as of the last collection:
	// after a build or a load, and now and then between builds.
	Tune()
	// RoomForBuild makes room for a build beside the current index, of
	// indexBytes (its SizeInBytes).
	RoomForBuild(indexBytes uint64)
	// Lift removes the tuned limit (a first build, before a load's
	// collection).
	Lift()
	// Release gives the memory of an index no longer used back.
	Release()
}

// retuneEvery is how often the indexer tunes the memory between builds.
const retuneEvery = 2 * time.Second

// StartIndex starts keeping an index of the database's jobs until ctx ends,
// and makes the store's job lists and facets use it. It reads from the
// primary database.
func (s *Store) StartIndex(ctx context.Context, opts IndexOptions) (*Indexer, error) {
	primary, ok := s.db.(*bun.DB)
	if !ok {
		return nil, errors.New("start index: the store must be over a database, not a transaction")
	}
	db := opts.DB
	if db == nil {
		db = primary
	}
	if opts.Poll <= 0 {
		opts.Poll = 100 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Rates == nil {
		opts.Rates = func() *currency.Rates { return nil }
	}
	if opts.OnAdvance == nil {
		opts.OnAdvance = func(prev, cur *index.Index) {}
	}
	x := &Indexer{db: db, tail: primary, log: opts.Log, poll: opts.Poll, mem: opts.Memory, cacheDir: opts.CacheDir, rates: opts.Rates, onAdvance: opts.OnAdvance,
		ready: make(chan struct{}), kick: make(chan struct{}, 1), rebuilt: make(chan *index.Index, 1)}
	s.index = x
	go x.run(ctx)
	return x, nil
}

// readyLag is how far behind the feed the index may fall before the
// instance stops being ready: it answers then, but not at full speed.
const readyLag = 30 * time.Second

// usableLag is how long since the index was last found current that
// requests still use it: past it, the feed cannot be read, and lists are
// answered in SQL.
const usableLag = 5 * time.Second

// Ready reports whether the index is built and at most readyLag behind.
func (x *Indexer) Ready() bool {
	select {
	case <-x.ready:
	default:
		return false
	}
	now := time.Now().UnixNano()
	since := x.behindSince.Load()
	return now-x.freshAt.Load() < int64(readyLag) && (since == 0 || now-since < int64(readyLag))
}

// WaitReady waits for the first index, or for ctx to end.
func (x *Indexer) WaitReady(ctx context.Context) error {
	select {
	case <-x.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// IndexStats are an Indexer's counters and its distance behind the feed.
type IndexStats struct {
	Builds     int64 // indexes built
	Applied    int64 // changed jobs applied to an index without a build
	Answered   int64 // job lists and facet sets answered with the index
	Stale      int64 // requests that found the feed past the index (each then waits for a catch-up)
	SQLAnswers int64 // lists the index could not answer in time, answered in SQL
	// BehindChanges and Behind are how many changes of the feed the
	// index lacked at its last check, and for how long it has lacked
	// some (0 when current).
	BehindChanges int64
	Behind        time.Duration
	Jobs          int // jobs in the index
	DeltaJobs     int // jobs changed since its base was built
	// Bytes is the size of the index's arrays and bitmaps (its layer's
	// included): most of the process's live heap.
	Bytes uint64
}

// Stats returns the indexer's counters.
func (x *Indexer) Stats() IndexStats {
	st := IndexStats{Builds: x.built.Load(), Applied: x.applied.Load(), Answered: x.answered.Load(),
		Stale: x.staleHits.Load(), SQLAnswers: x.sqlAnswers.Load(), BehindChanges: x.behind.Load()}
	if since := x.behindSince.Load(); since != 0 {
		st.Behind = time.Duration(time.Now().UnixNano() - since)
	}
	if ix := x.current.Load(); ix != nil {
		st.Jobs, st.DeltaJobs, st.Bytes = ix.Len(), ix.DeltaLen(), ix.SizeInBytes()
	}
	return st
}

// Version is the feed's change the current index is of (0 before the
// first build).
func (x *Indexer) Version() int64 {
	if ix := x.current.Load(); ix != nil {
		return ix.Version()
	}
	return 0
}

// index returns the current index, or nil: no indexer, none built yet, or
// the feed unread for longer than usableLag.
func (x *Indexer) index() *index.Index {
	if x == nil {
		return nil
	}
	ix := x.current.Load()
	if ix == nil || time.Now().UnixNano()-x.freshAt.Load() > int64(usableLag) {
		return nil
	}
	return ix
}

// stale tells the indexer that a request found the feed at want, past its
// index, and returns the index after a catch-up (or nil when ctx ends
// first, or the catch-up fails). Requests that find the feed moved at once
// share the catch-up: those that wait for it find the index current.
func (x *Indexer) stale(ctx context.Context, want int64) *index.Index {
	x.staleHits.Add(1)
	done := make(chan error, 1)
	go func() { done <- x.catchUpTo(context.WithoutCancel(ctx), want) }()
	select {
	case err := <-done:
		if err != nil {
			return nil
		}
		return x.index()
	case <-ctx.Done():
		return nil
	}
}

// run keeps the index current until ctx ends: a build first, then a
// catch-up every poll, and the adoption of bases built in the background.
// A pass that panics is logged with its stack; the indexer keeps the index
// it had and goes on after a backoff.
func (x *Indexer) run(ctx context.Context) {
	tick := time.NewTicker(x.poll)
	defer tick.Stop()
	var backoff panicBackoff
	var rebuilt *index.Index
	tuned := time.Now()
	for {
		panicked := guard(x.log, "index", func() {
			var err error
			switch {
			case rebuilt != nil:
				ix := rebuilt
				rebuilt = nil
				defer x.rebuilding.Store(false) // the rebuild ends with its adoption (startRebuild)
				err = x.adopt(ctx, ix)
			case x.current.Load() == nil:
				err = x.buildFirst(ctx)
			default:
				err = x.catchUp(ctx)
				if cur := x.current.Load(); cur != nil && !currency.Same(cur.Rates(), x.rates()) {
					x.startRebuild(ctx) // at the new rates
				}
				if x.mem != nil && !x.rebuilding.Load() && time.Since(tuned) >= retuneEvery {
					x.mem.Tune()
					tuned = time.Now()
				}
			}
			if err != nil && ctx.Err() == nil {
				x.log.Warn("index not brought up to date; retrying", "err", err)
			}
		})
		if panicked {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff.next()):
			}
			continue
		}
		backoff.reset()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-x.kick:
		case rebuilt = <-x.rebuilt:
		}
	}
}

// buildFirst makes the first index: the saved one brought up to date when
// there is one, or a build (then saved in the background).
func (x *Indexer) buildFirst(ctx context.Context) error {
	start := time.Now()
	if ix := x.loadCached(ctx); ix != nil {
		nx, err := x.applyChanges(ctx, ix)
		if err == nil {
			// Reading left garbage the size of the file: give it back, and
			// tune the GC to the index as after a build.
			if x.mem != nil {
				x.mem.Lift()
				runtime.GC()
				x.mem.Tune()
				x.mem.Release()
			}
			// The saved index is of an older change: whoever follows the
			// index (the subscriptions' hub) hears it first, and so the
			// changes since it, which a restart would otherwise skip.
			x.mu.Lock()
			x.onAdvance(nil, ix)
			x.mu.Unlock()
			x.makeFirst(nx)
			x.log.Info("index ready from the saved one", "version", nx.Version(), "jobs", nx.Len(),
				"changes_since", nx.DeltaLen(), "took", time.Since(start).Round(time.Millisecond).String())
			return nil
		}
		x.log.Info("the saved index is not brought up to date; building anew", "err", err)
	}
	ix, place, err := x.buildTuned(ctx)
	if err != nil {
		return err
	}
	x.makeFirst(ix)
	x.log.Info("index built", "version", ix.Version(), "jobs", ix.Len(), "bitmap_bytes", ix.SizeInBytes(),
		"took", time.Since(start).Round(time.Millisecond).String())
	go x.save(ix, place)
	return nil
}

// makeFirst makes ix the first current index: the indexer is ready.
func (x *Indexer) makeFirst(ix *index.Index) {
	x.mu.Lock()
	x.setCurrent(ix)
	x.freshAt.Store(time.Now().UnixNano())
	x.mu.Unlock()
	close(x.ready)
}

// setCurrent makes ix the current index and tells onAdvance; x.mu is held.
func (x *Indexer) setCurrent(ix *index.Index) {
	prev := x.current.Swap(ix)
	x.onAdvance(prev, ix)
}

// buildTuned builds an index, with the GC tuned around it.
func (x *Indexer) buildTuned(ctx context.Context) (*index.Index, feedPlace, error) {
	if x.mem != nil {
		// Two indexes and the rows being read are alive during a build:
		// a memory limit set for one would make the GC run without pause.
		// The first build has no index beside it to size the room by.
		if cur := x.current.Load(); cur != nil {
			x.mem.RoomForBuild(cur.SizeInBytes())
		} else {
			x.mem.Lift()
		}
		defer x.mem.Tune()
	}
	ix, place, err := x.build(ctx)
	if err != nil {
		return nil, place, err
	}
	x.built.Add(1)
	return ix, place, nil
}

// catchUp applies the changes of the feed after the current index's last
// one. Too many of them, or a base that cannot take a layer, start a build
// in the background instead.
func (x *Indexer) catchUp(ctx context.Context) error { return x.catchUpTo(ctx, 0) }

// catchUpTo is catchUp, done only if the index is not at change want (or
// later) by the time the catch-ups before it are done.
func (x *Indexer) catchUpTo(ctx context.Context, want int64) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	cur := x.current.Load()
	if cur == nil || want > 0 && cur.Version() >= want {
		return nil
	}
	checked := time.Now().UnixNano()
	nx, err := x.applyChanges(ctx, cur)
	switch {
	case errors.Is(err, errTooManyChanges), errors.Is(err, index.ErrIDOrder):
		x.startRebuild(ctx)
		return nil
	case err != nil:
		return err
	}
	if nx != cur {
		x.setCurrent(nx)
		if nx.DeltaLen() > rebuildAt(nx.Len()) {
			x.startRebuild(ctx)
		}
	}
	x.freshAt.Store(checked)
	x.behind.Store(0)
	x.behindSince.Store(0)
	return nil
}

// applyChanges returns ix with the feed's changes after its version
// applied (ix itself when there are none).
func (x *Indexer) applyChanges(ctx context.Context, ix *index.Index) (*index.Index, error) {
	var last int64
	var ch index.Change
	err := readOnly(ctx, x.tail, func(tx pgx.Tx) error {
		var err error
		last, ch, err = changesSince(ctx, tx, ix.Version(), maxApply(ix.Len()))
		return err
	})
	if err != nil {
		if errors.Is(err, errTooManyChanges) {
			x.markBehind(-1)
		}
		return nil, wrap(err, "read the change feed")
	}
	if last <= ix.Version() {
		return ix, nil
	}
	x.markBehind(last - ix.Version())
	nx, err := ix.Apply(last, ch, func(names []string) (out []string, err error) {
		err = withPgx(ctx, x.tail, func(c *pgx.Conn) error {
			out, err = collate(ctx, c, names)
			return err
		})
		return out, err
	})
	if err != nil {
		return nil, err
	}
	x.applied.Add(int64(len(ch.Add) + len(ch.Remove)))
	return nx, nil
}

// markBehind records that the index lacks n changes of the feed (n < 0:
// more than a catch-up applies).
func (x *Indexer) markBehind(n int64) {
	if n >= 0 {
		x.behind.Store(n)
	}
	x.behindSince.CompareAndSwap(0, time.Now().UnixNano())
}

// rebuildAt is the size of the layer over a base of n jobs past which a new
// base is built: queries and catch-ups cost more the larger it is, and a
// build costs seconds of CPU at large sizes.
func rebuildAt(n int) int { return min(max(n/50, 5_000), 20_000) }

// startRebuild builds a new base in the background, unless one is being
// built or waits to be adopted; run adopts it, and so ends the rebuild. A
// rebuild that ended when its base was handed over let a catch-up that
// ran before the adoption (a request's, finding the old index too far
// behind) start a second build of the same changes, with a third index's
// memory.
func (x *Indexer) startRebuild(ctx context.Context) {
	if !x.rebuilding.CompareAndSwap(false, true) {
		return
	}
	go func() {
		handed := false
		defer func() {
			if !handed {
				x.rebuilding.Store(false)
			}
		}()
		guard(x.log, "index rebuild", func() {
			start := time.Now()
			ix, place, err := x.buildTuned(ctx)
			if err != nil {
				if ctx.Err() == nil {
					x.log.Warn("index not rebuilt; the layered index serves meanwhile", "err", err)
				}
				return
			}
			x.log.Info("index base rebuilt", "version", ix.Version(), "jobs", ix.Len(),
				"took", time.Since(start).Round(time.Millisecond).String())
			x.save(ix, place)
			select {
			case x.rebuilt <- ix:
				handed = true
			case <-ctx.Done():
			}
		})
	}()
}

// adopt makes a base built in the background current, once the changes
// since its build are applied to it.
func (x *Indexer) adopt(ctx context.Context, ix *index.Index) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	nx, err := x.applyChanges(ctx, ix)
	if err != nil {
		return err
	}
	if cur := x.current.Load(); cur != nil && cur.Version() > nx.Version() {
		return nil // a newer index is current (a rare race with a slow build)
	}
	x.setCurrent(nx)
	x.freshAt.Store(time.Now().UnixNano())
	// The build's garbage (the rows read) goes back now rather than stay as
	// the heap's headroom. The old base goes once whoever follows the
	// index lets it go: the subscriptions' hub, when it has judged the
	// move (live.Options.LetGo).
	if x.mem != nil {
		x.mem.Release()
	}
	return nil
}

// currentIndex returns the index brought up to date with every change the
// database (the replica read, perhaps) shows, or nil when there is none:
// lists, facets and company counts see every write committed before they
// began. It costs one short statement, and a catch-up after a write.
func (s *Store) currentIndex(ctx context.Context) *index.Index {
	ix := s.index.index()
	if ix == nil {
		return nil
	}
	last, err := feedLast(ctx, s.read)
	switch {
	case err != nil:
		return nil // SQL answers, and reports the error
	case last > ix.Version():
		return s.index.stale(ctx, last)
	}
	return ix
}

// feedLast reads the number of the feed's last change through read (the
// store's read, which may go to a replica, or the primary's).
func feedLast(ctx context.Context, read func(context.Context, func(bun.IDB) error) error) (int64, error) {
	var last int64
	err := read(ctx, func(db bun.IDB) error {
		return db.NewRaw("SELECT last_seq FROM jobsd_feed").Scan(ctx, &last)
	})
	return last, wrap(err, "read the feed's last change")
}

// errStale says the feed moved since the index a page came from.
var errStale = errors.New("the index is stale")
