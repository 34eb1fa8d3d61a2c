package graph

import (
	"context"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// limitArgs names, by "Type.field", the fields that complexity() prices
// and the one argument their price depends on (the page size). A
// test holds it to complexity().
var limitArgs = map[string]string{"Query.jobs": "limit", "Query.companies": "limit"}

// cachedComplexity is gqlgen's complexity limit with the complexity of an
// operation remembered: gqlgen walks the whole selection set for every
// request, coercing every priced field's arguments, which cost a job
// request about a fifth of its GraphQL work. An operation without
// directives and fragment spreads (left to gqlgen, to keep the key's
// reasoning short) has a complexity that depends only on its document,
// its name and the page sizes its priced fields ask for, provided those
// fields' arguments coerce: gqlgen prices a field whose arguments do not
// at its default (1 + its children), below its page-size price. So a
// complexity is remembered under that key only when every priced field's
// arguments coerce, and an operation over the limit, a miss or anything
// else goes to gqlgen's own check, so the error and the statistics are
// its.
type cachedComplexity struct {
	limit  int
	inner  *extension.ComplexityLimit
	schema graphql.ExecutableSchema
	known  *lru.LRU[int]
}

var (
	_ graphql.HandlerExtension        = (*cachedComplexity)(nil)
	_ graphql.OperationContextMutator = (*cachedComplexity)(nil)
)

func newCachedComplexity(limit, size int) *cachedComplexity {
	return &cachedComplexity{limit: limit, inner: extension.FixedComplexityLimit(limit), known: lru.New[int](size)}
}

// ExtensionName implements graphql.HandlerExtension: gqlgen's name, under
// which the statistics are kept.
func (c *cachedComplexity) ExtensionName() string { return c.inner.ExtensionName() }

// Validate implements graphql.HandlerExtension.
func (c *cachedComplexity) Validate(schema graphql.ExecutableSchema) error {
	c.schema = schema
	return c.inner.Validate(schema)
}

// MutateOperationContext rejects the operation when it is too complex.
func (c *cachedComplexity) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	key, priced, ok := complexityKey(oc)
	if ok {
		if n, hit := c.known.Get(ctx, key); hit && n <= c.limit {
			oc.Stats.SetExtension(c.ExtensionName(), &extension.ComplexityStats{Complexity: n, ComplexityLimit: c.limit})
			return nil
		}
	}
	if err := c.inner.MutateOperationContext(ctx, oc); err != nil {
		return err
	}
	stats, _ := oc.Stats.GetExtension(c.ExtensionName()).(*extension.ComplexityStats)
	if ok && stats != nil && c.argsCoerce(ctx, priced, oc.Variables) {
		c.known.Add(ctx, key, stats.Complexity)
	}
	return nil
}

// argsCoerce reports whether gqlgen prices every one of the priced fields
// by its page size: their arguments coerce.
func (c *cachedComplexity) argsCoerce(ctx context.Context, priced []*ast.Field, vars map[string]any) bool {
	for _, f := range priced {
		if _, ok := c.schema.Complexity(ctx, f.ObjectDefinition.Name, f.Name, 1, f.ArgumentMap(vars)); !ok {
			return false
		}
	}
	return true
}

// complexityKey returns the key under which the operation's complexity is
// remembered and the priced fields it holds, or false when the complexity
// may depend on more than the key says.
func complexityKey(oc *graphql.OperationContext) (string, []*ast.Field, bool) {
	op := oc.Operation
	if op == nil || len(op.Directives) > 0 {
		return "", nil, false
	}
	var priced []*ast.Field
	if !collectPriced(op.SelectionSet, &priced) {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(oc.OperationName) + len(oc.RawQuery) + 16)
	b.WriteString(oc.OperationName)
	b.WriteByte(0)
	b.WriteString(oc.RawQuery)
	for _, f := range priced {
		b.WriteByte(0)
		a := f.Arguments.ForName(limitArgs[f.ObjectDefinition.Name+"."+f.Name])
		if a != nil && !appendValue(&b, a.Value, oc.Variables) {
			return "", nil, false
		}
	}
	return b.String(), priced, true
}

// collectPriced appends the priced fields of set to out, in document
// order, and reports false on a directive or a fragment spread.
func collectPriced(set ast.SelectionSet, out *[]*ast.Field) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if len(s.Directives) > 0 {
				return false
			}
			if s.ObjectDefinition != nil {
				if _, priced := limitArgs[s.ObjectDefinition.Name+"."+s.Name]; priced {
					*out = append(*out, s)
				}
			}
			if !collectPriced(s.SelectionSet, out) {
				return false
			}
		case *ast.InlineFragment:
			if len(s.Directives) > 0 || !collectPriced(s.SelectionSet, out) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// appendValue writes an Int argument's value, a literal or a variable's
// (null and absent alike, as coercion reads them), and reports false on
// anything else.
func appendValue(b *strings.Builder, v *ast.Value, vars map[string]any) bool {
	switch v.Kind {
	case ast.IntValue, ast.NullValue:
		b.WriteString(v.Raw)
		return true
	case ast.Variable:
		switch x := vars[v.Raw].(type) {
		case nil:
			return true
		case int:
			b.WriteString(strconv.Itoa(x))
			return true
		case int64:
			b.WriteString(strconv.FormatInt(x, 10))
			return true
		}
	}
	return false
}
