package graph

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/validator"
)

// TestLimitArgsNameEveryPricedField checks that limitArgs names exactly
// the fields complexity() prices, each with an argument the field has.
func TestLimitArgsNameEveryPricedField(t *testing.T) {
	priced := map[string]bool{}
	root := reflect.ValueOf(complexity())
	for i := range root.NumField() {
		typ := root.Type().Field(i).Name
		for j := range root.Field(i).NumField() {
			if !root.Field(i).Field(j).IsNil() {
				f := root.Field(i).Type().Field(j).Name
				priced[typ+"."+strings.ToLower(f[:1])+f[1:]] = true
			}
		}
	}
	require.NotEmpty(t, priced)
	for name, arg := range limitArgs {
		assert.True(t, priced[name], "%s is not priced by complexity()", name)
		typ, field, _ := strings.Cut(name, ".")
		def := parsedSchema.Types[typ].Fields.ForName(field)
		require.NotNil(t, def, name)
		assert.NotNil(t, def.Arguments.ForName(arg), "%s has no argument %s", name, arg)
	}
	for name := range priced {
		assert.Contains(t, limitArgs, name, "complexity() prices %s, which limitArgs does not name", name)
	}
}

// TestCachedComplexityIsGqlgens checks that the remembered complexity
// gives what gqlgen's own limit gives, the first time and again: the same
// error or none, and the same statistics; and that it remembers what it
// may only.
func TestCachedComplexityIsGqlgens(t *testing.T) {
	const limit = 300
	schema := NewExecutableSchema(Config{Complexity: complexity()})
	cases := []struct {
		name, query string
		vars        map[string]any
		cached      bool
	}{
		{"job by id", `query Job($id: ID!) { job(id: $id) { id title location { city } } }`, map[string]any{"id": "a-1"}, true},
		{"page size literal", `{ jobs(limit: 20) { nodes { id title } pageInfo { total } } }`, nil, true},
		{"page size variable", `query J($l: Int, $f: JobFilter) { jobs(filter: $f, limit: $l) { nodes { id title } } }`,
			map[string]any{"l": 25, "f": map[string]any{"skills": []any{"Go"}}}, true},
		{"page size variable, another size", `query J($l: Int, $f: JobFilter) { jobs(filter: $f, limit: $l) { nodes { id title } } }`,
			map[string]any{"l": 100, "f": map[string]any{"skills": []any{"Go"}}}, true},
		{"page size as JSON reads it", `query J($l: Int) { jobs(limit: $l) { nodes { id } } }`, map[string]any{"l": json.Number("30")}, true},
		{"page size absent", `query J($l: Int) { jobs(limit: $l) { nodes { id } } }`, map[string]any{}, true},
		{"over the limit", `{ jobs(limit: 100) { nodes { id title company location { city state country full } } } }`, nil, true},
		{"two priced fields", `{ a: jobs(limit: 5) { nodes { id } } b: companies(limit: 50) { nodes { name slug } } }`, nil, true},
		{"a directive", `query J($s: Boolean!) { jobs(limit: 100) { nodes { id title company @skip(if: $s) location { city state } } } }`,
			map[string]any{"s": false}, false},
		{"a fragment", `{ jobs(limit: 100) { nodes { ...C } } } fragment C on JobCard { id title }`, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			newOC := func() *graphql.OperationContext {
				doc, errs := gqlparser.LoadQuery(parsedSchema, tc.query)
				require.Nil(t, errs)
				op := doc.Operations[0]
				vars, err := validator.VariableValues(parsedSchema, op, tc.vars)
				require.Nil(t, err)
				return &graphql.OperationContext{RawQuery: tc.query, Doc: doc, Operation: op, Variables: vars}
			}
			gqlgens := extension.FixedComplexityLimit(limit)
			require.NoError(t, gqlgens.Validate(schema))
			want := newOC()
			wantErr := gqlgens.MutateOperationContext(ctx, want)

			c := newCachedComplexity(limit, 10)
			require.NoError(t, c.Validate(schema))
			for range 2 {
				got := newOC()
				assert.Equal(t, wantErr, c.MutateOperationContext(ctx, got))
				assert.Equal(t, want.Stats.GetExtension("ComplexityLimit"), got.Stats.GetExtension("ComplexityLimit"))
			}
			key, _, ok := complexityKey(newOC())
			assert.Equal(t, tc.cached, ok)
			_, known := c.known.Get(ctx, key)
			assert.Equal(t, tc.cached && wantErr == nil, known, "remembered after the first request, unless over the limit")
		})
	}
}

// TestCachedComplexityRemembersNoFailedPrice checks that a request whose
// priced field's arguments do not coerce (gqlgen then prices the field at
// its default, without the page size) leaves nothing remembered, so that
// the same operation with valid arguments is still priced by its page
// size and rejected over the limit.
func TestCachedComplexityRemembersNoFailedPrice(t *testing.T) {
	const limit = 300
	query := `query J($l: Int, $s: JobSort) { jobs(limit: $l, sort: $s) { nodes { a: id b: id c: id d: id e: id f: id } } }`
	newOC := func(vars map[string]any) *graphql.OperationContext {
		doc, errs := gqlparser.LoadQuery(parsedSchema, query)
		require.Nil(t, errs)
		op := doc.Operations[0]
		coerced, err := validator.VariableValues(parsedSchema, op, vars)
		require.Nil(t, err, "the variables validate")
		return &graphql.OperationContext{RawQuery: query, Doc: doc, Operation: op, Variables: coerced}
	}
	c := newCachedComplexity(limit, 10)
	require.NoError(t, c.Validate(NewExecutableSchema(Config{Complexity: complexity()})))
	ctx := context.Background()

	// "ſ" folds to "s": the enum validates, and does not unmarshal.
	assert.Nil(t, c.MutateOperationContext(ctx, newOC(map[string]any{"l": 100, "s": "NEWEſT"})),
		"priced at 1 + its children, under the limit")
	assert.NotNil(t, c.MutateOperationContext(ctx, newOC(map[string]any{"l": 100, "s": "NEWEST"})),
		"100 cards of 7 fields, over the limit")
	assert.Nil(t, c.MutateOperationContext(ctx, newOC(map[string]any{"l": 10, "s": "NEWEST"})))
	key, _, ok := complexityKey(newOC(map[string]any{"l": 10, "s": "NEWEST"}))
	require.True(t, ok)
	_, known := c.known.Get(ctx, key)
	assert.True(t, known, "a valid request's price is remembered")
}
