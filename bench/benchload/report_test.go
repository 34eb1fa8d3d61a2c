package main

import (
	"strings"
	"testing"
	"time"
)

// measured is a measurement of 1,000 requests in a second at the given p50 and
// p99.
func measured(transport string, p50, p99 time.Duration) runResult {
	return runResult{Transport: transport, Requests: 1000, Elapsed: time.Second, P50: p50, P99: p99}
}

// facetReport is a report of the filtered page and its faceted twin with
// the given p50s (REST, GraphQL) and the base page's p99.
func facetReport(n int, baseP99, baseREST, baseGQL, facetREST, facetGQL time.Duration) *report {
	base := query{Name: "filtered page", Kind: listKind}
	faceted := query{Name: "same + 5 facets", Kind: facetKind, Base: base.Name}
	return &report{N: n, Mix: []query{base, faceted}, Runs: [][]runResult{
		{measured(restT, baseREST, baseP99), measured(graphQLT, baseGQL, baseP99)},
		{measured(restT, facetREST, 20*time.Millisecond), measured(graphQLT, facetGQL, 20*time.Millisecond)},
	}}
}

func TestTargetMissesFacets(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name            string
		n               int
		baseP99         time.Duration
		rest, gql       time.Duration // the faceted page's p50s; the base's are 4 ms and 5 ms
		wantBase, wantF []string      // substrings of the misses, in order
	}{
		{name: "within", n: 200000, baseP99: 20 * ms, rest: 8 * ms, gql: 10 * ms},
		{name: "REST over", n: 200000, baseP99: 20 * ms, rest: 8*ms + 1, gql: 6 * ms, wantF: []string{"REST p50 2.00× filtered page's > 2×"}},
		{name: "GraphQL over", n: 200000, baseP99: 20 * ms, rest: 4 * ms, gql: 15 * ms, wantF: []string{"GraphQL p50 3.00×"}},
		{name: "both over", n: 200000, baseP99: 20 * ms, rest: 9 * ms, gql: 11 * ms, wantF: []string{"REST p50 2.25×", "GraphQL p50 2.20×"}},
		{name: "base p99 only", n: 200000, baseP99: 60 * ms, rest: 4 * ms, gql: 5 * ms, wantBase: []string{"p99 60.0 ms > 50.0 ms"}},
		{name: "not a target at 1M", n: 1000000, baseP99: 20 * ms, rest: 40 * ms, gql: 50 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := facetReport(tc.n, tc.baseP99, 4*ms, 5*ms, tc.rest, tc.gql)
			for i, want := range [][]string{tc.wantBase, tc.wantF} {
				got := r.targetMisses(r.Mix[i], r.Runs[i][0], r.Runs[i][1])
				if len(got) != len(want) {
					t.Fatalf("%s: misses %q, want %q", r.Mix[i].Name, got, want)
				}
				for j := range want {
					if !strings.Contains(got[j], want[j]) {
						t.Errorf("%s: miss %q, want %q", r.Mix[i].Name, got[j], want[j])
					}
				}
			}
		})
	}
}

func TestTargetMissesFacetsWithoutBase(t *testing.T) {
	r := facetReport(200000, time.Millisecond, time.Millisecond, time.Millisecond, time.Millisecond, time.Millisecond)
	r.Mix[1].Base = "elsewhere"
	if got := r.targetMisses(r.Mix[1], r.Runs[1][0], r.Runs[1][1]); len(got) != 1 || !strings.Contains(got[0], "elsewhere") {
		t.Errorf("misses %q, want one about the missing base", got)
	}
}

func TestMarkdownFacets(t *testing.T) {
	ms := time.Millisecond
	r := facetReport(200000, 20*ms, 4*ms, 5*ms, 6*ms, 15*ms)
	listed := query{Name: "newest 25, no filter", Kind: listKind, PostGraphile: 90, PlainSQL: 121}
	r.Mix = append([]query{listed}, r.Mix...)
	r.Runs = append([][]runResult{{measured(restT, ms, 2*ms), measured(graphQLT, ms, 2*ms)}}, r.Runs...)
	md := r.markdown()
	for _, want := range []string{
		// The figures the targets were set with where there are some, dashes where not.
		"| newest 25, no filter | 1,000 | 1.0 ms | 2.0 ms | 1,000 | 1.0 ms | 2.0 ms | 1.00 | 90 | 11.1 | 121 | 8.3 | 0 | yes |",
		"| filtered page | 1,000 | 4.0 ms | 20.0 ms | 1,000 | 5.0 ms | 20.0 ms | 1.00 | — | — | — | — | 0 | yes |",
		"| same + 5 facets | 1,000 | 6.0 ms | 20.0 ms | 1,000 | 15.0 ms | 20.0 ms | 1.00 | — | — | — | — | 0 | no: GraphQL p50 3.00× filtered page's > 2× |",
		"Facets: p50 of same + 5 facets over filtered page's: REST 6.0 ms / 4.0 ms = 1.50×, GraphQL 15.0 ms / 5.0 ms = 3.00× (target ≤ 2×).",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestCompareFacet(t *testing.T) {
	// SQL's counts: 12 values, two tied at the cut of 10.
	var all []facetValue
	for i, n := range []int{90, 80, 70, 60, 50, 40, 30, 20, 10, 5, 5, 1} {
		all = append(all, facetValue{Value: string(rune('a' + i)), Count: n})
	}
	top := func() []facetValue { return append([]facetValue(nil), all[:10]...) }
	for _, tc := range []struct {
		name    string
		got     []facetValue
		present bool
		want    string // a substring of the difference; "" for none
	}{
		{name: "equal", got: top(), present: true},
		{name: "the other of a tie at the cut", got: append(top()[:9], all[10]), present: true},
		{name: "missing", present: false, want: "facet f missing"},
		{name: "too few", got: top()[:9], present: true, want: "9 values, SQL 10"},
		{name: "wrong count", got: func() []facetValue { v := top(); v[2].Count = 71; return v }(), present: true, want: `"c" 71, SQL 70`},
		{name: "not the top", got: append(top()[:9], all[11]), present: true, want: `"l" 1 in place 10`},
		{name: "unknown value", got: append(top()[:9], facetValue{Value: "z", Count: 5}), present: true, want: `"z" 5, SQL 0`},
		{name: "twice", got: append(top()[:9], all[8]), present: true, want: `"i" twice`},
		{name: "not most first", got: func() []facetValue { v := top(); v[0], v[1] = v[1], v[0]; return v }(), present: true, want: `"b" 80 in place 1, where SQL has "a" 90`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diffs := compareFacet("f", tc.got, tc.present, all)
			switch {
			case tc.want == "" && len(diffs) > 0:
				t.Errorf("differences %q, want none", diffs)
			case tc.want != "" && (len(diffs) != 1 || !strings.Contains(diffs[0], tc.want)):
				t.Errorf("differences %q, want one with %q", diffs, tc.want)
			}
		})
	}
	// Fewer values than the limit: all of them.
	if diffs := compareFacet("f", all[:3], true, all[:3]); len(diffs) > 0 {
		t.Errorf("differences %q, want none", diffs)
	}
}

// TestTargetMissesListRatios: a ratio just short of its target is shown
// short of it (2.95, not 3.0 < 3).
func TestTargetMissesListRatios(t *testing.T) {
	q := query{Name: "company substring", Kind: listKind, PostGraphile: 300, PlainSQL: 807}
	for _, tc := range []struct {
		perSecond int
		want      []string
	}{
		{perSecond: 3000},
		{perSecond: 2387, want: []string{"×PostGraphile 7.95 < 10", "×plain SQL 2.95 < 3"}},
		{perSecond: 2999, want: []string{"×PostGraphile 9.99 < 10"}},
	} {
		rest := runResult{Transport: restT, Requests: tc.perSecond, Elapsed: time.Second, P50: time.Millisecond, P99: time.Millisecond}
		gql := rest
		gql.Transport = graphQLT
		got := (&report{N: 200000}).targetMisses(q, rest, gql)
		if len(got) != len(tc.want) {
			t.Fatalf("%d req/s: misses %q, want %q", tc.perSecond, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%d req/s: miss %q, want %q", tc.perSecond, got[i], tc.want[i])
			}
		}
	}
}
