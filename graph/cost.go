package graph

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/search"
)

// An operation is priced before anything is resolved, in one walk of its
// document in which each fragment is walked once, however often it is
// spread (its summary is remembered by name), so that no document costs
// more to check than its length. The walk bounds:
//   - the cost: a scalar costs 1, an object 1 plus its fields, a list its
//     page size times its element's cost (a page's nodes), a search the in-memory index
//     cannot answer (keyword search, a title no category names, relevance
//     order) slowFilterCost more, facets their fields times their values;
//   - the depth of the selections (introspection excepted);
//   - the number of root fields and of aliases (each field runs its own
//     resolver: an alias is a second search);
//   - the length of every string literal;
//   - introspection by its own rule: list fields of the meta-schema
//     (fields, inputFields, interfaces, possibleTypes) nest at most
//     maxIntrospectionLists deep and a meta-schema selection at most
//     maxIntrospectionDepth, which every standard introspection query
//     (graphql-js, GraphiQL) meets.
//
// The schema has no interfaces or unions, so a fragment's summary does not
// depend on where it is spread. Counts saturate at costCap.

// Cost is an operation's price, reported in every answer's
// extensions.cost.
type Cost struct {
	// Requested is the operation's cost.
	Requested int `json:"requested"`
	// Limit is the largest cost an operation may have.
	Limit int `json:"limit"`
}

// costExtension names the cost in the operation's statistics and in the
// response's extensions.
const costExtension = "cost"

const (
	// slowFilterCost is added to a search the in-memory index cannot
	// answer, which runs in SQL.
	slowFilterCost = 500
	// slowFacetCost is added for each facet field of a search in SQL (a
	// GROUP BY over every matching job).
	slowFacetCost = 100
	// similarCost is the base cost of a similar-jobs list (one SQL query).
	similarCost = 50
	// maxIntrospectionLists is how deep the meta-schema's list fields may
	// nest (graphql-js's MaxIntrospectionDepthRule allows 2).
	maxIntrospectionLists = 3
	// maxIntrospectionDepth is the deepest selection under __schema or
	// __type (GraphiQL's query nests 15 levels).
	maxIntrospectionDepth = 20
	// costCap is where counts saturate, far above any limit.
	costCap = 1 << 40
)

// allFacetFields is the number of facet fields, the price of a facets
// field whose list of fields is not known before execution.
var allFacetFields = len(domain.FacetFields)

// costRules are the limits an operation is checked against.
type costRules struct {
	limit         int
	maxDepth      int
	maxRootFields int
	maxAliases    int
	maxString     int
	// needsDatabase reports whether a job search needs the database, not
	// the index (search.Service.NeedsDatabase): the one rule, asked with
	// the members of the filter that decide it.
	needsDatabase func(filter *domain.JobFilter, sort *domain.JobSort) bool
}

// costLimit is the gqlgen extension that prices each operation, refuses
// those over a limit with query_too_complex, and reports the cost in the
// answer's extensions.
type costLimit struct{ rules costRules }

var (
	_ graphql.HandlerExtension        = (*costLimit)(nil)
	_ graphql.OperationContextMutator = (*costLimit)(nil)
	_ graphql.ResponseInterceptor     = (*costLimit)(nil)
)

// ExtensionName implements graphql.HandlerExtension.
func (*costLimit) ExtensionName() string { return "Cost" }

// Validate implements graphql.HandlerExtension.
func (*costLimit) Validate(graphql.ExecutableSchema) error { return nil }

// costStats is what the walk learned of an operation, kept in its
// statistics for the response and the expensive-work gate.
type costStats struct {
	Cost
	// slow is set when the operation runs a search in SQL.
	slow bool
}

// MutateOperationContext prices the operation and refuses it when it is
// over a limit.
func (c *costLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := costWalk{rules: &c.rules, vars: oc.Variables, frags: oc.Doc.Fragments}
	sum := w.set(oc.Operation.SelectionSet)
	r := &c.rules
	switch {
	case w.err != nil:
		return w.err
	case sum.fields > r.maxRootFields:
		return tooComplex("the operation has %d root fields, more than the limit of %d", sum.fields, r.maxRootFields)
	case sum.aliases > r.maxAliases:
		return tooComplex("the operation has %d aliased fields, more than the limit of %d", sum.aliases, r.maxAliases)
	case sum.depth > r.maxDepth:
		return tooComplex("the operation nests %d levels deep, more than the limit of %d", sum.depth, r.maxDepth)
	case sum.cost > r.limit:
		return tooComplex("operation has complexity %d, which exceeds the limit of %d", sum.cost, r.limit)
	}
	if s, ok := longString(oc.Variables, r.maxString); ok {
		return tooComplex("a variable holds a string of %d bytes, more than the limit of %d", s, r.maxString)
	}
	oc.Stats.SetExtension(costExtension, &costStats{Cost: Cost{Requested: sum.cost, Limit: r.limit}, slow: sum.slow})
	return nil
}

// InterceptResponse reports the operation's cost in the answer's
// extensions.
func (*costLimit) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	if s := operationCost(graphql.GetOperationContext(ctx)); s != nil {
		if resp.Extensions == nil {
			resp.Extensions = map[string]any{}
		}
		resp.Extensions[costExtension] = s.Cost
	}
	return resp
}

// operationCost is the cost the walk stored in an operation's statistics,
// or nil.
func operationCost(oc *graphql.OperationContext) *costStats {
	s, _ := oc.Stats.GetExtension(costExtension).(*costStats)
	return s
}

// appendCostExtension appends `,"extensions":{"cost":…}` as json.Marshal
// writes a response's extensions holding only the cost.
func appendCostExtension(b []byte, c Cost) []byte {
	b = append(b, `,"extensions":{"cost":{"requested":`...)
	b = strconv.AppendInt(b, int64(c.Requested), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(c.Limit), 10)
	return append(b, "}}"...)
}

func tooComplex(format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	errcode.Set(err, domain.CodeQueryTooComplex)
	return err
}

// costSum summarizes a selection set.
type costSum struct {
	// cost is the set's cost, but for the elements of a page's nodes.
	cost int
	// nodes is the cost of one element of the page's nodes the set
	// selects (a page's list field multiplies it by the page size).
	nodes   int
	depth   int
	fields  int // fields of the set itself, fragments expanded
	aliases int
	// lists is the nesting of the meta-schema's list fields (introspection).
	lists int
	// expanded counts the field selections, fragments expanded (what
	// validation compares pairwise).
	expanded int
	// facetFields counts the facet fields a page selects (priced more when
	// its search runs in SQL).
	facetFields int
	slow        bool
}

// add merges the summary of a sibling selection into s.
func (s *costSum) add(o costSum) {
	s.cost = satAdd(s.cost, o.cost)
	s.nodes = satAdd(s.nodes, o.nodes)
	s.depth = max(s.depth, o.depth)
	s.fields = satAdd(s.fields, o.fields)
	s.aliases = satAdd(s.aliases, o.aliases)
	s.lists = max(s.lists, o.lists)
	s.expanded = satAdd(s.expanded, o.expanded)
	s.facetFields = satAdd(s.facetFields, o.facetFields)
	s.slow = s.slow || o.slow
}

// costWalk is one operation's walk.
type costWalk struct {
	rules *costRules
	vars  map[string]any
	frags ast.FragmentDefinitionList
	// memo holds each fragment's summary once walked; a fragment being
	// walked maps to nil (validation refuses cycles; this ends them anyway).
	memo map[string]*costSum
	err  *gqlerror.Error
	// steps counts the selections visited (tests hold it to the
	// document's length).
	steps int
}

// set summarizes a selection set.
func (w *costWalk) set(set ast.SelectionSet) costSum {
	var s costSum
	w.steps += len(set)
	for _, sel := range set {
		switch x := sel.(type) {
		case *ast.Field:
			s.add(w.field(x))
		case *ast.InlineFragment:
			s.add(w.set(x.SelectionSet))
		case *ast.FragmentSpread:
			s.add(w.fragment(x.Name))
		}
	}
	return s
}

// fragment summarizes a named fragment, walking it the first time only.
func (w *costWalk) fragment(name string) costSum {
	if w.memo == nil {
		w.memo = map[string]*costSum{}
	}
	if s, seen := w.memo[name]; seen {
		if s == nil {
			return costSum{}
		}
		return *s
	}
	w.memo[name] = nil
	var s costSum
	if def := w.frags.ForName(name); def != nil {
		s = w.set(def.SelectionSet)
	}
	w.memo[name] = &s
	return s
}

// field summarizes one field and what it selects.
func (w *costWalk) field(f *ast.Field) costSum {
	w.checkStrings(f.Arguments)
	alias := 0
	if f.Alias != "" && f.Alias != f.Name {
		alias = 1
	}
	if f.Name == "__typename" {
		return costSum{depth: 1, fields: 1, aliases: alias, expanded: 1}
	}
	child := w.set(f.SelectionSet)
	out := costSum{depth: child.depth + 1, fields: 1, aliases: satAdd(child.aliases, alias), lists: child.lists,
		expanded: satAdd(child.expanded, 1), slow: child.slow}
	typ := ""
	if f.ObjectDefinition != nil {
		typ = f.ObjectDefinition.Name
	}
	switch {
	case f.Name == "__schema" || f.Name == "__type":
		w.checkIntrospection(child)
		out.depth = 1 // bounded by its own rule
		out.cost = satAdd(1, child.cost)
	case strings.HasPrefix(typ, "__"):
		if f.Name == "fields" || f.Name == "inputFields" || f.Name == "interfaces" || f.Name == "possibleTypes" {
			out.lists++
		}
		out.cost = satAdd(1, child.cost)
	case (f.Name == "nodes" || f.Name == "edges") && (typ == "JobCardConnection" || typ == "CompanyConnection") ||
		f.Name == "nodes" && typ == "ChangePage":
		// A node (or an edge) costs at least 1: the page is read whatever
		// it selects.
		out.cost, out.nodes = 1, max(child.cost, 1)
	case f.Name == "jobs" && (typ == "Query" || typ == "CompanyProfile"):
		out.cost = satAdd(1, satAdd(child.cost, satMul(max(child.nodes, 1), w.pageSize(f, search.DefaultJobLimit))))
		if w.slowSearch(f) {
			out.cost, out.slow = satAdd(out.cost, satAdd(slowFilterCost, satMul(child.facetFields, slowFacetCost))), true
		}
	case f.Name == "companies" && typ == "Query":
		out.cost = satAdd(1, satAdd(child.cost, satMul(max(child.nodes, 1), w.pageSize(f, search.DefaultCompanyLimit))))
		if w.slowSearch(f) {
			out.cost, out.slow = satAdd(out.cost, slowFilterCost), true
		}
	case f.Name == "changes" && typ == "Query":
		out.cost = satAdd(1, satAdd(child.cost, satMul(max(child.nodes, 1), w.intArg(f, "limit", search.DefaultChangeLimit, search.MaxChangeLimit))))
	case f.Name == "suggest" && typ == "Query":
		out.cost = satAdd(1, satMul(max(child.cost, 1), w.intArg(f, "limit", search.DefaultSuggestions, search.MaxSuggestions)))
		if w.slowSearch(f) {
			// Counted in SQL, a statement a value (store.SQLSuggestValues).
			out.cost, out.slow = satAdd(out.cost, slowFilterCost), true
		}
	case f.Name == "similar" && typ == "Job":
		out.cost = satAdd(similarCost, satMul(child.cost, w.intArg(f, "limit", search.DefaultSimilar, search.MaxSimilar)))
	case f.Name == "facets" && typ == "JobCardConnection":
		values := w.intArg(f, "limit", search.DefaultFacetLimit, search.MaxFacetLimit)
		out.facetFields = min(w.listLen(f, "fields", allFacetFields), allFacetFields)
		out.cost = satAdd(1, satMul(satMul(out.facetFields, values), max(child.cost, 1)))
	default:
		out.cost = satAdd(1, child.cost)
	}
	return out
}

// checkIntrospection applies introspection's own rule to what a __schema
// or __type field selects.
func (w *costWalk) checkIntrospection(child costSum) {
	switch {
	case child.lists > maxIntrospectionLists:
		w.fail(tooComplex("the introspection query nests the schema's lists %d deep, more than the limit of %d", child.lists, maxIntrospectionLists))
	case child.depth+1 > maxIntrospectionDepth:
		w.fail(tooComplex("the introspection query nests %d levels deep, more than the limit of %d", child.depth+1, maxIntrospectionDepth))
	}
}

func (w *costWalk) fail(err *gqlerror.Error) {
	if w.err == nil {
		w.err = err
	}
}

// checkStrings refuses string literals longer than the limit.
func (w *costWalk) checkStrings(args ast.ArgumentList) {
	for _, a := range args {
		if n := longestLiteral(a.Value); n > w.rules.maxString {
			w.fail(tooComplex("argument %s holds a string of %d bytes, more than the limit of %d", a.Name, n, w.rules.maxString))
		}
	}
}

// longestLiteral is the length of the longest string literal in v.
func longestLiteral(v *ast.Value) int {
	if v == nil {
		return 0
	}
	n := 0
	if v.Kind == ast.StringValue || v.Kind == ast.BlockValue {
		n = len(v.Raw)
	}
	for _, c := range v.Children {
		n = max(n, longestLiteral(c.Value))
	}
	return n
}

// longString reports the length of a string in the variables longer than
// limit, if there is one, in maps and slices of any element type (a single
// value coerced to a list arrives as a []string).
func longString(v any, limit int) (int, bool) {
	switch x := v.(type) {
	case nil:
		return 0, false
	case string:
		return len(x), len(x) > limit
	case map[string]any:
		for _, e := range x {
			if n, ok := longString(e, limit); ok {
				return n, true
			}
		}
		return 0, false
	case []any:
		for _, e := range x {
			if n, ok := longString(e, limit); ok {
				return n, true
			}
		}
		return 0, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			if n, ok := longString(rv.Index(i).Interface(), limit); ok {
				return n, true
			}
		}
	case reflect.Map:
		for it := rv.MapRange(); it.Next(); {
			if n, ok := longString(it.Value().Interface(), limit); ok {
				return n, true
			}
		}
	case reflect.Pointer:
		if !rv.IsNil() {
			return longString(rv.Elem().Interface(), limit)
		}
	case reflect.String:
		return rv.Len(), rv.Len() > limit
	}
	return 0, false
}

// intArg is a page size argument's value as the resolver clamps it: def
// when absent, null or below 1 (the resolver refuses those, or takes the
// default), at most max.
func (w *costWalk) intArg(f *ast.Field, name string, def, most int) int {
	a := f.Arguments.ForName(name)
	if a == nil {
		return def
	}
	var n int64
	var err error
	switch a.Value.Kind {
	case ast.IntValue:
		n, err = strconv.ParseInt(a.Value.Raw, 10, 64)
	case ast.Variable:
		switch x := w.vars[a.Value.Raw].(type) {
		case int:
			n = int64(x)
		case int64:
			n = x
		case float64:
			n = int64(x)
		case json.Number:
			n, err = x.Int64()
		case string:
			// gqlparser lets an Int variable be a numeric string, which
			// gqlgen's UnmarshalInt reads as the number.
			n, err = strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		default:
			return def
		}
	default:
		return def
	}
	if err != nil || n < 1 {
		return def
	}
	return int(min(n, int64(most)))
}

// pageSize is a connection's page size: first, or its other name limit.
func (w *costWalk) pageSize(f *ast.Field, def int) int {
	if f.Arguments.ForName("first") != nil {
		return w.intArg(f, "first", def, search.MaxLimit)
	}
	return w.intArg(f, "limit", def, search.MaxLimit)
}

// listLen is the number of items of a list argument, or def when it is
// not known before execution.
func (w *costWalk) listLen(f *ast.Field, name string, def int) int {
	a := f.Arguments.ForName(name)
	if a == nil {
		return def
	}
	switch a.Value.Kind {
	case ast.ListValue:
		return len(a.Value.Children)
	case ast.Variable:
		if l, ok := w.vars[a.Value.Raw].([]any); ok {
			return len(l)
		}
		if _, ok := w.vars[a.Value.Raw].(string); ok {
			return 1 // a single value coerces to a list of one
		}
	case ast.EnumValue:
		return 1
	}
	return def
}

// slowSearch reports whether a jobs or companies field searches in SQL:
// a keyword search, a title intent no category names, or relevance order.
func (w *costWalk) slowSearch(f *ast.Field) bool {
	var sort *domain.JobSort
	if a := f.Arguments.ForName("sort"); a != nil {
		s := domain.JobSort(strings.ToLower(w.stringValue(a.Value)))
		sort = &s
	}
	// The members that decide it: the keyword search and the title.
	var filter domain.JobFilter
	if a := f.Arguments.ForName("filter"); a != nil {
		member := func(name string) *string {
			var s string
			switch a.Value.Kind {
			case ast.ObjectValue:
				if c := a.Value.Children.ForName(name); c != nil {
					s = w.stringValue(c)
				}
			case ast.Variable:
				m, _ := w.vars[a.Value.Raw].(map[string]any)
				s, _ = m[name].(string)
			}
			if strings.TrimSpace(s) == "" {
				return nil
			}
			return &s
		}
		filter.Q, filter.Title, filter.JobTitle = member("q"), member("title"), member("jobTitle")
	}
	return w.rules.needsDatabase(&filter, sort)
}

// stringValue is a string or enum literal's value, or a string variable's.
func (w *costWalk) stringValue(v *ast.Value) string {
	switch v.Kind {
	case ast.StringValue, ast.BlockValue, ast.EnumValue:
		return v.Raw
	case ast.Variable:
		s, _ := w.vars[v.Raw].(string)
		return s
	}
	return ""
}

func satAdd(a, b int) int { return min(a+b, costCap) }

func satMul(a, b int) int {
	if a != 0 && b > costCap/a {
		return costCap
	}
	return min(a*b, costCap)
}
