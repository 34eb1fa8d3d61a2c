package graph

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/jobsd-dev/jobsd/domain"
)

// documentLimit refuses, before gqlgen parses and validates a document:
// one longer than maxBytes; and one that is not in the parsed-query cache
// (so not checked before) with more than maxFields field selections,
// fragments expanded, or a string literal over maxString bytes.
// Validation compares the fields of a selection set pairwise, so that its
// work grows with the square of their number. It runs before the lookup of
// persisted queries, which therefore never keeps a document it refuses.
type documentLimit struct {
	maxBytes, maxFields, maxString int
	parsed                         *byteLRU[*ast.QueryDocument]
}

// documentTokenLimit is the most tokens documentLimit parses (gqlgen's
// own default limit).
const documentTokenLimit = 15000

var (
	_ graphql.HandlerExtension          = documentLimit{}
	_ graphql.OperationParameterMutator = documentLimit{}
)

// ExtensionName implements graphql.HandlerExtension.
func (documentLimit) ExtensionName() string { return "DocumentLimit" }

// Validate implements graphql.HandlerExtension.
func (documentLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters refuses a document over the limits.
func (d documentLimit) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if len(p.Query) > d.maxBytes {
		return tooComplex("the query document is %d bytes, more than the limit of %d", len(p.Query), d.maxBytes)
	}
	if p.Query == "" || d.parsed.Contains(p.Query) {
		return nil
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, documentTokenLimit)
	if err != nil {
		return nil // gqlgen parses it again and reports the error
	}
	w := costWalk{rules: &costRules{maxString: d.maxString}, frags: doc.Fragments}
	most := 0
	for _, op := range doc.Operations {
		most = max(most, w.set(op.SelectionSet).expanded)
	}
	for _, f := range doc.Fragments {
		most = max(most, w.fragment(f.Name).expanded)
	}
	switch {
	case w.err != nil:
		return w.err
	case most > d.maxFields:
		return tooComplex("the operation selects %d fields, fragments expanded, more than the limit of %d", most, d.maxFields)
	}
	return nil
}

// byteLRU is a least-recently-used cache bounded by the bytes its entries
// weigh as well as by their number, for gqlgen's parsed-query and
// persisted-query caches.
type byteLRU[T any] struct {
	mu     sync.Mutex
	lru    *simplelru.LRU[string, T]
	weight func(key string, v T) int
	bytes  int
	budget int
}

var _ graphql.Cache[any] = (*byteLRU[any])(nil)

// newByteLRU returns a cache of at most entries entries weighing at most
// budget bytes in all.
func newByteLRU[T any](entries, budget int, weight func(key string, v T) int) *byteLRU[T] {
	c := &byteLRU[T]{weight: weight, budget: budget}
	l, err := simplelru.NewLRU[string, T](entries, func(k string, v T) { c.bytes -= c.weight(k, v) })
	if err != nil {
		panic(err) // entries < 1: a programming error
	}
	c.lru = l
	return c
}

// Contains reports whether the cache holds key, without making it recent.
func (c *byteLRU[T]) Contains(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Contains(key)
}

// Get implements graphql.Cache.
func (c *byteLRU[T]) Get(_ context.Context, key string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(key)
}

// Add implements graphql.Cache. An entry heavier than the whole budget is
// not kept.
func (c *byteLRU[T]) Add(_ context.Context, key string, v T) {
	w := c.weight(key, v)
	if w > c.budget {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru.Contains(key) {
		return
	}
	c.lru.Add(key, v)
	c.bytes += w
	for c.bytes > c.budget {
		c.lru.RemoveOldest()
	}
}

// parsedQueryWeight estimates what a parsed document holds in memory: its
// text and about 256 bytes for each selection, argument and value of its
// AST.
func parsedQueryWeight(key string, doc *ast.QueryDocument) int {
	nodes := 0
	var value func(v *ast.Value)
	value = func(v *ast.Value) {
		if v == nil {
			return
		}
		nodes++
		for _, c := range v.Children {
			value(c.Value)
		}
	}
	var set func(s ast.SelectionSet)
	set = func(s ast.SelectionSet) {
		for _, sel := range s {
			nodes++
			switch x := sel.(type) {
			case *ast.Field:
				for _, a := range x.Arguments {
					nodes++
					value(a.Value)
				}
				set(x.SelectionSet)
			case *ast.InlineFragment:
				set(x.SelectionSet)
			}
		}
	}
	if doc != nil {
		for _, op := range doc.Operations {
			nodes += len(op.VariableDefinitions)
			set(op.SelectionSet)
		}
		for _, f := range doc.Fragments {
			set(f.SelectionSet)
		}
	}
	return len(key) + 256*nodes
}

// persistedQueryWeight is the bytes of a persisted query and its hash.
func persistedQueryWeight(key, query string) int { return len(key) + len(query) }

// expensiveGate bounds the expensive operations (those priced at
// threshold or more) that run at once: perKey for each API key, and total
// in all, so that a few costly requests cannot take every database
// connection from the cheap ones. An operation over the bounds waits for
// its turn until its deadline.
type expensiveGate struct {
	threshold int
	perKey    int
	total     chan struct{}
	requestID func(context.Context) string
	clientKey func(context.Context) string

	mu   sync.Mutex
	keys map[string]*keySlots
}

// keySlots are the running expensive operations of one key and how many
// operations hold or wait for them.
type keySlots struct {
	sem   chan struct{}
	users int
}

var (
	_ graphql.HandlerExtension     = (*expensiveGate)(nil)
	_ graphql.OperationInterceptor = (*expensiveGate)(nil)
)

func newExpensiveGate(threshold, perKey, total int, requestID, clientKey func(context.Context) string) *expensiveGate {
	return &expensiveGate{threshold: threshold, perKey: perKey, total: make(chan struct{}, total),
		requestID: requestID, clientKey: clientKey, keys: map[string]*keySlots{}}
}

// ExtensionName implements graphql.HandlerExtension.
func (*expensiveGate) ExtensionName() string { return "ExpensiveGate" }

// Validate implements graphql.HandlerExtension.
func (*expensiveGate) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation runs an expensive operation once its key and the
// service have room for it.
func (g *expensiveGate) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if s := operationCost(oc); s == nil || s.Requested < g.threshold || oc.Operation == nil || oc.Operation.Operation != ast.Query {
		return next(ctx)
	}
	release, err := g.acquire(ctx, g.clientKey(ctx))
	if err != nil {
		e := gqlerror.Errorf("the request ran out of time waiting for this key's other expensive operations")
		e.Extensions = map[string]any{"code": domain.CodeRateLimited}
		if id := g.requestID(ctx); id != "" {
			e.Extensions["request_id"] = id
		}
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{e}})
	}
	var once sync.Once
	handed := false
	defer func() {
		if !handed {
			once.Do(release) // next panicked
		}
	}()
	h := next(ctx)
	handed = true
	return func(ctx context.Context) *graphql.Response {
		defer once.Do(release)
		return h(ctx)
	}
}

// acquire waits for a slot of the key and one of the service.
func (g *expensiveGate) acquire(ctx context.Context, key string) (func(), error) {
	g.mu.Lock()
	s := g.keys[key]
	if s == nil {
		s = &keySlots{sem: make(chan struct{}, g.perKey)}
		g.keys[key] = s
	}
	s.users++
	g.mu.Unlock()
	leave := func() {
		g.mu.Lock()
		if s.users--; s.users == 0 {
			delete(g.keys, key)
		}
		g.mu.Unlock()
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		leave()
		return nil, ctx.Err()
	}
	select {
	case g.total <- struct{}{}:
	case <-ctx.Done():
		<-s.sem
		leave()
		return nil, ctx.Err()
	}
	return func() {
		<-g.total
		<-s.sem
		leave()
	}, nil
}
