package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// binaryResults asks PostgreSQL for every result column in binary format.
var binaryResults = []int16{pgtype.BinaryFormatCode}

// scanBinary decodes one row's values, read in binary format, into
// targets as pgx's Scan does for the types the store reads a whole job
// with (text, int8, float8, timestamptz, text[]), into *string, **string,
// *int64, **float64, **time.Time and *[]string, without the scan plan
// pgx makes, and allocates, for each of a job's 47 columns on every
// query. A column of another type, a NULL where the target cannot hold
// one, or an array with a NULL element or several dimensions is an error.
func scanBinary(fields []pgconn.FieldDescription, values [][]byte, targets []any) error {
	if len(fields) != len(targets) || len(values) != len(targets) {
		return fmt.Errorf("scan: %d columns into %d targets", len(values), len(targets))
	}
	for i, v := range values {
		f := &fields[i]
		if f.Format != pgtype.BinaryFormatCode {
			return fmt.Errorf("scan %s: not in binary format", f.Name)
		}
		if err := scanBinaryValue(f.DataTypeOID, v, targets[i]); err != nil {
			return fmt.Errorf("scan %s: %w", f.Name, err)
		}
	}
	return nil
}

func scanBinaryValue(oid uint32, v []byte, target any) error {
	switch t := target.(type) {
	case *string:
		if err := wantOID(oid, pgtype.TextOID, pgtype.VarcharOID); err != nil {
			return err
		}
		if v == nil {
			return errNull
		}
		*t = string(v)
	case **string:
		if err := wantOID(oid, pgtype.TextOID, pgtype.VarcharOID); err != nil {
			return err
		}
		*t = nil
		if v != nil {
			s := string(v)
			*t = &s
		}
	case *int64:
		if err := wantOID(oid, pgtype.Int8OID); err != nil {
			return err
		}
		if v == nil {
			return errNull
		}
		if len(v) != 8 {
			return errLength(len(v))
		}
		*t = int64(binary.BigEndian.Uint64(v))
	case **float64:
		if err := wantOID(oid, pgtype.Float8OID); err != nil {
			return err
		}
		*t = nil
		if v != nil {
			if len(v) != 8 {
				return errLength(len(v))
			}
			f := math.Float64frombits(binary.BigEndian.Uint64(v))
			*t = &f
		}
	case **time.Time:
		if err := wantOID(oid, pgtype.TimestamptzOID); err != nil {
			return err
		}
		*t = nil
		if v != nil {
			tm, err := timestamptz(v)
			if err != nil {
				return err
			}
			*t = &tm
		}
	case *[]string:
		if err := wantOID(oid, pgtype.TextArrayOID, pgtype.VarcharArrayOID); err != nil {
			return err
		}
		a, err := textArray(v)
		if err != nil {
			return err
		}
		*t = a
	default:
		return fmt.Errorf("cannot scan into %T", target)
	}
	return nil
}

var (
	errNull       = errors.New("NULL where a value is required")
	errShortArray = errors.New("a binary array cut short")
)

func errLength(n int) error { return fmt.Errorf("%d bytes where 8 are expected", n) }

func wantOID(oid uint32, want ...uint32) error {
	for _, w := range want {
		if oid == w {
			return nil
		}
	}
	return fmt.Errorf("column type oid %d, expected %v", oid, want)
}

// Microseconds from the Unix epoch to PostgreSQL's, 2000-01-01 UTC, and
// PostgreSQL's infinities.
const (
	unixToY2KMicros  = 946_684_800 * 1_000_000
	infinityMicros   = math.MaxInt64
	minusInfinMicros = math.MinInt64
)

// timestamptz decodes a binary timestamptz as pgx does into a time.Time:
// in the local time zone; the infinities are errors.
func timestamptz(v []byte) (time.Time, error) {
	if len(v) != 8 {
		return time.Time{}, errLength(len(v))
	}
	us := int64(binary.BigEndian.Uint64(v))
	if us == infinityMicros || us == minusInfinMicros {
		return time.Time{}, errors.New("an infinite timestamp")
	}
	return time.Unix(unixToY2KMicros/1_000_000+us/1_000_000, (unixToY2KMicros%1_000_000*1_000)+(us%1_000_000*1_000)), nil
}

// textArray decodes a binary one-dimensional array of text: nil for NULL,
// empty (not nil) for an empty array, as pgx scans into []string.
//
// The format (array_send): number of dimensions, a has-NULLs flag and the
// element type, then each dimension's length and lower bound, then each
// element as its length (-1 for NULL) and bytes.
func textArray(v []byte) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	if len(v) < 12 {
		return nil, errShortArray
	}
	ndim := int32(binary.BigEndian.Uint32(v))
	v = v[12:]
	switch ndim {
	case 0:
		return []string{}, nil
	case 1:
	default:
		return nil, fmt.Errorf("an array of %d dimensions", ndim)
	}
	if len(v) < 8 {
		return nil, errShortArray
	}
	n := int32(binary.BigEndian.Uint32(v))
	v = v[8:]
	if n < 0 || int(n) > len(v)/4 {
		return nil, fmt.Errorf("an array of %d elements in %d bytes", n, len(v))
	}
	out := make([]string, n)
	for i := range out {
		if len(v) < 4 {
			return nil, errShortArray
		}
		size := int32(binary.BigEndian.Uint32(v))
		v = v[4:]
		if size < 0 {
			return nil, errors.New("a NULL array element")
		}
		if int(size) > len(v) {
			return nil, errShortArray
		}
		out[i] = string(v[:size])
		v = v[size:]
	}
	return out, nil
}
