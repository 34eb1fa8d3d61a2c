package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// cardExtraFields are the JobCard fields read only when a selection asks
// for them (search.JobsRequest.CardExtras).
var cardExtraFields = map[string]bool{"postedAt": true, "companyLogo": true, "summary": true}

// fastFieldKey holds the root field the fast path resolves, which has no
// graphql.FieldContext.
type fastFieldKey struct{}

// withFastField returns ctx naming the root field the fast path resolves.
func withFastField(ctx context.Context, f *ast.Field) context.Context {
	return context.WithValue(ctx, fastFieldKey{}, f)
}

// selectsCardExtras reports whether the field a job list's resolver
// resolves selects any of the cards' extras (through nodes, edges,
// fragments), so that a page of the other card fields reads what it did.
func selectsCardExtras(ctx context.Context) bool {
	var set ast.SelectionSet
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Field.Field != nil {
		set = fc.Field.Selections
	} else if f, ok := ctx.Value(fastFieldKey{}).(*ast.Field); ok {
		set = f.SelectionSet
	}
	return setSelectsCardExtras(set)
}

// setSelectsCardExtras reports whether a selection set holds, at any depth,
// a card extra of JobCard. It does not weigh @skip and @include: at worst
// a page reads three columns it does not show.
func setSelectsCardExtras(set ast.SelectionSet) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if cardExtraFields[s.Name] && s.ObjectDefinition != nil && s.ObjectDefinition.Name == "JobCard" {
				return true
			}
			if setSelectsCardExtras(s.SelectionSet) {
				return true
			}
		case *ast.InlineFragment:
			if setSelectsCardExtras(s.SelectionSet) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && setSelectsCardExtras(s.Definition.SelectionSet) {
				return true
			}
		}
	}
	return false
}
