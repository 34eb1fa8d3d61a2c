package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/graph"
)

// docGen writes a GraphQL document from fuzz bytes: fragments spreading
// later fragments (so that there is no cycle), aliases, directives and
// variables, over the schema's jobs, job and companies.
type docGen struct {
	in  []byte
	pos int
}

func (g *docGen) next(n int) int {
	if g.pos >= len(g.in) || n <= 1 {
		return 0
	}
	b := g.in[g.pos]
	g.pos++
	return int(b) % n
}

// fuzzTypes are the fragment types and the fields each may select: a
// head (name and arguments) and a selection set, directives going between.
var fuzzTypes = map[string][][2]string{
	"Query": {{"__typename", ""}, {"jobs(limit: $l, filter: $f)", "{ ...P0 }"}, {`job(id: "src-1")`, "{ ...J0 }"},
		{"companies(limit: 3)", "{ nodes { name } }"}, {`interpretFilter(filter: {skills: ["go"]})`, "{ skills }"}},
	"JobCardConnection": {{"__typename", ""}, {"nodes", "{ ...C0 }"}, {"pageInfo", "{ total hasMore hasNextPage hasPreviousPage startCursor endCursor }"},
		{"edges", "{ cursor node { ...C0 } }"}, {"totalCount", ""}, {"normalized", "{ skills title { categoryRole text } }"},
		{"facets(fields: [SKILLS, CITY], limit: $l)", "{ field values { value count } }"}},
	"JobCard": {{"id", ""}, {"title", ""}, {"company", ""}, {"location", "{ city full }"}, {"employer", "{ name }"}, {"salary", "{ min max }"}},
	"Job":     {{"id", ""}, {"title", ""}, {"skills", ""}, {"similar(limit: $l)", "{ ...C0 }"}, {"employer", "{ name jobCount }"}},
}

// typeLetter names the fragments of each type: Q0, P0, C0, J0…
var typeLetter = map[string]string{"Query": "Q", "JobCardConnection": "P", "JobCard": "C", "Job": "J"}

func (g *docGen) selection(typ string, frag int, frags int) string {
	var b strings.Builder
	n := 1 + g.next(4)
	for range n {
		if g.next(3) == 0 {
			fmt.Fprintf(&b, "a%d: ", g.next(20))
		}
		fields := fuzzTypes[typ]
		field := fields[g.next(len(fields))]
		b.WriteString(field[0])
		switch g.next(4) {
		case 0:
			b.WriteString(" @include(if: $v)")
		case 1:
			b.WriteString(" @skip(if: false)")
		}
		b.WriteString(" " + field[1] + " ")
	}
	// Spreads of the next fragment of the same type, once or twice, so
	// that every fragment is used.
	if frag+1 < frags {
		spread := fmt.Sprintf("...%s%d ", typeLetter[typ], frag+1)
		b.WriteString(strings.Repeat(spread, 1+g.next(2)))
	}
	return b.String()
}

func (g *docGen) document() string {
	frags := 1 + g.next(12)
	var b strings.Builder
	b.WriteString(`query Fuzz($l: Int, $v: Boolean = true, $f: JobFilter) { ...Q0 ` +
		`p: jobs(limit: $l, filter: $f) { ...P0 nodes { ...C0 } } j: job(id: "src-2") @include(if: $v) { ...J0 } }` + "\n")
	for _, typ := range []string{"Query", "JobCardConnection", "JobCard", "Job"} {
		for i := range frags {
			fmt.Fprintf(&b, "fragment %s%d on %s { %s}\n", typeLetter[typ], i, typ, g.selection(typ, i, frags))
		}
	}
	return b.String()
}

// FuzzGraphQLDocument feeds generated documents (nested fragments,
// aliases, directives, variables) and raw bytes to the GraphQL endpoint
// and bounds the work of each request: the cost walk visits no more
// selections than the document has bytes, the store is called at most a
// few times per root field, and the answer is JSON of bounded size.
func FuzzGraphQLDocument(f *testing.F) {
	f.Add([]byte{0, 11, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Add([]byte{0, 5, 3, 2, 1, 0, 4, 4, 4, 4, 2, 1, 3, 3, 0, 0, 2, 2, 1, 1, 7, 7, 9})
	f.Add(append([]byte{1}, nestedFragments(30, "jobs { nodes { id } }")...))
	f.Add(append([]byte{1}, `{ a: jobs { nodes { id } } b: jobs { nodes { id } } }`...))
	f.Add(append([]byte{1}, `query($x: Int) { jobs(limit: $x) { nodes { ...on JobCard { id } } } }`...))

	var calls atomic.Int64
	store := fixtureStore()
	find, facets := store.FindJobCardsFunc, store.FacetsFunc
	store.FindJobCardsFunc = func(ctx context.Context, q domain.JobQuery) ([]domain.JobCard, int, []domain.Cursor, error) {
		calls.Add(1)
		return find(ctx, q)
	}
	store.FacetsFunc = func(ctx context.Context, q domain.JobQuery, fields []string, limit int) ([]domain.Facet, error) {
		calls.Add(1)
		return facets(ctx, q, fields, limit)
	}
	h := keyedHandler(f, store, graph.HandlerOptions{Introspection: true})

	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		var doc string
		vars := map[string]any{"l": 100, "f": map[string]any{"q": "go"}}
		if in[0]%2 == 1 {
			doc, vars = string(in[1:]), nil
		} else {
			doc = (&docGen{in: in[1:]}).document()
		}
		if steps, _, err := graph.CostWalkSteps(doc, vars); err == nil {
			require.LessOrEqual(t, steps, len(doc), "selections walked in a document of %d bytes:\n%s", len(doc), doc)
		}
		calls.Store(0)
		status, body := request{query: doc, variables: vars}.send(t, h)
		require.Contains(t, []int{200, 400, 422}, status, body)
		require.True(t, json.Valid([]byte(body)), body)
		require.Less(t, len(body), 4<<20, "answer size")
		require.LessOrEqual(t, calls.Load(), int64(40), "store calls of one request")
	})
}
