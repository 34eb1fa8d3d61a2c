// Package importer reads job records from files (NDJSON in the contract's
// full-record shape), normalizes them, and writes them in one transaction:
// an invalid record means nothing is written, unless invalid records are to
// be skipped.
package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/graph/model"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/store"
)

// Options tune an import.
type Options struct {
	// SkipInvalid writes the valid records and reports the invalid ones,
	// instead of writing nothing when any record is invalid.
	SkipInvalid bool
	// BatchSize is how many records one INSERT writes (default 500).
	BatchSize int
	// Progress, when set, receives a line now and then on large inputs.
	Progress io.Writer
}

// LineError is an invalid record: its line number and why.
type LineError struct {
	Line   int
	Reason string
}

func (e LineError) String() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// Result tells what an import did.
type Result struct {
	Lines    int // non-blank lines read
	Imported int // records written (0 when the import was rolled back)
	Invalid  []LineError
	Elapsed  time.Duration
}

// ErrInvalid is returned, wrapped, when invalid records stopped an import.
var ErrInvalid = errors.New("invalid records")

// maxLine is the longest record line accepted.
const maxLine = 16 << 20

// NDJSON imports one JSON object per line from r. Reading and normalizing
// run alongside the database writes.
func NDJSON(ctx context.Context, r io.Reader, n *normalize.Normalizer, st *store.Store, opts Options) (Result, error) {
	if opts.BatchSize <= 0 {
		opts.BatchSize = 500
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

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []model.JobRecord, 2)
	var res Result
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(batches)
		readErr = read(ctx, r, n, opts, &res, batches)
	}()

	lastReport := start
	var writeErr error
	for batch := range batches {
		if writeErr != nil {
			continue // drain, so that the reader can finish
		}
		if writeErr = im.Write(ctx, batch); writeErr != nil {
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
		return res, fmt.Errorf("%w: %d of %d lines; nothing was written", ErrInvalid, len(res.Invalid), res.Lines)
	}
	if err := im.Commit(ctx); err != nil {
		return res, err
	}
	committed = true
	res.Imported = im.Written()
	res.Elapsed = time.Since(start)
	return res, nil
}

// read decodes and normalizes the lines of r into batches. Once a line is
// invalid (and invalid lines are not skipped), it goes on reading only to
// report every invalid line.
func read(ctx context.Context, r io.Reader, n *normalize.Normalizer, opts Options, res *Result, out chan<- []model.JobRecord) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	batch := make([]model.JobRecord, 0, opts.BatchSize)
	send := func() error {
		if len(batch) > 0 && (opts.SkipInvalid || len(res.Invalid) == 0) {
			select {
			case out <- batch:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		batch = make([]model.JobRecord, 0, opts.BatchSize)
		return nil
	}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		res.Lines++
		rec, reason := decode(line, n)
		if reason != "" {
			res.Invalid = append(res.Invalid, LineError{Line: lineNo, Reason: reason})
			continue
		}
		batch = append(batch, rec)
		if len(batch) == opts.BatchSize {
			if err := send(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d is longer than %d bytes", lineNo+1, maxLine)
		}
		return fmt.Errorf("read input: %w", err)
	}
	return send()
}

// decode reads and normalizes one record, or says why it cannot.
func decode(line []byte, n *normalize.Normalizer) (model.JobRecord, string) {
	var job model.Job
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&job); err != nil {
		return model.JobRecord{}, jsonReason(err)
	}
	if dec.More() {
		return model.JobRecord{}, "more than one JSON value on the line"
	}
	rec, err := n.Job(job)
	if err != nil {
		return model.JobRecord{}, strings.ReplaceAll(err.Error(), "\n", "; ")
	}
	return rec, ""
}

// jsonReason explains a decoding error in the record's terms.
func jsonReason(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return fmt.Sprintf("%s must be %s, not a JSON %s", typeErr.Field, jsonTypeName(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("not valid JSON (offset %d): %v", syntaxErr.Offset, err)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ") + " (see the import format in the README)"
	}
	return "not a JSON object: " + err.Error()
}

func jsonTypeName(kind string) string {
	switch kind {
	case "slice":
		return "an array"
	case "float64", "int":
		return "a number"
	case "struct", "map":
		return "an object"
	case "ptr":
		return "a value of another type"
	}
	return "a " + kind
}
