package main_test

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// nodeClients is the folder of the Node clients the tests drive
// (clients/apollo-test: package.json, its lock file, the scripts).
const nodeClients = "../../clients/apollo-test"

// nodeClient returns the path of node when it is installed and `npm ci`
// has installed package (e.g. "@apollo/client") in nodeClients; otherwise
// it skips the test, saying what is missing.
func nodeClient(t *testing.T, pkg string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js is not installed (Debian: apt-get install nodejs npm; .ci/run needs it), so the Node client test cannot run here")
	}
	if _, err := os.Stat(filepath.Join(nodeClients, "node_modules", pkg, "package.json")); err != nil {
		t.Skipf("npm package %s is not installed: run npm ci in clients/apollo-test (.ci/run does)", pkg)
	}
	return node
}

// TestApolloClientPagesEqualREST drives the real binary with Apollo Client
// (clients/apollo-test/apollo.mjs): InMemoryCache with
// relayStylePagination() unmodified for Query.jobs merges three pages of a
// filtered search fetched with fetchMore({variables: {after}}); the merged
// cards must be REST's three pages of the same filter, card for card and
// field for field, with REST's total and facets, and node(id:) refetches a
// job.
func TestApolloClientPagesEqualREST(t *testing.T) {
	node := nodeClient(t, "@apollo/client")
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	jobsd(t, dsn, "seed", "--n", "1500")
	s := startServiceOn(t, dsn)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "apollo", "--rate", "100000", "--burst", "100000"))

	const first = 5
	tests := []struct {
		name   string
		filter string // a JobFilter as JSON
		query  string // the same filter as REST parameters
	}{
		{"skills in a country", `{"skills": ["golang"], "country": "US"}`, "skills=golang&country=US"},
		{"keywords and a place", `{"q": "engineer", "location": "San Francisco, CA"}`, "q=engineer&location=" + url.QueryEscape("San Francisco, CA")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(node, "apollo.mjs")
			cmd.Dir = nodeClients
			cmd.Env = append(os.Environ(), "JOBSD_URL="+s.base, "JOBSD_KEY="+s.key, "JOBSD_FILTER="+tt.filter, "JOBSD_FIRST="+strconv.Itoa(first))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, "apollo.mjs: %s", stderr.String())
			assert.Empty(t, stderr.String(), "Apollo Client warns of nothing")
			var apollo struct {
				Pages      []int
				TotalCount int
				PageInfo   struct {
					HasNextPage, HasPreviousPage bool
					StartCursor, EndCursor       string
				}
				Cursors []string
				Cards   []map[string]any
				Facets  []struct {
					Field  string
					Values []struct {
						Value string
						Count int
					}
				}
				Node map[string]any
			}
			require.NoError(t, json.Unmarshal(out, &apollo), "%s", out)

			// REST's first three pages of the same filter.
			var rest []map[string]any
			var meta map[string]any
			next := ""
			for page := 0; page < 3; page++ {
				path := "/api/v1/jobs?" + tt.query + "&limit=" + strconv.Itoa(first) + "&facets=work_arrangement,skills&facet_limit=5"
				if next != "" {
					path += "&cursor=" + url.QueryEscape(next)
				}
				status, body, _ := s.get(t, path)
				require.Equal(t, 200, status, "%s: %v", path, body)
				for _, card := range body["data"].([]any) {
					rest = append(rest, card.(map[string]any))
				}
				if page == 0 {
					meta = body["meta"].(map[string]any)
				}
				if page < 2 {
					next, _ = body["meta"].(map[string]any)["next_cursor"].(string)
					require.NotEmpty(t, next, "the filter has more than two pages")
				} else {
					assert.Equal(t, body["meta"].(map[string]any)["has_more"], apollo.PageInfo.HasNextPage, "hasNextPage is REST's has_more after the third page")
				}
			}
			require.Len(t, rest, 3*first, "REST's three pages")
			assert.Equal(t, []int{first, first, first}, apollo.Pages, "three pages fetched")
			assert.EqualValues(t, meta["total"], apollo.TotalCount)

			// The merged cache holds REST's cards in REST's order.
			require.Len(t, apollo.Cards, len(rest), "the merged edges")
			for i, want := range rest {
				got := apollo.Cards[i]
				assert.Equal(t, want["id"], got["id"], "card %d", i)
				assert.Equal(t, want["title"], got["title"], "card %d", i)
				assert.Equal(t, want["company"], got["company"], "card %d", i)
				assert.Equal(t, want["location"], withoutTypename(got["location"]), "card %d", i)
				assert.Equal(t, want["category"], withoutTypename(got["category"]), "card %d", i)
				assert.Equal(t, spelling(want["work_arrangement"]), spelling(got["workArrangement"]), "card %d", i)
				assert.Equal(t, spelling(want["employment_type"]), spelling(got["employmentType"]), "card %d", i)
				wantSalary, gotSalary := want["salary"], withoutTypename(got["salary"])
				if w, ok := wantSalary.(map[string]any); ok {
					g := gotSalary.(map[string]any)
					assert.Equal(t, spelling(w["period"]), spelling(g["period"]), "card %d", i)
					delete(w, "period")
					delete(g, "period")
				}
				assert.Equal(t, wantSalary, gotSalary, "card %d", i)
			}
			// Every edge has a cursor, and the page's cursors are its ends.
			require.Len(t, apollo.Cursors, len(rest))
			for i, c := range apollo.Cursors {
				assert.NotEmpty(t, c, "edge %d's cursor", i)
			}
			assert.Equal(t, apollo.Cursors[len(apollo.Cursors)-1], apollo.PageInfo.EndCursor, "endCursor is the last edge's cursor")
			assert.Equal(t, apollo.Cursors[0], apollo.PageInfo.StartCursor, "startCursor is the first edge's cursor")
			assert.False(t, apollo.PageInfo.HasPreviousPage)

			// The facets read from the cache are REST's.
			facets := meta["facets"].(map[string]any)
			require.Len(t, apollo.Facets, 2)
			for _, f := range apollo.Facets {
				want := facets[strings.ToLower(f.Field)].([]any)
				require.Len(t, f.Values, len(want), f.Field)
				for i, v := range f.Values {
					w := want[i].(map[string]any)
					assert.Equal(t, spelling(w["value"]), spelling(v.Value), "%s value %d", f.Field, i)
					assert.EqualValues(t, w["count"], v.Count, "%s value %d", f.Field, i)
				}
			}

			// node(id:) refetched the last card's job.
			last := rest[len(rest)-1]
			assert.Equal(t, "Job", apollo.Node["__typename"])
			assert.Equal(t, last["id"], apollo.Node["id"])
			assert.Equal(t, last["title"], apollo.Node["title"])
			assert.Equal(t, last["company"], apollo.Node["company"])
		})
	}
}

// withoutTypename is v (a JSON object from Apollo's cache) without the
// __typename the cache adds.
func withoutTypename(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if k != "__typename" {
			out[k] = x
		}
	}
	return out
}

// spelling puts a closed-set value in one spelling: REST writes
// "full-time", GraphQL enums FULL_TIME.
func spelling(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	return strings.ToUpper(strings.ReplaceAll(s, "-", "_"))
}
