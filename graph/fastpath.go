package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// The fast path answers the common read operations (a page of job cards,
// one job, a page of companies) without gqlgen's per-field execution, whose
// field contexts, collected fields and goroutine per list element cost
// several times REST's hand-written JSON. It resolves the root field with
// the same resolver method and the same argument coercion as the generated
// code (there is no second query path) and writes the data itself, byte for
// byte what gqlgen would (fastpath_test.go compares the two). Its writers
// and field lists are generated from the schema and gqlgen's bindings by
// graph/fastgen (fastpath_gen.go) on top of the primitives of
// fastpath_encode.go; the root fields it answers and the resolver fields it
// may call are named in resolver.go's go:generate line.
//
// An operation qualifies when it is a query whose only selection is one of
// those root fields, and every selection set under it holds only fields of
// fastFields (aliases and __typename allowed), with no fragment,
// directive, argument (but the root field's) or repeated response key.
// Anything else, a resolver error, a null where the schema forbids one, a
// NaN or infinite Float, or a panic goes to gqlgen (next), so that every
// error is gqlgen's own; the resolver then runs twice, on failures only.
//
// The fast path is an operation interceptor: the parameter and context
// mutators (persisted queries, depth and complexity limits, introspection)
// have run before it. It skips gqlgen's response, root-field and field
// interceptors, so it is correct only while none of them changes a
// successful answer (statusOverride looks at errors only, and a fast answer
// has none); and the resolvers it calls get no graphql.FieldContext.

// fastPath is the gqlgen extension of the fast path.
type fastPath struct {
	schema *executableSchema
	// served, when set, is called each time the fast path answers (tests).
	served func()
}

var (
	_ graphql.HandlerExtension     = (*fastPath)(nil)
	_ graphql.OperationInterceptor = (*fastPath)(nil)
)

// ExtensionName implements graphql.HandlerExtension.
func (*fastPath) ExtensionName() string { return "FastPath" }

// Validate implements graphql.HandlerExtension.
func (*fastPath) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation answers a qualifying operation, and leaves any other
// to gqlgen.
func (p *fastPath) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	root := qualifyingRoot(oc)
	if root == nil {
		return next(ctx)
	}
	e, ok := p.answer(ctx, oc, root)
	if !ok {
		return next(ctx)
	}
	if p.served != nil {
		p.served()
	}
	resp := &graphql.Response{Data: claimFastAnswer(ctx, e)}
	if c := operationCost(oc); c != nil {
		resp.Extensions = map[string]any{costExtension: c.Cost}
	}
	return graphql.OneShot(resp)
}

// fastRun is one fast-path answer in progress: the encoder and what the
// generated writers need to call resolvers as gqlgen calls them.
type fastRun struct {
	*encoder
	ctx  context.Context
	ec   *executionContext
	vars map[string]any
}

// fastField is what the selection check knows of a field the fast path
// answers (the generated fastFields).
type fastField struct {
	object string // the object type of its value, "" for a scalar or an enum
	args   bool   // it takes arguments, coerced by gqlgen's own functions
}

// answer resolves the root field and writes the data of the response into
// an encoder, which the caller releases, or reports false when gqlgen must
// answer.
func (p *fastPath) answer(ctx context.Context, oc *graphql.OperationContext, root *ast.Field) (enc *encoder, ok bool) {
	e := getEncoder()
	defer func() {
		// gqlgen runs the operation again, and recovers and logs the panic
		// itself (once: not here). The tests' count of fast answers shows
		// a panic of the encoder.
		if recover() != nil {
			enc, ok = nil, false
		}
		if !ok {
			putEncoder(e)
		}
	}()
	// The generated writers coerce arguments with the generated argument
	// functions, exactly as gqlgen does.
	// The resolvers see the root field in the context instead of a field
	// context (selectsCardExtras).
	ctx = withFastField(ctx, root)
	r := fastRun{encoder: e, ctx: ctx, ec: newExecutionContext(oc, p.schema, nil), vars: oc.Variables}
	e.buf = append(e.buf, '{')
	e.string(root.Alias)
	e.buf = append(e.buf, ':')
	if !r.root(root) || e.failed {
		return nil, false
	}
	e.buf = append(e.buf, '}')
	return e, true
}

// qualifyingRoot returns the root field of an operation the fast path
// answers, or nil.
func qualifyingRoot(oc *graphql.OperationContext) *ast.Field {
	op := oc.Operation
	if op == nil || op.Operation != ast.Query || len(op.Directives) > 0 || len(op.SelectionSet) != 1 {
		return nil
	}
	for _, v := range op.VariableDefinitions {
		if len(v.Directives) > 0 {
			return nil
		}
	}
	root, ok := op.SelectionSet[0].(*ast.Field)
	if !ok || len(root.Directives) > 0 || root.Definition == nil ||
		root.ObjectDefinition == nil || root.ObjectDefinition.Name != "Query" {
		return nil
	}
	typ, ok := fastRoots[root.Name]
	if !ok || !plainSelection(typ, root.SelectionSet) {
		return nil
	}
	return root
}

// plainSelection reports whether a selection set on the object type typ
// holds only plain fields, each under its own response key, and the same
// of theirs.
func plainSelection(typ string, set ast.SelectionSet) bool {
	fields := fastFields[typ]
	if len(set) == 0 || fields == nil {
		return false
	}
	for i, sel := range set {
		f, ok := sel.(*ast.Field)
		if !ok || len(f.Directives) > 0 || f.Definition == nil || f.ObjectDefinition == nil || f.ObjectDefinition.Name != typ ||
			(len(f.Arguments) > 0 || len(f.Definition.Arguments) > 0) && !fields[f.Name].args {
			return false
		}
		// gqlgen merges fields under one response key; the fast path
		// does not.
		for _, prev := range set[:i] {
			if prev.(*ast.Field).Alias == f.Alias {
				return false
			}
		}
		if f.Name == "__typename" {
			if len(f.SelectionSet) > 0 {
				return false
			}
			continue
		}
		field, ok := fields[f.Name]
		switch {
		case !ok:
			return false
		case field.object == "":
			if len(f.SelectionSet) > 0 {
				return false
			}
		case !plainSelection(field.object, f.SelectionSet):
			return false
		}
	}
	return true
}
