package graph_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/graph"
)

// answer is the part of a GraphQL response the limit tests read.
type answer struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	Extensions struct {
		Cost *graph.Cost `json:"cost"`
	} `json:"extensions"`
}

func (p *pair) ask(t *testing.T, q request) answer {
	t.Helper()
	status, body := q.send(t, p.fast)
	require.Equal(t, 200, status, body)
	var a answer
	require.NoError(t, json.Unmarshal([]byte(body), &a), body)
	return a
}

// nestedFragments is a document of n fragments on Query, each spreading
// the next twice: 2^(n-1) copies of the last one's selection.
func nestedFragments(n int, last string) string {
	var b strings.Builder
	b.WriteString("query { ...F1 }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on Query { %s }\n", n, last)
	return b.String()
}

// TestNestedFragmentsCostTheirLength: a 1.2 KB document of thirty
// fragments each spreading the next twice is refused at once, whatever
// its last fragment holds: each fragment is walked once, where walking
// every spread would take time exponential in the number of fragments.
func TestNestedFragmentsCostTheirLength(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{Introspection: true})
	for _, last := range []string{
		"jobs { nodes { id } }",
		"__typename",
		"a: __typename",
		"__schema { queryType { name } }",
		"interpretFilter(filter: {skills: [\"go\"]})",
	} {
		t.Run(last, func(t *testing.T) {
			done := make(chan answer, 1)
			go func() { done <- p.ask(t, request{query: nestedFragments(30, last)}) }()
			select {
			case a := <-done:
				require.Len(t, a.Errors, 1)
				assert.Equal(t, "query_too_complex", a.Errors[0].Extensions["code"], a.Errors[0].Message)
			case <-time.After(5 * time.Second):
				t.Fatal("a document of 30 nested fragments was still being checked after 5 s")
			}
		})
	}
}

// TestCostPricesWhatCosts: each list is priced by its page size, searches
// the index cannot answer and facets cost more, and the cost is reported
// in extensions.cost.
func TestCostPricesWhatCosts(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{ComplexityLimit: 1 << 30, MaxStringBytes: 64})
	cost := func(q request) int {
		t.Helper()
		a := p.ask(t, q)
		require.Empty(t, a.Errors, "%s", q.query)
		require.NotNil(t, a.Extensions.Cost, "%s", q.query)
		assert.Equal(t, 1<<30, a.Extensions.Cost.Limit)
		return a.Extensions.Cost.Requested
	}
	page := `{ jobs { nodes { id title } } }`
	for _, c := range []struct {
		name string
		q    request
		want int
	}{
		{"default page of 25", request{query: page}, 1 + 1 + 25*2},
		{"page of 100", request{query: `{ jobs(limit: 100) { nodes { id title } } }`}, 1 + 1 + 100*2},
		{"page size over the maximum", request{query: `{ jobs(limit: 5000) { nodes { id title } } }`}, 1 + 1 + 100*2},
		{"page size from a variable", request{query: `query($l: Int) { jobs(limit: $l) { nodes { id } } }`, variables: map[string]any{"l": 40}}, 1 + 1 + 40},
		{"page size from a numeric string", request{query: `query($l: Int) { jobs(limit: $l) { nodes { id } } }`, variables: map[string]any{"l": "40"}}, 1 + 1 + 40},
		{"a page read for __typename alone", request{query: `{ jobs(limit: 100) { nodes { __typename } } }`}, 1 + 1 + 100},
		{"a page read for its total alone", request{query: `{ jobs(limit: 100, filter: {q: "x"}) { pageInfo { total } } }`}, 1 + 2 + 100 + 500},
		{"keyword search", request{query: `{ jobs(filter: {q: "golang"}) { nodes { id title } } }`}, 1 + 1 + 25*2 + 500},
		{"keyword search in a variable", request{query: `query($f: JobFilter) { jobs(filter: $f) { nodes { id title } } }`,
			variables: map[string]any{"f": map[string]any{"q": "golang"}}}, 1 + 1 + 25*2 + 500},
		{"a title the taxonomy names", request{query: `{ jobs(filter: {title: "software engineer"}) { nodes { id title } } }`}, 1 + 1 + 25*2},
		{"a title it does not", request{query: `{ jobs(filter: {title: "xyzzy wrangler"}) { nodes { id title } } }`}, 1 + 1 + 25*2 + 500},
		{"relevance order", request{query: `{ jobs(filter: {q: "go"}, sort: RELEVANCE) { nodes { id } } }`}, 1 + 1 + 25 + 500},
		{"companies", request{query: `{ companies(limit: 10) { nodes { name } } }`}, 1 + 1 + 10},
		{"facets: fields × values", request{query: `{ jobs(limit: 1) { facets(fields: [SKILLS, CITY], limit: 50) { field values { value count } } } }`},
			1 + 1 + 1 + 2*50*(1+1+2)}, // the page of 1 is read too
		{"facets of a keyword search: a GROUP BY each", request{query: `{ jobs(limit: 1, filter: {q: "go"}) { facets(fields: [SKILLS, CITY], limit: 1) { field } } }`},
			1 + 1 + 1 + 2*1*1 + 500 + 2*100},
		{"similar jobs", request{query: `{ job(id: "src-1") { similar(limit: 20) { id title } } }`}, 1 + 50 + 20*2},
		{"a company's jobs", request{query: `{ company(slug: "acme") { jobs(limit: 10) { nodes { id } } } }`}, 1 + 1 + 1 + 10},
		{"edges priced as nodes, first as limit", request{query: `{ jobs(first: 10) { edges { cursor node { id title } } } }`}, 1 + 1 + 10*(1+1+2)},
		{"the README's connection", request{query: `{ jobs(filter: {skills: ["golang"], city: "SF"}, first: 2) { totalCount edges { cursor node { id title company } } pageInfo { hasNextPage endCursor } } }`},
			1 + (1 + 1 + 3) + 2*(1+1+3)},
		{"companies' edges", request{query: `{ companies(first: 10) { edges { node { name } } } }`}, 1 + 1 + 10*2},
		{"a company's jobs by first", request{query: `{ company(slug: "acme") { jobs(first: 10) { edges { node { id } } } } }`}, 1 + 1 + 1 + 10*2},
		{"the change feed's default page of 100", request{query: `{ changes { nodes { id change at } pageInfo { nextCursor } } }`}, 1 + 1 + 100*3 + 2},
		{"a change feed page of 1000", request{query: `{ changes(limit: 5000) { nodes { id } } }`}, 1 + 1 + 1000},
		{"__typename is free", request{query: `{ __typename jobs { nodes { __typename id } } }`}, 1 + 1 + 25},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, cost(c.q))
		})
	}
}

// TestLimitsRefuse: each limit refuses what is over it with
// query_too_complex, and lets through what is at it.
func TestLimitsRefuse(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{Introspection: true})
	fields := func(n int, alias bool) string {
		var b strings.Builder
		b.WriteString("{ ")
		for i := range n {
			if alias {
				fmt.Fprintf(&b, "a%d: ", i)
			}
			b.WriteString("__typename ")
		}
		b.WriteString("}")
		return b.String()
	}
	for _, c := range []struct {
		name, query string
		vars        map[string]any
		refused     string // "" when accepted
	}{
		{"ten root fields", fields(10, false), nil, ""},
		{"eleven root fields", fields(11, false), nil, "11 root fields"},
		{"root fields through a fragment", "query { ...F ...F } fragment F on Query { " + strings.Repeat("__typename ", 6) + "}", nil, "12 root fields"},
		{"ten aliases", "{ jobs { nodes { " + aliases(10) + " } } }", nil, ""},
		{"eleven aliases", "{ jobs { nodes { " + aliases(11) + " } } }", nil, "11 aliased fields"},
		{"two hundred aliased searches", searches(200), nil, "more than the limit of 500"},
		{"depth", "{ company(slug: \"a\") { jobs { nodes { employer { name } } } } }", nil, ""},
		{"a long string literal", `{ jobs(filter: {q: "` + strings.Repeat("x", 1025) + `"}) { nodes { id } } }`, nil, "1025 bytes"},
		{"a long string variable", `query($f: JobFilter) { jobs(filter: $f) { nodes { id } } }`,
			map[string]any{"f": map[string]any{"skills": []any{"go", strings.Repeat("x", 2000)}}}, "2000 bytes"},
		{"a long document", "{ __typename }" + strings.Repeat(" ", 40<<10), nil, "more than the limit of 32768"},
		{"fields validation would compare pairwise", "{ jobs { " + strings.Repeat("nodes { id } ", 300) + "} }", nil, "selects 601 fields"},
		{"the same through fragments", "{ jobs { ...A ...B } } fragment A on JobCardConnection { " + strings.Repeat("nodes { id } ", 150) +
			"} fragment B on JobCardConnection { " + strings.Repeat("nodes { id } ", 150) + "}", nil, "selects 601 fields"},
		{"a long string in a list of one", `query($s: [String!]) { jobs(filter: {skills: $s}) { nodes { id } } }`,
			map[string]any{"s": strings.Repeat("x", 2000)}, "2000 bytes"},
		{"one page with every facet", "{ jobs(limit: 100) { nodes { id title company } facets(fields: [" + allFacets + "], limit: 100) { field values { value count } } } }",
			nil, ""},
		{"three of them", "{ a: jobs(limit: 100) { nodes { id } facets(fields: [" + allFacets + "], limit: 100) { values { value count } } } " +
			"b: jobs(limit: 100) { nodes { id } facets(fields: [" + allFacets + "], limit: 100) { values { value count } } } " +
			"c: jobs(limit: 100) { nodes { id } facets(fields: [" + allFacets + "], limit: 100) { values { value count } } } }",
			nil, "exceeds the limit of 10000"},
		{"introspection lists nested too deep", "{ __schema { types { fields { type { fields { type { fields { type { fields { type { fields { name } } } } } } } } } } } }",
			nil, "Maximum introspection depth exceeded"},
		{"a long ofType chain", "{ __type(name: \"Job\") { " + strings.Repeat("ofType { ", 25) + "name" + strings.Repeat(" }", 25) + " } }", nil, "introspection query nests"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := p.ask(t, request{query: c.query, variables: c.vars})
			if c.refused == "" {
				for _, e := range a.Errors {
					assert.NotEqual(t, "query_too_complex", e.Extensions["code"], e.Message)
				}
				return
			}
			require.NotEmpty(t, a.Errors)
			assert.Equal(t, "query_too_complex", a.Errors[0].Extensions["code"])
			assert.Contains(t, a.Errors[0].Message, c.refused)
		})
	}
	t.Run("depth", func(t *testing.T) {
		p := newPair(t, graph.HandlerOptions{DepthLimit: 3})
		a := p.ask(t, request{query: `query { ...F } fragment F on Query { job(id: "src-1") { similar { employer { name } } } }`})
		require.NotEmpty(t, a.Errors)
		assert.Equal(t, "the operation nests 4 levels deep, more than the limit of 3", a.Errors[0].Message)
		a = p.ask(t, request{query: `{ job(id: "src-1") { similar { id } } }`})
		assert.Empty(t, a.Errors)
	})
}

const allFacets = "WORK_ARRANGEMENT, EMPLOYMENT_TYPE, CATEGORY_FIELD, CATEGORY_ROLE, SKILLS, COMPANY, " +
	"EDUCATION_LEVELS, VISAS, SECURITY_CLEARANCES, COUNTRY, STATE, CITY, SALARY"

func aliases(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "a%d: id ", i)
	}
	return b.String()
}

// searches is the hostile operation of many aliased keyword searches with
// every facet.
func searches(n int) string {
	var b strings.Builder
	b.WriteString("{ ")
	for i := range n {
		fmt.Fprintf(&b, `s%d: jobs(filter: {q: "engineer %d"}) { nodes { id } facets(fields: [SKILLS, CITY, COMPANY], limit: 100) { values { value count } } } `, i, i)
	}
	b.WriteString("}")
	return b.String()
}

// TestStandardIntrospectionQueries: the introspection queries that
// GraphiQL, Apollo, graphql-codegen, Postman and Insomnia send are
// answered under the default limits, though they nest deeper than the
// depth limit.
func TestStandardIntrospectionQueries(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{Introspection: true})
	for _, name := range []string{"graphql-js-default.graphql", "graphql-js-all-options.graphql"} {
		t.Run(name, func(t *testing.T) {
			q, err := os.ReadFile("testdata/introspection/" + name)
			require.NoError(t, err)
			a := p.ask(t, request{query: string(q)})
			require.Empty(t, a.Errors)
			var data struct {
				Schema struct {
					Types []struct{ Name string } `json:"types"`
				} `json:"__schema"`
			}
			require.NoError(t, json.Unmarshal(a.Data, &data))
			var names []string
			for _, typ := range data.Schema.Types {
				names = append(names, typ.Name)
			}
			assert.Contains(t, names, "JobCard")
			assert.Contains(t, names, "JobFilter")
		})
	}
}

// TestErrorsQuoteLittle: no error message quotes more than a short prefix
// of a name or value the client sent.
func TestErrorsQuoteLittle(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{})
	long := strings.Repeat("x", 5000)
	for _, q := range []request{
		{query: "{ " + long + " }"},
		{query: `{ job(id: "` + long + `") { id } }`},
		{query: `{ jobs(sort: ` + strings.ToUpper(long) + `) { nodes { id } } }`},
		{query: `query($s: JobSort) { jobs(sort: $s) { nodes { id } } }`, variables: map[string]any{"s": long[:900]}},
		{query: `{ jobs(filter: {postedWithin: "` + long[:900] + `"}) { nodes { id } } }`},
		{query: `{ jobs { nodes { id } facets(fields: [` + strings.ToUpper(long) + `]) { field } } }`},
	} {
		status, body := q.send(t, p.fast)
		require.Equal(t, 200, status)
		assert.Contains(t, body, `"errors"`, q.query[:40])
		assert.NotContains(t, strings.ToLower(body), strings.Repeat("x", 65), "the error quotes %s", q.query[:40])
	}
}

// TestRequestErrorsHaveCodes: errors gqlgen raises about a request, and
// those of the GET transport, carry the contract's code; an oversized
// document is never kept as a persisted query; long names and values are
// not echoed.
func TestRequestErrorsHaveCodes(t *testing.T) {
	p := newPair(t, graph.HandlerOptions{})
	code := func(body string) string {
		t.Helper()
		var a answer
		require.NoError(t, json.Unmarshal([]byte(body), &a), body)
		require.NotEmpty(t, a.Errors, body)
		c, _ := a.Errors[0].Extensions["code"].(string)
		return c
	}
	_, body := request{query: "{ __typename }", hash: strings.Repeat("0", 64)}.send(t, p.fast)
	assert.Equal(t, "invalid_parameter", code(body), "a hash that does not match its query")

	big := "{ __typename }" + strings.Repeat(" ", 40<<10)
	sum := sha256.Sum256([]byte(big))
	hash := hex.EncodeToString(sum[:])
	_, body = request{query: big, hash: hash}.send(t, p.fast)
	assert.Equal(t, "query_too_complex", code(body))
	_, body = request{hash: hash}.send(t, p.fast)
	assert.Contains(t, body, "PersistedQueryNotFound", "the refused document was not kept")

	for _, target := range []string{"/graphql?query=%zz", "/graphql?query={__typename}&variables=zz", "/graphql?query={__typename}&extensions=[1"} {
		req := httptest.NewRequest(http.MethodGet, "/graphql", nil)
		req.URL.RawQuery = strings.TrimPrefix(target, "/graphql?")
		w := httptest.NewRecorder()
		p.fast.ServeHTTP(w, req)
		assert.Equal(t, http.StatusBadRequest, w.Code, target)
		assert.Equal(t, "invalid_parameter", code(w.Body.String()), target)
	}

	words := strings.Repeat("secret ", 2000)
	_, body = request{query: "query A { __typename }", opName: words}.send(t, p.fast)
	assert.Less(t, len(body), 1000, "the operation name is echoed")
	_, body = request{query: `query($l: Int) { jobs(limit: $l) { nodes { id } } }`, variables: map[string]any{"l": words}}.send(t, p.fast)
	assert.Less(t, len(body), 1000, "the value is echoed")
}
