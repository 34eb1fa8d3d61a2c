package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Error codes of the contract (section 7). They do not depend on the
// transport: REST maps them to statuses, GraphQL to extensions.code.
const (
	CodeInvalidParameter = "invalid_parameter"
	CodeUnknownParameter = "unknown_parameter"
	CodeUnauthorized     = "unauthorized"
	CodeNotFound         = "not_found"
	CodeGone             = "gone"
	CodeMethodNotAllowed = "method_not_allowed"
	CodePayloadTooLarge  = "payload_too_large"
	CodeRateLimited      = "rate_limited"
	CodeQueryTooComplex  = "query_too_complex"
	CodeInternal         = "internal"
	CodeUnavailable      = "unavailable"
	// CodeResyncRequired ends a subscription or stream whose client fell
	// too far behind (section 15): it reads the list again and resumes
	// from Error.Cursor.
	CodeResyncRequired = "resync_required"
)

// Error is an application error with a contract code, a message safe to show
// to the client, and the parameter it is about (REST snake_case name), if any.
type Error struct {
	Code    string
	Message string
	Param   string
	// ClosedAt is when a closed posting closed (code gone, for a job).
	ClosedAt *time.Time
	// Cursor is the change-feed cursor a subscription ended at (codes
	// resync_required and gone of a subscription): the last one delivered.
	Cursor string
	// GraphQLMessage, when set, is Message in GraphQL's terms (after,
	// endCursor) where REST's (cursor, next_cursor) differ.
	GraphQLMessage string
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%s: %s (param %s)", e.Code, e.Message, e.Param)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// MaxEcho is the most bytes of a client's input an error message quotes.
const MaxEcho = 64

// Clip cuts a client's input to at most MaxEcho bytes (at a rune
// boundary), marking the cut with "…", for quoting it in an error.
func Clip(s string) string {
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidParam returns an invalid_parameter error about param.
func InvalidParam(param, format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParameter, Message: fmt.Sprintf(format, args...), Param: param}
}

// AllowedError is the invalid_parameter error for a value outside a closed
// set; it names the allowed values.
func AllowedError[T ~string](param, got string, allowed ...T) *Error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return InvalidParam(param, "%s must be one of %s; got %q", param, strings.Join(names, ", "), Clip(got))
}

// ErrorCode returns the code of err as every transport answers it
// (Describe); "" for nil.
func ErrorCode(err error) string {
	code, _ := Describe(err)
	return code
}

// ErrorMessage returns the client-safe message of err (Describe).
func ErrorMessage(err error) string {
	_, msg := Describe(err)
	return msg
}

// Describe returns the code and the client-safe message every transport
// answers err with: for a request that ran out of time
// (context.DeadlineExceeded anywhere in the chain, whatever wraps it)
// unavailable, "the request took too long"; else the code and message of
// the first *Error in the chain; internal and a generic text for any
// other error, whose details stay in logs; "" for nil.
func Describe(err error) (code, message string) {
	var e *Error
	switch {
	case err == nil:
		return "", ""
	case TimedOut(err):
		return CodeUnavailable, "the request took too long"
	case errors.As(err, &e):
		return e.Code, e.Message
	}
	return CodeInternal, "internal error"
}

// TimedOut reports whether err is a request that ran out of time.
func TimedOut(err error) bool { return errors.Is(err, context.DeadlineExceeded) }

// Logged reports whether err is worth an error line in the log: an
// internal error, unless the client went away (context.Canceled), which is
// no fault of the server's.
func Logged(err error) bool {
	return ErrorCode(err) == CodeInternal && !errors.Is(err, context.Canceled)
}

// ErrorParam returns the parameter an *Error in err's chain is about, or "".
func ErrorParam(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Param
	}
	return ""
}
