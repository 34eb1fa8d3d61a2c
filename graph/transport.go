package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	gojson "github.com/goccy/go-json"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/jobsd-dev/jobsd/domain"
)

// postTransport is gqlgen's POST transport (transport.POST with its
// defaults: the same content negotiation, statuses and bodies), except that
// it writes an answer of the fast path as it is: {"data":…} around the
// bytes fastpath.go encoded, which are compact and escaped as
// encoding/json escapes (HTML characters included), instead of
// json.Marshal compacting and escaping them once more, which would cost
// another pass over every byte of the answer.
type postTransport struct{}

var _ graphql.Transport = postTransport{}

// Supports implements graphql.Transport, as transport.POST does.
func (postTransport) Supports(r *http.Request) bool {
	if r.Header.Get("Upgrade") != "" {
		return false
	}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && r.Method == http.MethodPost && mediaType == "application/json"
}

// fastAnswerKey marks a request's context with the slot the fast path
// puts its answer in.
type fastAnswerKey struct{}

// fastAnswer is the data the fast path answered an operation with, in
// the encoder it was written into, which the transport releases once the
// answer is written.
type fastAnswer struct {
	data json.RawMessage
	enc  *encoder
}

// release gives the answer's encoder back to the pool.
func (a *fastAnswer) release() {
	if a.enc != nil {
		putEncoder(a.enc)
		a.enc, a.data = nil, nil
	}
}

// Do implements graphql.Transport.
func (postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	slot := &fastAnswer{}
	defer slot.release()
	ctx := context.WithValue(r.Context(), fastAnswerKey{}, slot)
	graphQLResponse := responseContentType(r) == contentTypeGraphQLResponse
	if graphQLResponse {
		w.Header().Set("Content-Type", contentTypeGraphQLResponse)
	} else {
		w.Header().Set("Content-Type", contentTypeJSON)
	}
	start := graphql.Now()
	body, err := readBody(r)
	if err != nil {
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("could not read request body: %+v", err)}))
		return
	}
	var params graphql.RawParams
	dec := gojson.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		// The body is not echoed: it may be large, and it is the client's.
		w.WriteHeader(http.StatusBadRequest)
		e := gqlerror.Errorf("the request body is not a GraphQL request in JSON: %s", shorten(err.Error(), 120))
		e.Extensions = map[string]any{"code": domain.CodeInvalidParameter}
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{e}))
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	rc, opErr := exec.CreateOperationContext(ctx, &params)
	if opErr != nil {
		w.WriteHeader(statusForErrors(opErr, graphQLResponse))
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	resp := responses(ctx)
	if slot.data != nil && resp != nil && len(resp.Errors) == 0 && bytes.Equal(resp.Data, slot.data) {
		if cost, ok := onlyCost(resp.Extensions); ok {
			// In three writes: the middleware above buffers the body anyway.
			_, _ = io.WriteString(w, `{"data":`)
			_, _ = w.Write(slot.data)
			var tail [96]byte
			_, _ = w.Write(append(appendCostExtension(tail[:0], cost), '}'))
			return
		}
	}
	writeResponse(w, resp)
}

// claimFastAnswer returns the data of a fast answer written into e. Under
// postTransport the data stays in e, which the transport writes as it is
// and then releases, so that the answer is never copied; elsewhere (the
// GET transport) the data is copied and e released at once.
func claimFastAnswer(ctx context.Context, e *encoder) json.RawMessage {
	if slot, ok := ctx.Value(fastAnswerKey{}).(*fastAnswer); ok && slot.enc == nil {
		slot.enc, slot.data = e, e.buf
		return slot.data
	}
	data := bytes.Clone(e.buf)
	putEncoder(e)
	return data
}

// readBody reads a request's body, into a buffer of its announced length
// when it has one (io.ReadAll grows its buffer from 512 bytes).
func readBody(r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n > 0 && n <= maxPreallocatedBody {
		body := make([]byte, n)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	return io.ReadAll(r.Body)
}

// maxPreallocatedBody is the largest announced length readBody trusts
// before reading (the server's body limit is enforced before this).
const maxPreallocatedBody = 1 << 20

const (
	contentTypeJSON            = "application/json"
	contentTypeGraphQLResponse = "application/graphql-response+json"
)

// responseContentType negotiates the response's media type from Accept as
// transport.POST does by default: application/json unless the client
// asks for application/graphql-response+json alone.
func responseContentType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return contentTypeJSON
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", contentTypeJSON:
			return contentTypeJSON
		case contentTypeGraphQLResponse:
			return contentTypeGraphQLResponse
		}
	}
	return contentTypeGraphQLResponse
}

// statusForErrors is transport.POST's status of an operation that could
// not start: 422 (application/json) or 400 (graphql-response+json) for
// protocol errors, else 200.
func statusForErrors(errs gqlerror.List, graphQLResponse bool) int {
	if errcode.GetErrorKind(errs) != errcode.KindProtocol {
		return http.StatusOK
	}
	if graphQLResponse {
		return http.StatusBadRequest
	}
	return http.StatusUnprocessableEntity
}

// writeResponse writes a response as transport.POST does.
func writeResponse(w io.Writer, resp *graphql.Response) {
	b, err := json.Marshal(resp)
	if err != nil {
		panic(err)
	}
	_, _ = w.Write(b)
}

// onlyCost returns the cost of a response's extensions when they hold the
// cost and nothing else.
func onlyCost(ext map[string]any) (Cost, bool) {
	if len(ext) != 1 {
		return Cost{}, false
	}
	c, ok := ext[costExtension].(Cost)
	return c, ok
}

// shorten cuts s to at most n bytes (at a rune boundary), marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// getTransport is gqlgen's GET transport, except that a query string it
// would refuse with an error of its own, without a code (one that does not
// decode, variables or extensions that are not JSON), is answered with the
// contract's code.
type getTransport struct{ transport.GET }

var _ graphql.Transport = getTransport{}

// Do implements graphql.Transport.
func (g getTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeProtocolError(w, http.StatusBadRequest, domain.CodeInvalidParameter, "the query string does not decode: "+shorten(err.Error(), 120))
		return
	}
	for _, name := range []string{"variables", "extensions"} {
		if v := query.Get(name); v != "" {
			var m map[string]any
			if err := json.Unmarshal([]byte(v), &m); err != nil {
				writeProtocolError(w, http.StatusBadRequest, domain.CodeInvalidParameter, name+" is not a JSON object")
				return
			}
		}
	}
	g.GET.Do(w, r, exec)
}

// writeProtocolError writes an HTTP-level error of /graphql in GraphQL's
// shape, with the contract's code.
func writeProtocolError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", contentTypeJSON)
	e := gqlerror.Errorf("%s", msg)
	e.Extensions = map[string]any{"code": code}
	if id := w.Header().Get("X-Request-ID"); id != "" {
		e.Extensions["request_id"] = id
	}
	w.WriteHeader(status)
	writeResponse(w, &graphql.Response{Errors: gqlerror.List{e}})
}

// unsupportedTransport answers the requests no other transport takes (a
// method other than GET, POST and OPTIONS, a body that is not JSON) with a
// GraphQL-shaped error carrying the contract's code.
type unsupportedTransport struct{}

var _ graphql.Transport = unsupportedTransport{}

// Supports implements graphql.Transport: it is the last one tried.
func (unsupportedTransport) Supports(*http.Request) bool { return true }

// Do implements graphql.Transport.
func (unsupportedTransport) Do(w http.ResponseWriter, r *http.Request, _ graphql.GraphExecutor) {
	status, code := http.StatusBadRequest, domain.CodeInvalidParameter
	msg := "a GraphQL request is a GET with a query parameter, or a POST with Content-Type application/json"
	switch {
	case r.Header.Get("Upgrade") != "":
		msg = "/graphql does not serve websocket or other upgraded connections"
	case r.Method != http.MethodGet && r.Method != http.MethodPost:
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		status, code = http.StatusMethodNotAllowed, domain.CodeMethodNotAllowed
		msg = shorten(r.Method, 32) + " is not allowed on /graphql"
	}
	writeProtocolError(w, status, code, msg)
}
