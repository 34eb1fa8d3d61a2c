package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/jobsd-dev/jobsd/domain"
	"github.com/jobsd-dev/jobsd/normalize"
	"github.com/jobsd-dev/jobsd/seed"
)

// benchPage is a page of n generated, normalized cards and the selection
// set of a jobs query asking for every card field.
func benchPage(b *testing.B, n int) (*domain.JobCardPage, ast.SelectionSet) {
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
	}
	doc, errs := gqlparser.LoadQuery(parsedSchema, `{ jobs(limit: 25) { nodes { id title company location { city state country full } `+
		`workArrangement employmentType salary { min max currency period } category { field role specialization } } `+
		`pageInfo { total limit offset hasMore endCursor } } }`)
	if errs != nil {
		b.Fatal(errs)
	}
	return page, doc.Operations[0].SelectionSet[0].(*ast.Field).SelectionSet
}

// BenchmarkEncodeCardPage is the fast path's encoding of a 25-card page.
func BenchmarkEncodeCardPage(b *testing.B) {
	page, sel := benchPage(b, 25)
	b.ReportAllocs()
	for b.Loop() {
		e := getEncoder()
		r := fastRun{encoder: e}
		r.writeJobCardPage(sel, page)
		if e.failed {
			b.Fatal("the encoder failed")
		}
		putEncoder(e)
	}
}

// BenchmarkEncodeCardPageExtras is BenchmarkEncodeCardPage with the
// card's list extras (postedAt, companyLogo, summary) selected too.
func BenchmarkEncodeCardPageExtras(b *testing.B) {
	page, _ := benchPage(b, 25)
	summaries := 0
	for _, c := range page.Nodes { // seed.Normalized's records carry them; Card() copies them
		if c.Summary != nil {
			summaries++
		}
	}
	if summaries == 0 {
		b.Fatal("no generated job has a summary")
	}
	doc, errs := gqlparser.LoadQuery(parsedSchema, `{ jobs(limit: 25) { nodes { id title company location { city state country full } `+
		`workArrangement employmentType salary { min max currency period } category { field role specialization } `+
		`postedAt companyLogo summary } pageInfo { total limit offset hasMore endCursor } } }`)
	if errs != nil {
		b.Fatal(errs)
	}
	sel := doc.Operations[0].SelectionSet[0].(*ast.Field).SelectionSet
	b.ReportAllocs()
	for b.Loop() {
		e := getEncoder()
		r := fastRun{encoder: e}
		r.writeJobCardPage(sel, page)
		if e.failed {
			b.Fatal("the encoder failed")
		}
		putEncoder(e)
	}
}
