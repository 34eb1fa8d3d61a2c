package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
)

// cardFields selects every field of a card the fast path writes.
const cardFields = `id title company location { city state country full } ` +
	`workArrangement employmentType salary { min max currency period } category { field role specialization }`

// benchPage is a page of n generated, normalized cards, with their
// cursors, and the selection set of a jobs query.
func benchPage(b *testing.B, n int, query string) (*domain.JobCardPage, ast.SelectionSet) {
	b.Helper()
	norm, err := normalize.New()
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := seed.Normalized(seed.Options{N: n, Seed: 1}, norm)
	if err != nil {
		b.Fatal(err)
	}
	page := &domain.JobCardPage{PageInfo: domain.PageInfo{Total: 1000, Limit: n, HasMore: true}}
	for i := range jobs {
		page.Nodes = append(page.Nodes, jobs[i].Card())
		page.Cursors = append(page.Cursors, domain.Cursor{Sort: domain.JobSortNewest, Time: seed.Reference, ID: jobs[i].ID, Offset: i + 1})
	}
	end := page.Cursors[n-1].Encode()
	page.PageInfo.EndCursor = &end
	doc, errs := gqlparser.LoadQuery(parsedSchema, query)
	if errs != nil {
		b.Fatal(errs)
	}
	return page, doc.Operations[0].SelectionSet[0].(*ast.Field).SelectionSet
}

// BenchmarkEncodeCardPage is the fast path's encoding of a 25-card page
// asked for as nodes.
func BenchmarkEncodeCardPage(b *testing.B) {
	benchEncode(b, `{ jobs(limit: 25) { nodes { `+cardFields+` } pageInfo { total limit offset hasMore endCursor } } }`)
}

// BenchmarkEncodeCardPageEdges is the same page asked for as a Relay
// connection: edges with their cursors, totalCount and Relay's pageInfo.
func BenchmarkEncodeCardPageEdges(b *testing.B) {
	benchEncode(b, `{ jobs(first: 25) { totalCount edges { cursor node { `+cardFields+` } } `+
		`pageInfo { hasNextPage hasPreviousPage endCursor } } }`)
}

func benchEncode(b *testing.B, query string) {
	page, sel := benchPage(b, 25, query)
	b.ReportAllocs()
	for b.Loop() {
		e := getEncoder()
		r := fastRun{encoder: e}
		r.writeJobCardConnection(sel, page)
		if e.failed {
			b.Fatal("the encoder failed")
		}
		putEncoder(e)
	}
}

// BenchmarkEncodeCardPageExtras is BenchmarkEncodeCardPage with the
// card's list extras (postedAt, companyLogo, summary) selected too.
func BenchmarkEncodeCardPageExtras(b *testing.B) {
	page, _ := benchPage(b, 25, `{ jobs(limit: 25) { nodes { id } } }`)
	summaries := 0
	for _, c := range page.Nodes { // seed.Normalized's records carry them; Card() copies them
		if c.Summary != nil {
			summaries++
		}
	}
	if summaries == 0 {
		b.Fatal("no generated job has a summary")
	}
	benchEncode(b, `{ jobs(limit: 25) { nodes { `+cardFields+` postedAt companyLogo summary } `+
		`pageInfo { total limit offset hasMore endCursor } } }`)
}
