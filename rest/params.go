package rest

import (
	"errors"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/jobsd-dev/jobsd/domain"
)

// params reads a query string: syntax only (integers, numbers, comma
// lists, unknown names). What values mean is decided by package normalize,
// behind the resolvers.
type params struct {
	values url.Values
	err    error
}

// readParams checks that every parameter is one of known by a linear
// search: known is a few dozen names, too few to be worth a set built for
// every request.
func readParams(u *url.URL, known ...string) *params {
	p := &params{values: u.Query()}
	var unknown []string
	for name := range p.values {
		if !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		// The first by name, so that the error does not depend on map order.
		p.fail(unknownParam(slices.Min(unknown), known))
	}
	return p
}

func (p *params) fail(err error) {
	if p.err == nil && err != nil {
		p.err = err
	}
}

// MaxEcho is the most bytes of a client's input (a parameter's name or
// value, a path) an error message quotes (domain.MaxEcho).
const MaxEcho = domain.MaxEcho

// Clip returns s whole when it is at most MaxEcho bytes long, and else its
// first MaxEcho bytes (never half a UTF-8 character) followed by "…".
func Clip(s string) string { return domain.Clip(s) }

// maxSuggestName is the longest unknown name for which a known name is
// suggested: the edit-distance search costs the product of the lengths,
// and no known name is that long.
const maxSuggestName = 64

// unknownParam is the unknown_parameter error, with the closest known name
// as a suggestion when one is near. The name is quoted clipped (Clip).
func unknownParam(name string, known []string) *domain.Error {
	best := nearestName(name, known, levenshtein.ComputeDistance)
	quoted := strconv.Quote(Clip(name))
	e := &domain.Error{Code: domain.CodeUnknownParameter, Param: Clip(name),
		Message: "unknown parameter " + quoted + "; known parameters: " + strings.Join(known, ", ")}
	if best != "" {
		e.Message = "unknown parameter " + quoted + "; did you mean " + strconv.Quote(best) + "?"
	}
	return e
}

// nearestName returns the known name closest to an unknown one by the
// edit distance, "" when none is near; no name is searched for one longer
// than maxSuggestName.
func nearestName(name string, known []string, distance func(a, b string) int) string {
	if len(name) > maxSuggestName {
		return ""
	}
	best := ""
	lower := strings.ToLower(name)
	bestDist := max(3, len(lower)/3+1)
	for _, k := range known {
		d := distance(lower, k)
		if len(lower) >= 3 && strings.HasPrefix(k, lower) {
			d = min(d, 1) // a cut-off name: "skil", "loc"
		}
		if d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// single returns the value of a parameter given at most once.
func (p *params) single(name string) (string, bool) {
	vs, ok := p.values[name]
	if !ok {
		return "", false
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			p.fail(domain.InvalidParam(name, "%s is given more than once with different values", name))
		}
	}
	return vs[0], true
}

// str returns a string parameter, nil when absent.
func (p *params) str(name string) *string {
	v, ok := p.single(name)
	if !ok {
		return nil
	}
	return &v
}

// list returns a comma-separated list parameter; repeating the parameter
// adds items.
func (p *params) list(name string) []string {
	var out []string
	for _, v := range p.values[name] {
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

// integer returns an integer parameter, nil when absent; msg says what it
// must be.
func (p *params) integer(name, msg string) *int {
	v, ok := p.single(name)
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	var numErr *strconv.NumError
	if errors.As(err, &numErr) && numErr.Err == strconv.ErrRange && !strings.HasPrefix(strings.TrimSpace(v), "-") {
		// A whole number too large for an int: as large as it gets, so that
		// limits clamp and offsets fall past the end.
		n, err = math.MaxInt32, nil
	}
	if err != nil {
		p.fail(domain.InvalidParam(name, "%s", msg))
		return nil
	}
	return &n
}

// number returns a numeric parameter, nil when absent.
func (p *params) number(name string) *float64 {
	return p.float(name, name+" must be a number ≥ 0")
}

// float returns a number parameter, nil when absent; msg says what it
// must be.
func (p *params) float(name, msg string) *float64 {
	v, ok := p.single(name)
	if !ok {
		return nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		p.fail(domain.InvalidParam(name, "%s", msg))
		return nil
	}
	return &f
}

// boolean returns a true/false parameter (also 1/0), nil when absent.
func (p *params) boolean(name string) *bool {
	v, ok := p.single(name)
	if !ok {
		return nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes":
		b := true
		return &b
	case "false", "0", "no":
		b := false
		return &b
	}
	p.fail(domain.InvalidParam(name, "%s must be true or false", name))
	return nil
}
