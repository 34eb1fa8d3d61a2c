// Package importer reads job records from files, normalizes them, and
// writes them in one transaction: an invalid record means nothing is
// written, unless invalid records are to be skipped. The input formats
// (NDJSON in the contract's full-record shape, schema.org JobPosting
// JSON-LD, Greenhouse and Lever job-board JSON) differ only in how the
// input splits into records and how a record maps onto a domain.Job and
// its valid_through; the normalization, the batches, the transaction and
// the report are the same. NDJSON lines may also be tombstones, which
// close postings in the same transaction, in the file's order: a
// tombstone after a record of its id closes it, a record after a
// tombstone opens it again. A snapshot import (Options.Snapshot) lists
// its scope completely: the store closes the scope's open postings it
// lacks when it commits.
package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

// Options tune an import.
type Options struct {
	// Format is the input format: ndjson (the default when empty), jsonld,
	// greenhouse or lever (see Formats).
	Format string
	// DefaultCompany is the company of the records that name none (a
	// Greenhouse board without company_name, Lever postings).
	DefaultCompany string
	// SkipInvalid writes the valid records and reports the invalid ones,
	// instead of writing nothing when any record is invalid.
	SkipInvalid bool
	// BatchSize is how many records one COPY writes (default 2,000).
	BatchSize int
	// Progress, when set, receives a line now and then on large inputs.
	Progress io.Writer
	// Snapshot, when set, says the input is the complete list of the
	// open postings of that scope: the scope's open postings it lacks
	// are closed at commit, and a record outside the scope is invalid.
	Snapshot *domain.Scope
	// AllowMassClose lets a snapshot close more than half of its scope's
	// open postings (store.MassCloseError otherwise).
	AllowMassClose bool
}

// LineError is an invalid record: where it is and why. Line is the line
// number for formats read line by line, else the record's position in the
// input (1 for the first record), as Unit says.
type LineError struct {
	Line   int
	Reason string
	// Unit is what Line counts: "line" (also when empty) or "record".
	Unit string
	// ID is the record's job id, when it is known and Unit is "record".
	ID string
}

// String describes the record and why it is invalid: "line 3: reason",
// or "record 2 (jsonld-7): reason" when the id is known.
func (e LineError) String() string {
	unit := e.Unit
	if unit == "" {
		unit = unitLine
	}
	if e.ID != "" {
		return fmt.Sprintf("%s %d (%s): %s", unit, e.Line, e.ID, e.Reason)
	}
	return fmt.Sprintf("%s %d: %s", unit, e.Line, e.Reason)
}

// Result tells what an import did.
type Result struct {
	// Lines is how many records were read: non-blank lines for the formats
	// read line by line, records (postings) for the others.
	Lines int
	// Unit is what Lines counts: "line" or "record".
	Unit     string
	Imported int // records written (0 when the import was rolled back)
	// Tombstones is how many valid tombstone lines were read.
	Tombstones int
	// Counts are what the import did, posting by posting: opened,
	// updated, unchanged, closed (by tombstones, by the snapshot, or by a
	// valid_through already past) and tombstones ignored. Zero when the
	// import was rolled back.
	Counts  domain.ImportCounts
	Invalid []LineError
	// Dropped are the valid records that lost a value to make them safe to
	// render: a url or company_logo that is not an http or https URL is
	// dropped to null (normalize.SafeURL), and the record is written
	// without it. Reason names the fields.
	Dropped []LineError
	Elapsed time.Duration
}

// ErrInvalid is returned, wrapped, when invalid records stopped an import.
var ErrInvalid = errors.New("invalid records")

// NDJSON imports one JSON object per line from r, in the contract's
// full-record shape: Import with the ndjson format.
func NDJSON(ctx context.Context, r io.Reader, n *normalize.Normalizer, st *store.Store, opts Options) (Result, error) {
	opts.Format = formatNDJSON
	return Import(ctx, r, n, st, opts)
}

// Import reads the records of r in opts.Format, normalizes them and writes
// them in one transaction. Reading and normalizing run alongside the
// database writes.
func Import(ctx context.Context, r io.Reader, n *normalize.Normalizer, st *store.Store, opts Options) (Result, error) {
	f, err := lookupFormat(opts.Format)
	if err != nil {
		return Result{}, err
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 2000
	}
	start := time.Now()
	im, err := st.BeginImport(ctx)
	if err != nil {
		return Result{}, err
	}
	committed := false
	defer func() {
		if !committed {
			_ = im.Rollback()
		}
	}()
	if opts.Snapshot != nil {
		if err := im.SetSnapshot(ctx, *opts.Snapshot, opts.AllowMassClose); err != nil {
			return Result{}, fmt.Errorf("snapshot: %w", err)
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan batch, 2)
	res := Result{Unit: f.unit}
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(batches)
		readErr = read(ctx, r, f, &mapper{n: n, company: opts.DefaultCompany}, opts, &res, batches)
	}()

	lastReport := start
	var writeErr error
	for b := range batches {
		if writeErr != nil {
			continue // drain, so that the reader can finish
		}
		if writeErr = b.apply(ctx, im); writeErr != nil {
			cancel()
			continue
		}
		if opts.Progress != nil && time.Since(lastReport) >= 2*time.Second {
			lastReport = time.Now()
			fmt.Fprintf(opts.Progress, "import: %d jobs written, %.0f jobs/s\n",
				im.Written(), float64(im.Written())/time.Since(start).Seconds())
		}
	}
	<-done
	res.Elapsed = time.Since(start)
	if writeErr != nil {
		return res, writeErr
	}
	if readErr != nil {
		return res, readErr
	}
	if len(res.Invalid) > 0 && !opts.SkipInvalid {
		return res, fmt.Errorf("%w: %d of %d %ss; nothing was written", ErrInvalid, len(res.Invalid), res.Lines, res.Unit)
	}
	// A snapshot leaves open the postings of the lines it skipped as
	// invalid: they are listed, only unreadable.
	for _, bad := range res.Invalid {
		if bad.ID != "" {
			im.Keep([]string{bad.ID})
		}
	}
	im.NormalizedWith(n.Digest())
	if err := im.Commit(ctx); err != nil {
		return res, err
	}
	committed = true
	res.Imported = im.Written()
	res.Counts = im.Counts()
	res.Elapsed = time.Since(start)
	return res, nil
}

// op is one change a record of the input asks for: a record to write, or
// (close set) a posting to close.
type op struct {
	rec   domain.JobRecord
	close *domain.JobClose
}

// batch is a run of consecutive records to write, or of consecutive
// tombstones to close; never both. Batches are applied in the input's
// order, so a change of kind starts a new batch and the order of records
// and tombstones is kept.
type batch struct {
	recs   []domain.JobRecord
	closes []domain.JobClose
}

func (b *batch) len() int { return len(b.recs) + len(b.closes) }

// add appends o to the batch, or reports false when o is of the other
// kind than the batch's (the batch must be sent first).
func (b *batch) add(o op) bool {
	if o.close != nil {
		if len(b.recs) > 0 {
			return false
		}
		b.closes = append(b.closes, *o.close)
		return true
	}
	if len(b.closes) > 0 {
		return false
	}
	b.recs = append(b.recs, o.rec)
	return true
}

// apply writes the batch's records or closes its postings in im.
func (b batch) apply(ctx context.Context, im *store.Import) error {
	if len(b.closes) > 0 {
		if err := im.Close(ctx, b.closes); err != nil {
			return fmt.Errorf("close %d postings: %w", len(b.closes), err)
		}
		return nil
	}
	return im.Write(ctx, b.recs)
}

// read splits r into records, has workers map and normalize them side
// by side (prepareChunks), and sends them in batches, in the input's
// order. Once a record is invalid (and invalid records are not
// skipped), it goes on reading only to report every invalid record.
func read(ctx context.Context, r io.Reader, f *format, m *mapper, opts Options, res *Result, out chan<- batch) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks, wait := prepareChunks(ctx, r, f, m, opts.Snapshot)
	var b batch
	send := func() error {
		if b.len() > 0 && (opts.SkipInvalid || len(res.Invalid) == 0) {
			select {
			case out <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		b = batch{}
		return nil
	}
	collect := func(p prepared) error {
		res.Lines++
		res.Unit = p.unit
		if p.bad != nil {
			res.Invalid = append(res.Invalid, *p.bad)
			return nil
		}
		if p.dropped != nil {
			res.Dropped = append(res.Dropped, *p.dropped)
		}
		if p.op.close != nil {
			res.Tombstones++
		}
		if !b.add(p.op) {
			if err := send(); err != nil {
				return err
			}
			b.add(p.op)
		}
		if b.len() >= opts.BatchSize {
			return send()
		}
		return nil
	}
	var err error
	for c := range chunks {
		<-c.done
		for _, p := range c.out {
			if err == nil {
				err = collect(p)
			}
		}
		if err != nil {
			cancel() // the reader stops; the chunks under way are drained
		}
	}
	if splitErr := wait(); err == nil && splitErr != nil {
		err = fmt.Errorf("read %s input: %w", f.name, splitErr)
	}
	if err != nil {
		return err
	}
	return send()
}

// chunkRecords is how many records a worker prepares at a time: enough
// that handing chunks over costs little, few enough that the batches
// keep flowing.
const chunkRecords = 128

// chunk is a run of consecutive records of the input, and once done is
// closed, what preparing each of them gave.
type chunk struct {
	recs []record
	out  []prepared
	done chan struct{}
}

// prepared is what prepare made of one record.
type prepared struct {
	unit         string
	op           op
	dropped, bad *LineError
}

// prepareChunks splits r into chunks of records and prepares them on
// one worker per processor (normalization is most of an import's
// work). It returns the chunks in the input's order, each to be waited
// for (done), and wait, which returns the split's error once the
// channel is closed. Cancelling ctx stops the split; the channel is
// still closed, and must be drained.
func prepareChunks(ctx context.Context, r io.Reader, f *format, m *mapper, scope *domain.Scope) (<-chan *chunk, func() error) {
	workers := runtime.GOMAXPROCS(0)
	todo := make(chan *chunk, workers)
	ordered := make(chan *chunk, 2*workers) // bounds the chunks in flight
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range todo {
				c.out = make([]prepared, len(c.recs))
				for i, rec := range c.recs {
					c.out[i] = prepareRecord(f, rec, m, scope)
				}
				close(c.done)
			}
		}()
	}
	var splitErr error
	split := make(chan struct{})
	go func() {
		defer close(split)
		defer close(ordered)
		defer close(todo)
		c := &chunk{done: make(chan struct{})}
		flush := func() error {
			if len(c.recs) == 0 {
				return nil
			}
			select {
			case ordered <- c:
			case <-ctx.Done():
				return ctx.Err()
			}
			todo <- c // a worker is free once ordered has room
			c = &chunk{done: make(chan struct{})}
			return nil
		}
		splitErr = f.split(r, func(rec record) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			rec.data = bytes.Clone(rec.data) // the split reuses its buffer
			c.recs = append(c.recs, rec)
			if len(c.recs) >= chunkRecords {
				return flush()
			}
			return nil
		})
		if splitErr == nil {
			splitErr = flush()
		}
	}()
	return ordered, func() error {
		<-split
		wg.Wait()
		return splitErr
	}
}

// prepareRecord prepares one record (prepare), and holds a snapshot
// import's record to its scope.
func prepareRecord(f *format, rec record, m *mapper, scope *domain.Scope) prepared {
	o, dropped, bad := prepare(f, rec, m)
	if bad == nil && scope != nil && o.close == nil {
		bad = outOfScope(rec, o.rec, *scope)
	}
	return prepared{unit: rec.unit, op: o, dropped: dropped, bad: bad}
}

// outOfScope says why a record of a snapshot import lies outside the
// snapshot's scope (its source, or its company when the scope names one,
// compared as the store compares company names: lowercased), or returns
// nil when it lies within.
func outOfScope(rec record, r domain.JobRecord, scope domain.Scope) *LineError {
	source := ""
	if r.Source != nil {
		source = *r.Source
	}
	if source != scope.Source {
		return rec.invalid(r.ID, fmt.Sprintf("source %q is outside the snapshot's scope (source %q)", domain.Clip(source), domain.Clip(scope.Source)))
	}
	if scope.Company != "" && strings.ToLower(r.Company) != strings.ToLower(scope.Company) {
		return rec.invalid(r.ID, fmt.Sprintf("company %q is outside the snapshot's scope (company %q)", domain.Clip(r.Company), domain.Clip(scope.Company)))
	}
	return nil
}

// prepare maps one record onto a job and normalizes it, or onto a
// tombstone's close, or says why it cannot (bad); dropped, when not nil,
// names the URL fields normalization dropped to null
// (normalize.UnsafeURLs).
func prepare(f *format, rec record, m *mapper) (out op, dropped, bad *LineError) {
	e, bad := mapRecord(f, rec, m)
	if bad != nil {
		return op{}, nil, bad
	}
	if e.close != nil {
		return op{close: e.close}, nil, nil
	}
	r, err := m.n.Posting(e.job, e.validThrough)
	if err != nil {
		return op{}, nil, rec.invalid(e.job.ID, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if fields := normalize.UnsafeURLs(e.job); len(fields) > 0 {
		dropped = rec.invalid(r.ID, strings.Join(fields, " and ")+" dropped to null: not an http or https URL")
	}
	return op{rec: r}, dropped, nil
}

// mapRecord maps one record onto an entry, with the default company
// filled in, or says why it cannot: the record is not readable, or it
// lacks the title or company every job needs. A tombstone needs neither.
func mapRecord(f *format, rec record, m *mapper) (entry, *LineError) {
	if rec.err != "" {
		return entry{}, rec.invalid("", rec.err)
	}
	e, err := f.mapJob(rec.data, m)
	if err != nil {
		return entry{}, rec.invalid(e.job.ID, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if e.close != nil {
		return e, nil
	}
	job := &e.job
	if strings.TrimSpace(job.Company) == "" && m.company != "" {
		job.Company = m.company
	}
	if f.requireHint != "" {
		var missing []string
		if strings.TrimSpace(job.Title) == "" {
			missing = append(missing, "title is required: the "+f.recordName+" has no title")
		}
		if strings.TrimSpace(job.Company) == "" {
			missing = append(missing, "company is required: "+f.requireHint+"; give --company NAME")
		}
		if len(missing) > 0 {
			return e, rec.invalid(job.ID, strings.Join(missing, "; "))
		}
	}
	return e, nil
}
