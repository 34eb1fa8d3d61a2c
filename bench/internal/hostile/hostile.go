// Package hostile holds GraphQL requests that cost the service more than
// their size suggests, for the tools that send them (loadgen -hostile and
// benchload -soak).
package hostile

import (
	"encoding/json"
	"fmt"
	"strings"
)

// allFacets are every facet field of the GraphQL schema.
const allFacets = "WORK_ARRANGEMENT, EMPLOYMENT_TYPE, CATEGORY_FIELD, CATEGORY_ROLE, SKILLS, COMPANY, " +
	"EDUCATION_LEVELS, VISAS, SECURITY_CLEARANCES, COUNTRY, STATE, CITY, SALARY"

// Bodies are GraphQL request bodies, one a line, that cost the
// service more than their size suggests: what an attacker with one valid
// key would send. jobsd refuses most of them at once; the last ones are
// the most expensive operations it accepts.
func Bodies() []string {
	var docs []string

	// Thirty fragments, each spreading the next twice: 2^29 copies.
	var b strings.Builder
	b.WriteString("query { ...F1 }\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	b.WriteString("fragment F30 on Query { jobs { nodes { id } } }\n")
	docs = append(docs, b.String())

	// Two hundred aliased keyword searches with every facet.
	b.Reset()
	b.WriteString("{ ")
	for i := range 200 {
		fmt.Fprintf(&b, `s%d: jobs(filter: {q: "engineer %d"}) { nodes { id } facets(fields: [%s], limit: 100) { values { value count } } } `, i, i, allFacets)
	}
	b.WriteString("}")
	docs = append(docs, b.String())

	// A thousand aliases of __typename.
	b.Reset()
	b.WriteString("{ ")
	for i := range 1000 {
		fmt.Fprintf(&b, "a%d: __typename ", i)
	}
	b.WriteString("}")
	docs = append(docs, b.String())

	// Introspection nesting the schema's lists, and a long ofType chain.
	docs = append(docs,
		"{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }",
		`{ __type(name: "Job") { `+strings.Repeat("ofType { ", 40)+"name"+strings.Repeat(" }", 40)+" } }",
		// A long document and a long string.
		"{ __typename }"+strings.Repeat(" ", 64<<10),
		`{ jobs(filter: {q: "`+strings.Repeat("engineer ", 20000)+`"}) { nodes { id } } }`,
	)

	// The most expensive accepted: six keyword searches with facets.
	b.Reset()
	b.WriteString("{ ")
	for i := range 6 {
		fmt.Fprintf(&b, `s%d: jobs(filter: {q: "senior %d"}) { nodes { id } facets(fields: [SKILLS, CITY, COMPANY], limit: 100) { values { value count } } } `, i, i)
	}
	b.WriteString("}")
	docs = append(docs, b.String(), b.String())

	out := make([]string, len(docs))
	for i, d := range docs {
		body, err := json.Marshal(map[string]string{"query": d})
		if err != nil {
			panic(err) // strings always marshal
		}
		out[i] = string(body)
	}
	return out
}
