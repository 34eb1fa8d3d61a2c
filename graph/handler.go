package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/jobsd-dev/jobsd/domain"
)

// HandlerOptions configure the GraphQL endpoint. A zero member takes its
// default.
type HandlerOptions struct {
	// ComplexityLimit rejects operations of a higher cost (default 10,000:
	// a list costs its page size times its fields, so a page of 100 full
	// cards costs about 2,500; see cost.go).
	ComplexityLimit int
	// DepthLimit rejects operations nested deeper (default 10);
	// introspection has a rule of its own.
	DepthLimit int
	// MaxRootFields rejects operations with more root fields, fragments
	// expanded (default 10).
	MaxRootFields int
	// MaxAliases rejects operations with more aliased fields (default 10).
	MaxAliases int
	// MaxDocumentBytes rejects longer query documents before parsing
	// (default 32 KiB).
	MaxDocumentBytes int
	// MaxStringBytes rejects longer string literals and string variables
	// (default 1 KiB).
	MaxStringBytes int
	// MaxFields rejects documents selecting more fields, fragments
	// expanded, before they are validated (default 500).
	MaxFields int
	// ExpensiveCost is the cost from which an operation is expensive
	// (default 1,000): ExpensivePerKey of them (default 1) run at once for
	// one API key, ExpensiveTotal (default 2) in all; the others wait.
	ExpensiveCost   int
	ExpensivePerKey int
	ExpensiveTotal  int
	// DBPerRequest is how many store calls of one request run at once
	// (default 2).
	DBPerRequest int
	// PersistedQueries is the number of automatic persisted queries kept
	// (default 1,000; at most 8 MiB of them).
	PersistedQueries int
	// Introspection allows schema introspection queries.
	Introspection bool
	// RequestID returns the id of the request a context belongs to, for
	// logs and error extensions.
	RequestID func(context.Context) string
	// ClientKey names the API key of the request a context belongs to, for
	// the bounds of expensive work per key ("" for none).
	ClientKey func(context.Context) string
	// OnError, when set, is called with the contract code of each error a
	// GraphQL answer carries ("" when it has none), as it is sent: errors
	// in answers with status 200 are otherwise invisible to monitoring.
	// The errors the server's middleware answers /graphql with before
	// gqlgen runs (401, 413, 429, 503 for keys) are not GraphQL answers'
	// and are not reported here.
	OnError func(code string)
	// Authenticate, when set, makes /graphql serve subscriptions over
	// WebSocket: it checks the API key a connection presents in
	// connection_init's payload ({"x-api-key": …}, or else the upgrade
	// request's header) and returns the context its operations run in; an
	// error refuses the connection (closed with code 4403).
	Authenticate func(ctx context.Context, key string) (context.Context, error)
	// Closing, when done, closes every WebSocket connection (the server is
	// shutting down).
	Closing context.Context
	// NoFastPath serves every operation through gqlgen's executor, without
	// the fast path of fastpath.go (for tests that compare the two).
	NoFastPath bool
	// fastPathServed, when set, is called each time the fast path answers
	// an operation (tests).
	fastPathServed func()
}

// withDefaults returns the options with each zero member set to its
// default.
func (o HandlerOptions) withDefaults() HandlerOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.ComplexityLimit, 10000)
	def(&o.DepthLimit, 10)
	def(&o.MaxRootFields, 10)
	def(&o.MaxAliases, 10)
	def(&o.MaxDocumentBytes, 32<<10)
	def(&o.MaxStringBytes, 1<<10)
	def(&o.MaxFields, 500)
	def(&o.ExpensiveCost, 1000)
	def(&o.ExpensivePerKey, 1)
	def(&o.ExpensiveTotal, 2)
	def(&o.DBPerRequest, 2)
	def(&o.PersistedQueries, 1000)
	if o.RequestID == nil {
		o.RequestID = func(context.Context) string { return "" }
	}
	if o.ClientKey == nil {
		o.ClientKey = func(context.Context) string { return "" }
	}
	return o
}

var protocolErrorsOnce sync.Once

// NewHandler returns the http.Handler of /graphql: POST and GET transports,
// a parsed-query cache, a complexity limit, errors carrying the contract's
// codes in extensions.code, and the fast path of the common reads
// (fastpath.go).
func NewHandler(r *Resolver, opts HandlerOptions) http.Handler {
	// The contract answers every GraphQL error with HTTP 200 and the errors
	// array, including documents that fail to parse or validate.
	protocolErrorsOnce.Do(func() {
		errcode.RegisterErrorType(errcode.ValidationFailed, errcode.KindUser)
		errcode.RegisterErrorType(errcode.ParseFailed, errcode.KindUser)
	})
	opts = opts.withDefaults()
	schema := NewExecutableSchema(Config{Resolvers: r})
	srv := handler.New(schema)
	if opts.Authenticate != nil {
		srv.AddTransport(newSocketTransport(opts.Authenticate, opts.Closing))
	}
	srv.AddTransport(transport.Options{})
	srv.AddTransport(getTransport{})
	srv.AddTransport(postTransport{})
	srv.AddTransport(unsupportedTransport{})
	parsed := newByteLRU(1000, 16<<20, parsedQueryWeight)
	srv.SetQueryCache(parsed)
	srv.Use(transportRule{})
	srv.Use(documentLimit{maxBytes: opts.MaxDocumentBytes, maxFields: opts.MaxFields, maxString: opts.MaxStringBytes, parsed: parsed})
	srv.Use(extension.AutomaticPersistedQuery{Cache: newByteLRU(opts.PersistedQueries, 8<<20, persistedQueryWeight)})
	srv.Use(&costLimit{rules: costRules{
		limit: opts.ComplexityLimit, maxDepth: opts.DepthLimit, maxRootFields: opts.MaxRootFields,
		maxAliases: opts.MaxAliases, maxString: opts.MaxStringBytes, needsDatabase: r.svc.NeedsDatabase,
	}})
	srv.Use(newExpensiveGate(opts.ExpensiveCost, opts.ExpensivePerKey, opts.ExpensiveTotal, opts.RequestID, opts.ClientKey))
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(statusOverride{onError: opts.OnError})
	if !opts.NoFastPath {
		// Last: it answers common reads itself, after the extensions above.
		srv.Use(&fastPath{schema: schema.(*executableSchema), served: opts.fastPathServed})
	}
	r.present = presentError(r.log, opts.RequestID)
	srv.SetErrorPresenter(r.present)
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		// Logged here, with the stack; the presenter then shows the client
		// the internal code without logging it again.
		r.log.ErrorContext(ctx, "panic in GraphQL resolver", "panic", fmt.Sprint(v), "stack", string(debug.Stack()), "request_id", opts.RequestID(ctx))
		return domain.Errorf(domain.CodeInternal, "internal error")
	})
	return withStatusOverride(r.withLoaders(srv, opts.DBPerRequest))
}

// gqlCodes maps gqlgen's own error codes to the contract's.
var gqlCodes = map[string]string{
	errcode.ValidationFailed:                   domain.CodeInvalidParameter,
	errcode.ParseFailed:                        domain.CodeInvalidParameter,
	"COMPLEXITY_LIMIT_EXCEEDED":                domain.CodeQueryTooComplex,
	domain.CodeQueryTooComplex:                 domain.CodeQueryTooComplex,
	"PERSISTED_QUERY_NOT_FOUND":                domain.CodeInvalidParameter,
	"PERSISTED_QUERY_NOT_SUPPORTED":            domain.CodeInvalidParameter,
	"GRAPHQL_OPERATION_NOT_FOUND":              domain.CodeInvalidParameter,
	"OPERATION_NOT_FOUND":                      domain.CodeInvalidParameter,
	"GRAPHQL_VALIDATION_FAILED_OPERATION_NAME": domain.CodeInvalidParameter,
}

// presentError gives every error extensions.code: the code of a
// *domain.Error (with its param and, for a closed posting, closedAt), the
// contract's code for gqlgen's protocol errors, or internal, whose details
// go to the log only.
func presentError(log *slog.Logger, requestID func(context.Context) string) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gqlErr := graphql.DefaultErrorPresenter(ctx, err)
		if gqlErr.Extensions == nil {
			gqlErr.Extensions = map[string]any{}
		}
		var appErr *domain.Error
		switch {
		case domain.TimedOut(err):
			// Whatever wraps it, as REST answers it (domain.Describe).
			code, msg := domain.Describe(err)
			gqlErr.Message, gqlErr.Extensions["code"] = msg, code
		case errors.As(err, &appErr):
			gqlErr.Message = appErr.Message
			if appErr.GraphQLMessage != "" {
				gqlErr.Message = appErr.GraphQLMessage
			}
			gqlErr.Extensions["code"] = appErr.Code
			if appErr.Param != "" {
				gqlErr.Extensions["param"] = graphQLParam(appErr.Param)
			}
			if appErr.ClosedAt != nil {
				gqlErr.Extensions["closedAt"] = domain.FormatTime(*appErr.ClosedAt)
			}
			if appErr.Cursor != "" {
				gqlErr.Extensions["cursor"] = appErr.Cursor
			}
		case gqlErr.Rule == "MaxIntrospectionDepth":
			gqlErr.Extensions["code"] = domain.CodeQueryTooComplex
		case gqlErr.Extensions["code"] != nil:
			code, _ := gqlErr.Extensions["code"].(string)
			if c, ok := gqlCodes[code]; ok {
				gqlErr.Extensions["code"] = c
			} else {
				gqlErr.Extensions["code"] = domain.CodeInvalidParameter
			}
		case isInputError(gqlErr), isRequestError(err):
			gqlErr.Extensions["code"] = domain.CodeInvalidParameter
		default:
			if domain.Logged(err) {
				log.ErrorContext(ctx, "internal error in GraphQL request", "error", err.Error(), "request_id", requestID(ctx))
			}
			gqlErr.Message = "internal error"
			gqlErr.Extensions["code"] = domain.CodeInternal
		}
		if appErr == nil {
			// gqlparser's and gqlgen's messages and paths quote names and
			// values of the request: each is cut short.
			gqlErr.Message = clipMessage(gqlErr.Message)
			for i, p := range gqlErr.Path {
				if name, ok := p.(ast.PathName); ok && len(name) > domain.MaxEcho {
					gqlErr.Path[i] = ast.PathName(domain.Clip(string(name)))
				}
			}
		}
		if id := requestID(ctx); id != "" {
			gqlErr.Extensions["request_id"] = id
		}
		return gqlErr
	}
}

// isRequestError reports an error gqlgen raised about the request itself
// before running it, without a code (a persisted query's hash that does
// not match its query, an unsupported version): a *gqlerror.Error of its
// own, wrapping no error and at no path. Resolvers' errors reach the
// presenter wrapped, or as *domain.Error.
func isRequestError(err error) bool {
	e, ok := err.(*gqlerror.Error)
	return ok && e.Err == nil && len(e.Path) == 0
}

// isInputError reports errors gqlgen raises while reading arguments, such as
// an enum value the schema does not have.
func isInputError(e *gqlerror.Error) bool {
	var inputErr *gqlerror.Error
	return errors.As(e.Err, &inputErr)
}

// graphQLParam turns the REST name of a parameter into its GraphQL name
// (salary_min → salaryMin; the REST cursor is GraphQL's after).
func graphQLParam(p string) string {
	if p == "cursor" {
		return "after"
	}
	parts := strings.Split(p, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// maxMessage is the longest message of an error gqlgen or gqlparser
// raised.
const maxMessage = 512

// clipMessage cuts what a message of gqlgen's or gqlparser's quotes of the
// request (names and values, quoted or not) to domain.MaxEcho bytes each,
// and the message to maxMessage bytes.
func clipMessage(msg string) string {
	if len(msg) <= domain.MaxEcho {
		return msg
	}
	// Quoted spans first: a value may hold spaces.
	var b strings.Builder
	rest := msg
	for {
		open := strings.IndexByte(rest, '"')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open+1:], '"')
		if end < 0 {
			break
		}
		b.WriteString(rest[:open+1])
		b.WriteString(domain.Clip(rest[open+1 : open+1+end]))
		b.WriteByte('"')
		rest = rest[open+1+end+1:]
	}
	b.WriteString(rest)
	words := strings.Split(b.String(), " ")
	for i, w := range words {
		if len(w) > domain.MaxEcho {
			words[i] = domain.Clip(w)
		}
	}
	out := strings.Join(words, " ")
	if len(out) > maxMessage {
		out = shorten(out, maxMessage)
	}
	return out
}
