package graph

import (
	"bytes"
	"math"
	"strconv"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// encoder holds the primitives of the fast path's writers: each writes a
// scalar byte for byte as gqlgen's marshalers would (the graphql package of
// gqlgen v0.17.90). The writers of the schema's objects, generated from
// the schema (fastpath_gen.go, by graph/fastgen), add what gqlgen's
// executor does: members in selection order keyed by their alias, no
// whitespace, nil pointers as null, nil non-null lists as [], nullable
// lists nil as null, and failed, rather than a guess, on anything else.
type encoder struct {
	buf []byte
	// failed is set when the data needs what gqlgen answers with an error
	// (a NaN or infinite Float) or a member the encoder does not know: the
	// operation then goes to gqlgen.
	failed bool
}

var encoders = sync.Pool{New: func() any { return new(encoder) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 1 << 20

func getEncoder() *encoder { return encoders.Get().(*encoder) }

func putEncoder(e *encoder) {
	if cap(e.buf) > maxPooled {
		return
	}
	e.buf = e.buf[:0]
	e.failed = false
	encoders.Put(e)
}

// key writes the separator and the response key of the i-th member of an
// object, as graphql.FieldSet does, and returns its field, or nil (and
// failed) when the selection is not a field.
func (e *encoder) key(i int, s ast.Selection) *ast.Field {
	f, ok := s.(*ast.Field)
	if !ok {
		e.failed = true
		return nil
	}
	if i > 0 {
		e.buf = append(e.buf, ',')
	}
	// A response key is a GraphQL name ([_A-Za-z][_0-9A-Za-z]*, as the
	// parser reads it), which quoting leaves as it is.
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, f.Alias...)
	e.buf = append(e.buf, `":`...)
	return f
}

const hexDigits = "0123456789ABCDEF"

// escapeOrCheck marks the bytes string escapes (controls, quote,
// backslash, HTML's three) and 0xe2, which may begin U+2028 or U+2029: one
// table load per byte instead of seven comparisons.
var escapeOrCheck = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for _, c := range []byte{'"', '\\', '<', '>', '&', 0xe2} {
		t[c] = true
	}
	return t
}()

// string writes s quoted as graphql.MarshalString (writeQuotedString)
// and then json.Marshal of the response do together: control characters,
// '"' and '\' escaped as gqlgen escapes them (\t, \r and \n by name, the
// others as \u00XX in upper-case hex), then <, >, &, U+2028 and U+2029 as
// encoding/json escapes them (\u003c, \u2028); everything else, invalid
// UTF-8 included, is copied as is. So postTransport can write the bytes
// without json.Marshal, and json.Marshal leaves them unchanged. gqlgen
// ranges over runes, but every byte it escapes is ASCII, which never
// occurs inside a multi-byte sequence, so ranging over bytes escapes the
// same bytes.
func (e *encoder) string(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escapeOrCheck[c] {
			continue
		}
		if c == 0xe2 { // U+2028 and U+2029, which encoding/json escapes
			if i+2 >= len(s) || s[i+1] != 0x80 || s[i+2]&^1 != 0xa8 {
				continue
			}
			e.buf = append(e.buf, s[start:i]...)
			e.buf = append(e.buf, `\u202`...)
			e.buf = append(e.buf, hexDigits[s[i+2]&1+8])
			i += 2
			start = i + 1
			continue
		}
		e.buf = append(e.buf, s[start:i]...)
		switch c {
		case '\t':
			e.buf = append(e.buf, `\t`...)
		case '\r':
			e.buf = append(e.buf, `\r`...)
		case '\n':
			e.buf = append(e.buf, `\n`...)
		case '\\':
			e.buf = append(e.buf, `\\`...)
		case '"':
			e.buf = append(e.buf, `\"`...)
		case '<':
			e.buf = append(e.buf, `\u003c`...)
		case '>':
			e.buf = append(e.buf, `\u003e`...)
		case '&':
			e.buf = append(e.buf, `\u0026`...)
		default:
			e.buf = append(e.buf, `\u00`...)
			e.buf = append(e.buf, hexDigits[c>>4])
			e.buf = append(e.buf, hexDigits[c&0xf])
		}
		start = i + 1
	}
	e.buf = append(e.buf, s[start:]...)
	e.buf = append(e.buf, '"')
}

func (e *encoder) null() { e.buf = append(e.buf, "null"...) }

// int writes an Int as graphql.MarshalInt does.
func (e *encoder) int(n int) {
	e.buf = strconv.AppendInt(e.buf, int64(n), 10)
}

// bool writes a Boolean as graphql.MarshalBoolean does.
func (e *encoder) bool(b bool) {
	e.buf = strconv.AppendBool(e.buf, b)
}

// float writes a Float as graphql.MarshalFloatContext does, with fmt's %g,
// which is strconv's shortest 'g' format (1e+21, 1e+06, 123456.789).
// gqlgen answers NaN and infinities with an error: they fail.
func (e *encoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.failed = true
		return
	}
	e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
}

// Write appends p, for the marshalers that write to an io.Writer.
func (e *encoder) Write(p []byte) (int, error) {
	e.buf = append(e.buf, p...)
	return len(p), nil
}

// WriteString appends s, for the marshalers that write with
// io.WriteString (which would otherwise copy s into a new []byte).
func (e *encoder) WriteString(s string) (int, error) {
	e.buf = append(e.buf, s...)
	return len(s), nil
}

// funcEnumTable holds what the marshal function of an enum bound to a Go
// value by functions (gqlgen.yml) writes for each of its values, made
// once: a few pairs, which a scan finds sooner than a map's hash.
type funcEnumTable[T comparable] []funcEnumValue[T]

// funcEnumValue is one value of a funcEnumTable and its bytes.
type funcEnumValue[T comparable] struct {
	v T
	s string
}

// newFuncEnumTable makes the table of the enum values named (as the schema
// names them), read with the enum's unmarshal function.
func newFuncEnumTable[T comparable](unmarshal func(any) (T, error), marshal func(T) graphql.Marshaler, names ...string) funcEnumTable[T] {
	var t funcEnumTable[T]
	for _, name := range names {
		v, err := unmarshal(name)
		if err != nil {
			continue
		}
		var b bytes.Buffer
		marshal(v).MarshalGQL(&b)
		t = append(t, funcEnumValue[T]{v, b.String()})
	}
	return t
}

// writeFuncEnum writes v as the enum's marshal function does.
func writeFuncEnum[T comparable](e *encoder, t funcEnumTable[T], marshal func(T) graphql.Marshaler, v T) {
	for i := range t {
		if t[i].v == v {
			e.buf = append(e.buf, t[i].s...)
			return
		}
	}
	marshal(v).MarshalGQL(e)
}

// marshalContext writes a value with a context marshaler, as gqlgen calls
// it; its error fails the fast answer, so that gqlgen answers with it.
func (r *fastRun) marshalContext(m graphql.ContextMarshaler) {
	if err := m.MarshalGQLContext(r.ctx, r.encoder); err != nil {
		r.failed = true
	}
}
