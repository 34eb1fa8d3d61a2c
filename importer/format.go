package importer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jobsd-dev/jobsd/normalize/fold"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
)

// The names of the input formats.
const (
	formatNDJSON     = "ndjson"
	formatJSONLD     = "jsonld"
	formatGreenhouse = "greenhouse"
	formatLever      = "lever"
)

// What a record's position counts.
const (
	unitLine   = "line"
	unitRecord = "record"
)

// format is an input format: how the input splits into records, and how a
// record maps onto a domain.Job. The rest of an import is the same for all.
type format struct {
	name string
	unit string // what positions count, unless a record says otherwise
	// split calls yield with each record of r in order, and stops at the
	// first error yield returns. It returns an error only when the input
	// as a whole cannot be read; a record it cannot make sense of is
	// yielded with its reason.
	split func(r io.Reader, yield func(record) error) error
	// mapJob maps one record onto an entry, or says why it cannot; the
	// entry it returns with an error carries the job's id when that is
	// known.
	mapJob func(data []byte, m *mapper) (entry, error)
	// recordName names a record in reasons ("Greenhouse job").
	recordName string
	// requireHint, when set, says why a record may lack a company; the
	// import then reports a missing title or company with its own reason
	// instead of the normalizer's.
	requireHint string
}

var formats = []*format{
	{name: formatNDJSON, unit: unitLine, split: splitLines, mapJob: mapNDJSON},
	{name: formatJSONLD, unit: unitRecord, split: splitJSONLD, mapJob: mapJSONLD,
		recordName: "JobPosting", requireHint: "the JobPosting names no hiringOrganization"},
	{name: formatGreenhouse, unit: unitRecord, split: splitGreenhouse, mapJob: mapGreenhouse,
		recordName: "Greenhouse job", requireHint: "the Greenhouse job has no company_name"},
	{name: formatLever, unit: unitRecord, split: splitLever, mapJob: mapLever,
		recordName: "Lever posting", requireHint: "Lever postings do not name their company"},
}

// Formats returns the names of the input formats, the default first.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

func lookupFormat(name string) (*format, error) {
	if name == "" {
		name = formatNDJSON
	}
	for _, f := range formats {
		if f.name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown import format %q (one of %s)", name, strings.Join(Formats(), ", "))
}

// entry is what one record of the input says: a posting (its job, and
// validThrough, when it closes by itself, as the source wrote it), or for
// a tombstone (close set) that a posting closed; job then holds only its
// id.
type entry struct {
	job          domain.Job
	validThrough *string
	close        *domain.JobClose
}

// record is one record of the input: its position, its bytes (one JSON
// value), or why it could not be read.
type record struct {
	pos  int
	unit string
	data []byte
	err  string
}

func (r record) invalid(id, reason string) *LineError {
	e := &LineError{Line: r.pos, Reason: reason, Unit: r.unit}
	if r.unit == unitRecord {
		e.ID = id
	}
	return e
}

// mapper is what mapping a record needs besides the record: the
// vocabularies and the default company.
type mapper struct {
	n       *normalize.Normalizer
	company string
}

// maxLine is the longest record line accepted.
const maxLine = 16 << 20

// maxDocument is the largest input read as one document (JSON-LD, HTML,
// Greenhouse and Lever answers).
const maxDocument = 512 << 20

// splitLines yields each non-blank line of r as a record.
func splitLines(r io.Reader, yield func(record) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := yield(record{pos: lineNo, unit: unitLine, data: line}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d is longer than %d bytes", lineNo+1, maxLine)
		}
		return fmt.Errorf("read input: %w", err)
	}
	return nil
}

// ndjsonLine is an NDJSON line: a record in the full-record shape with
// valid_through, or a tombstone (closed: true, closed_at).
type ndjsonLine struct {
	domain.Job
	ValidThrough *string `json:"valid_through"`
	Closed       *bool   `json:"closed"`
	ClosedAt     *string `json:"closed_at"`
}

// mapNDJSON reads a line, strictly: unknown fields are errors. A line
// with "closed": true is a tombstone (readTombstone); "closed": false
// says what every record line says, that the posting is open, and is
// accepted on a record.
func mapNDJSON(line []byte, _ *mapper) (entry, error) {
	var l ndjsonLine
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return entry{}, errors.New(jsonReason(err))
	}
	if dec.More() {
		return entry{}, errors.New("more than one JSON value on the line")
	}
	if l.Closed != nil && *l.Closed {
		return readTombstone(line, l.ID, l.ClosedAt, time.Now())
	}
	if l.ClosedAt != nil {
		return entry{job: domain.Job{ID: l.ID}}, errors.New(`closed_at is only for a tombstone ("closed": true)`)
	}
	return entry{job: l.Job, validThrough: l.ValidThrough}, nil
}

// decode reads and normalizes one NDJSON record line, or says why it
// cannot (a tombstone is not a record).
func decode(line []byte, n *normalize.Normalizer) (domain.JobRecord, string) {
	f, _ := lookupFormat(formatNDJSON)
	o, _, bad := prepare(f, record{pos: 1, unit: unitLine, data: line}, &mapper{n: n})
	switch {
	case bad != nil:
		return domain.JobRecord{}, bad.Reason
	case o.close != nil:
		return domain.JobRecord{}, "a tombstone, not a record"
	}
	return o.rec, ""
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
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "not valid JSON: the value ends too early"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ") + " (see the import format in the README)"
	}
	return "not a JSON object: " + err.Error()
}

func jsonTypeName(kind string) string {
	switch kind {
	case "slice":
		return "an array"
	case "bool":
		return "true or false"
	case "float64", "int", "int64":
		return "a number"
	case "struct", "map":
		return "an object"
	case "ptr":
		return "a value of another type"
	}
	return "a " + kind
}

// readDocument reads all of r, which must hold one document, without a
// byte-order mark.
func readDocument(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	if len(b) > maxDocument {
		return nil, fmt.Errorf("input is larger than %d bytes", maxDocument)
	}
	return bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))), nil
}

// documentError explains why a document is not JSON, with the line where
// the problem is.
func documentError(doc []byte, err error) error {
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) && syntaxErr.Offset <= int64(len(doc)) {
		line := 1 + bytes.Count(doc[:syntaxErr.Offset], []byte("\n"))
		return fmt.Errorf("not valid JSON (line %d): %w", line, err)
	}
	return fmt.Errorf("not valid JSON: %w", err)
}

// splitJSONList yields the items of a JSON document that is a list of
// records, or an object holding that list under key (key empty: a list
// only), or a single record (an object with the field single), each as a
// record numbered from 1.
func splitJSONList(r io.Reader, key, single string, yield func(record) error) error {
	doc, err := readDocument(r)
	if err != nil {
		return err
	}
	if len(doc) == 0 {
		return nil
	}
	var items []json.RawMessage
	switch doc[0] {
	case '[':
		if err := json.Unmarshal(doc, &items); err != nil {
			return documentError(doc, err)
		}
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(doc, &obj); err != nil {
			return documentError(doc, err)
		}
		list, ok := obj[key]
		switch {
		case key != "" && ok:
			if err := json.Unmarshal(list, &items); err != nil {
				return fmt.Errorf("%q must be an array of jobs: %w", key, err)
			}
		case obj[single] != nil:
			items = []json.RawMessage{doc}
		case key != "":
			return fmt.Errorf("a JSON object without %q", key)
		default:
			return fmt.Errorf("a JSON object without %q: not a posting", single)
		}
	default:
		return documentError(doc, json.Unmarshal(doc, new(any)))
	}
	for i, item := range items {
		if err := yield(record{pos: i + 1, unit: unitRecord, data: item}); err != nil {
			return err
		}
	}
	return nil
}

// numberID returns "<source>-<digits>" when s is a number of 1 to 18
// digits, and false otherwise.
func numberID(source, s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 18 {
		return "", false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return source + "-" + s, true
}

// hashID returns "<source>-<n>", n a stable number derived from key: the
// first 15 hex digits of its SHA-256 (60 bits) in decimal.
func hashID(source, key string) string {
	sum := sha256.Sum256([]byte(key))
	return source + "-" + strconv.FormatUint(binary.BigEndian.Uint64(sum[:8])>>4, 10)
}

// text decodes the HTML entities of a plain text value and collapses its
// white space.
func text(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// htmlOf returns the HTML of a value that is HTML, HTML-escaped HTML
// ("&lt;p&gt;…") or plain text.
func htmlOf(s string) string {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "<") && strings.Contains(s, "&lt;") {
		s = html.UnescapeString(s)
	}
	return s
}

// items returns the items of an HTML or plain-text list: one per list
// item, paragraph or line, without bullets.
func items(s string) []string {
	var out []string
	for _, line := range strings.Split(normalize.HTMLText(htmlOf(s)), "\n") {
		line = strings.TrimSpace(strings.TrimLeft(line, "•·*–-▪● \t"))
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// urlOf returns the first of urls that is an http or https URL
// (normalize.SafeURL), else the first that is not blank (which the
// normalizer drops and the import reports), else nil.
func urlOf(urls ...string) *string {
	for _, u := range urls {
		if safe, ok := normalize.SafeURL(u); ok {
			return &safe
		}
	}
	for _, u := range urls {
		if p := ptr(u); p != nil {
			return p
		}
	}
	return nil
}

// ptr returns a pointer to s, or nil when s is blank.
func ptr(s string) *string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return &s
}

// dateTime returns s as an RFC 3339 UTC date-time when it is one of the
// date forms sources write, else s unchanged (the normalizer reports it).
func dateTime(s string) *string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			out := t.UTC().Truncate(time.Second).Format(domain.TimeLayout)
			return &out
		}
	}
	return &s
}

// period returns the contract's spelling of a salary period, and false
// when s names none.
func period(s string) (string, bool) {
	if strings.TrimSpace(s) == "" {
		return "", false
	}
	p, _, ok := normalize.Period(s)
	return p, ok
}

// places joins location texts into one location text of several places,
// without repeats.
func places(texts ...string) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		t = text(t)
		if t == "" || seen[fold.Fold(t)] {
			continue
		}
		seen[fold.Fold(t)] = true
		out = append(out, t)
	}
	return strings.Join(out, "; ")
}

// fillFromText sets the fields of job that its source left empty from what
// its text states (normalize.TextFacts), read in its first maxFactsText
// bytes.
func (m *mapper) fillFromText(job *domain.Job, texts ...string) {
	all := strings.Join(texts, "\n")
	if len(all) > maxFactsText {
		all = strings.ToValidUTF8(all[:maxFactsText], "")
	}
	m.n.TextFacts(all).Fill(job)
}

// maxFactsText is the most bytes of a posting's text fillFromText reads:
// twice the longest description a record may have
// (normalize.MaxDescriptionBytes), room for its lists beside it, and a
// bound on the work of reading the text of a record whose description is
// over its bound (the record is then reported invalid).
const maxFactsText = 2 * normalize.MaxDescriptionBytes

// decodeRecord decodes a record's JSON into v, keeping numbers as written,
// and explains a failure in the record's terms.
func decodeRecord(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return errors.New(jsonReason(err))
	}
	return nil
}

// descriptionText is the plain text of a description's HTML, or "" when
// the HTML is over normalize.MaxDescriptionBytes: the record is then
// invalid, and its text is not worth reading.
func descriptionText(html string) string {
	if len(html) > normalize.MaxDescriptionBytes {
		return ""
	}
	return normalize.HTMLText(html)
}
