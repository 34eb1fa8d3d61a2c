// Package currency reads the ECB's euro foreign exchange reference rates
// (the layout of the ECB's eurofxref.csv and eurofxref-hist.csv) and keeps
// the current table, reloaded when its file changes.
package currency

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Base is the currency the rates are quoted against: each rate is units of
// a currency per 1 EUR.
const Base = "EUR"

// Rates is one day's reference rates. It is immutable.
type Rates struct {
	date   time.Time
	perEUR map[string]float64 // EUR included, at 1
	digest string
}

// Date is the day of the rates, as YYYY-MM-DD.
func (r *Rates) Date() string { return r.date.Format(time.DateOnly) }

// Rate returns the units of code per 1 EUR, and false when the table has
// no rate for code.
func (r *Rates) Rate(code string) (float64, bool) {
	if r == nil {
		return 0, false
	}
	v, ok := r.perEUR[code]
	return v, ok
}

// Codes returns the currencies with a rate, EUR included, in alphabetical
// order.
func (r *Rates) Codes() []string {
	return slices.Sorted(maps.Keys(r.perEUR))
}

// Digest identifies the table's content: two tables with the same date and
// rates have the same digest. A nil table's digest is "".
func (r *Rates) Digest() string {
	if r == nil {
		return ""
	}
	return r.digest
}

// Same reports whether a and b are the same rates (both nil included).
func Same(a, b *Rates) bool { return a.Digest() == b.Digest() }

// ValidCode returns code in upper case when it is shaped like an ISO 4217
// code (three ASCII letters).
func ValidCode(code string) (string, bool) {
	if len(code) != 3 {
		return "", false
	}
	for i := range 3 {
		c := code[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			return "", false
		}
	}
	return strings.ToUpper(code), true
}

// dateLayouts are the ECB files' date spellings: the daily file's
// ("13 April 2026") and the history's ("2026-04-13").
var dateLayouts = []string{time.DateOnly, "2 January 2006"}

// Parse reads a rates file in the ECB's CSV layout: a header "Date" and
// currency codes, then one row a day (a trailing empty column allowed,
// "N/A" or an empty cell where a currency has no rate). It returns the
// rates of the latest day. Anything else is an error naming its line.
func Parse(r io.Reader) (*Rates, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("rates: empty file")
	}
	if err != nil {
		return nil, fmt.Errorf("rates: %w", err)
	}
	header = trimTrailing(header)
	if len(header) < 2 || !strings.EqualFold(strings.TrimSpace(header[0]), "Date") {
		return nil, errors.New(`rates: line 1: the header must be "Date" followed by currency codes`)
	}
	codes := make([]string, len(header)-1)
	for i, h := range header[1:] {
		c, ok := ValidCode(strings.TrimSpace(h))
		if !ok || c != strings.TrimSpace(h) {
			return nil, fmt.Errorf("rates: line 1, column %d: %q is not a currency code (three capital letters)", i+2, clip(h))
		}
		codes[i] = c
	}
	var best *Rates
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("rates: %w", err)
		}
		line, _ := cr.FieldPos(0)
		row = trimTrailing(row)
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue // a blank line
		}
		if len(row) != len(header) {
			return nil, fmt.Errorf("rates: line %d: %d cells where the header has %d", line, len(row), len(header))
		}
		day, err := parseDate(strings.TrimSpace(row[0]))
		if err != nil {
			return nil, fmt.Errorf("rates: line %d: %w", line, err)
		}
		rates := &Rates{date: day, perEUR: map[string]float64{Base: 1}}
		for i, cell := range row[1:] {
			cell = strings.TrimSpace(cell)
			if cell == "" || cell == "N/A" {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("rates: line %d, %s: %q is not a rate (a number > 0, or N/A)", line, codes[i], clip(cell))
			}
			if codes[i] != Base {
				rates.perEUR[codes[i]] = v
			}
		}
		if best == nil || day.After(best.date) {
			best = rates // every row is checked; the latest day is kept
		}
	}
	if best == nil {
		return nil, errors.New("rates: no day's rates after the header")
	}
	best.digest = digest(best)
	return best, nil
}

// Load reads the rates file at path (Parse).
func Load(path string) (*Rates, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func parseDate(s string) (time.Time, error) {
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2026-04-13 or 13 April 2026)", clip(s))
}

// trimTrailing drops the empty cell the ECB's rows end with.
func trimTrailing(row []string) []string {
	if n := len(row); n > 1 && strings.TrimSpace(row[n-1]) == "" {
		return row[:n-1]
	}
	return row
}

// clip shortens a cell quoted in an error.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

func digest(r *Rates) string {
	var b bytes.Buffer
	b.WriteString(r.Date())
	for _, c := range r.Codes() {
		fmt.Fprintf(&b, ";%s=%s", c, strconv.FormatFloat(r.perEUR[c], 'g', -1, 64))
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:8])
}
