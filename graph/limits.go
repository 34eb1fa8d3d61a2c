package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/jobsd-dev/jobsd/graph/model"
	"github.com/jobsd-dev/jobsd/normalize"
)

// depthLimit rejects operations whose selections nest deeper than Max,
// before anything is resolved.
type depthLimit struct{ Max int }

var (
	_ graphql.HandlerExtension        = depthLimit{}
	_ graphql.OperationContextMutator = depthLimit{}
)

// ExtensionName implements graphql.HandlerExtension.
func (depthLimit) ExtensionName() string { return "DepthLimit" }

// Validate implements graphql.HandlerExtension.
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext rejects the operation when it is too deep.
func (d depthLimit) MutateOperationContext(_ context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if opCtx.Operation == nil {
		return nil
	}
	depth := selectionDepth(opCtx.Operation.SelectionSet, opCtx.Doc.Fragments, map[string]bool{})
	if depth > d.Max {
		err := gqlerror.Errorf("the operation nests %d levels deep, more than the limit of %d", depth, d.Max)
		errcode.Set(err, model.CodeQueryTooComplex)
		return err
	}
	return nil
}

// selectionDepth is the deepest nesting of fields under set, following
// fragments (each fragment once per path, so cycles end).
func selectionDepth(set ast.SelectionSet, fragments ast.FragmentDefinitionList, visiting map[string]bool) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			d = 1 + selectionDepth(s.SelectionSet, fragments, visiting)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, fragments, visiting)
		case *ast.FragmentSpread:
			if visiting[s.Name] {
				continue
			}
			if f := fragments.ForName(s.Name); f != nil {
				visiting[s.Name] = true
				d = selectionDepth(f.SelectionSet, fragments, visiting)
				delete(visiting, s.Name)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// complexity makes a list field cost its page size times its children, so
// that the complexity limit bounds the work of a request.
func complexity() ComplexityRoot {
	var c ComplexityRoot
	pageSize := func(limit *int, def int) int {
		if limit == nil || *limit < 1 {
			return def
		}
		return min(*limit, normalize.MaxLimit)
	}
	c.Query.Jobs = func(child int, _ *model.JobFilter, limit, _ *int, _ *model.JobSort, _ *string) int {
		return 1 + child*pageSize(limit, normalize.DefaultJobLimit)
	}
	c.Query.Companies = func(child int, _, limit, _ *int, _ *model.JobFilter) int {
		return 1 + child*pageSize(limit, normalize.DefaultCompanyLimit)
	}
	return c
}
