package rest

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/jobsd-dev/jobsd/domain"
)

// statusOf maps the contract's error codes to their HTTP statuses; a code
// not in it is a 500.
var statusOf = map[string]int{
	domain.CodeInvalidParameter: http.StatusBadRequest,
	domain.CodeUnknownParameter: http.StatusBadRequest,
	domain.CodeQueryTooComplex:  http.StatusBadRequest,
	domain.CodeUnauthorized:     http.StatusUnauthorized,
	domain.CodeNotFound:         http.StatusNotFound,
	domain.CodeGone:             http.StatusGone,
	domain.CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	domain.CodePayloadTooLarge:  http.StatusRequestEntityTooLarge,
	domain.CodeRateLimited:      http.StatusTooManyRequests,
	domain.CodeInternal:         http.StatusInternalServerError,
	domain.CodeUnavailable:      http.StatusServiceUnavailable,
}

// Status returns the HTTP status of an error's code.
func Status(err error) int {
	code := domain.ErrorCode(err)
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
	// ClosedAt is when a closed posting closed (gone), RFC 3339 UTC.
	ClosedAt string `json:"closed_at,omitempty"`
	// Cursor is where a stream ended (resync_required, gone, unavailable):
	// the last cursor delivered, to resume after.
	Cursor    string `json:"cursor,omitempty"`
	RequestID string `json:"request_id"`
}

// WriteError writes err as the contract's REST error body. Internal errors
// are logged with the request id and shown to the client only as
// "internal error". The param field is clipped (Clip): it names a
// parameter, and a client's unknown name may be of any length.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	writeJSON(w, r, Status(err), errorBodyOf(r, log, err))
}

// errorBodyOf is the contract's error body of err (WriteError's, and a
// stream's error event's).
func errorBodyOf(r *http.Request, log *slog.Logger, err error) errorBody {
	code, msg := domain.Describe(err)
	reqID := middleware.GetReqID(r.Context())
	if domain.Logged(err) {
		log.ErrorContext(r.Context(), "internal error", "error", err.Error(), "method", r.Method, "path", r.URL.Path, "request_id", reqID)
	}
	detail := errorDetail{Code: code, Message: msg, Param: Clip(domain.ErrorParam(err)), RequestID: reqID}
	var appErr *domain.Error
	if errors.As(err, &appErr) {
		if appErr.ClosedAt != nil {
			detail.ClosedAt = domain.FormatTime(*appErr.ClosedAt)
		}
		detail.Cursor = appErr.Cursor
	}
	return errorBody{Error: detail}
}
