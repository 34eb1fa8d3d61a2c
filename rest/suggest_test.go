package rest_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/normalize/fold"
	"github.com/jobsd-dev/jobsd/seed"
)

type suggestion struct {
	Value  string            `json:"value"`
	Count  int               `json:"count"`
	Filter map[string]string `json:"filter"`
}

type suggestions struct {
	Data []suggestion `json:"data"`
	Meta struct {
		Field  string `json:"field"`
		Prefix string `json:"prefix"`
		Limit  int    `json:"limit"`
	} `json:"meta"`
}

// suggestEnv is a database of seeded postings.
func suggestEnv(t *testing.T, n int) *apitest.Env {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, seed.Write(&buf, seed.Options{N: n, Seed: 3}))
	return apitest.NewWithOptions(t, buf.String(), apitest.Options{})
}

// TestSuggestCountsAreListTotals: for random prefixes, fields and filters,
// each suggestion's count is the total of GET /jobs with the request's
// filters and the suggestion's filter (which replaces the request's value
// of its parameter); the order is count descending then folded value, with
// the matches of one edit after the exact ones; no value counts 0.
func TestSuggestCountsAreListTotals(t *testing.T) {
	env := suggestEnv(t, 400)
	h := env.REST()
	r := rand.New(rand.NewPCG(5, 5))
	filters := []string{"", "work_arrangement=remote", "skills=python", "country=United+States", "company=a",
		"category_field=Computer+and+Mathematical", "q=engineer", "salary_min=90000", "skills=golang,react&skills_match=all"}
	prefixes := map[string][]string{
		"title":    {"", "s", "so", "soft", "eng", "dat", "man", "sofware", "nurse", "backend s"},
		"company":  {"", "a", "b", "co", "inc", "the", "tech"},
		"skills":   {"", "p", "py", "go", "golang", "java", "reac", "node", "k8s", "sql"},
		"location": {"", "s", "san", "sf", "new y", "austin, tx", "bost", "lond", "san fransisco"},
	}
	checked := 0
	for range 160 {
		field := SuggestFieldsOf[r.IntN(len(SuggestFieldsOf))]
		prefix := prefixes[field][r.IntN(len(prefixes[field]))]
		filter := filters[r.IntN(len(filters))]
		limit := 1 + r.IntN(12)
		query := fmt.Sprintf("field=%s&prefix=%s&limit=%d", field, url.QueryEscape(prefix), limit)
		if filter != "" {
			query += "&" + filter
		}
		got := getJSON[suggestions](t, h, "/api/v1/suggest?"+query, http.StatusOK)
		assert.Equal(t, field, got.Meta.Field)
		assert.Equal(t, prefix, got.Meta.Prefix)
		assert.Equal(t, limit, got.Meta.Limit)
		assert.LessOrEqual(t, len(got.Data), limit, query)
		for i, s := range got.Data {
			require.Len(t, s.Filter, 1, query)
			params, err := url.ParseQuery(filter)
			require.NoError(t, err)
			for k, v := range s.Filter {
				params.Del(k)
				params.Set(k, v)
			}
			total := jobs(t, h, params.Encode()+"&limit=1").Meta.Total
			assert.Equal(t, total, s.Count, "%s: %q counts the total of GET /jobs?%s", query, s.Value, params.Encode())
			assert.Positive(t, s.Count, query)
			if i > 0 {
				prev := got.Data[i-1]
				ordered := prev.Count > s.Count || prev.Count == s.Count && fold.Fold(prev.Value) < fold.Fold(s.Value)
				assert.True(t, ordered || typoOnly(prefix, s.Value), "%s: %q before %q", query, prev.Value, s.Value)
			}
			checked++
		}
	}
	assert.Greater(t, checked, 300, "suggestions checked")
}

// SuggestFieldsOf are the fields suggestions complete.
var SuggestFieldsOf = []string{"title", "company", "skills", "location"}

// typoOnly reports whether value matches prefix only with one edit (its
// folded words do not start with the prefix's), so that it may follow a
// suggestion with a lower count.
func typoOnly(prefix, value string) bool {
	f := fold.Fold(prefix)
	for _, w := range strings.Fields(fold.Fold(value)) {
		if strings.HasPrefix(w, f) {
			return false
		}
	}
	return len(f) >= 4
}

func TestSuggestAliasesTyposAndErrors(t *testing.T) {
	env := suggestEnv(t, 400)
	h := env.REST()
	values := func(query string) []string {
		t.Helper()
		var out []string
		for _, s := range getJSON[suggestions](t, h, "/api/v1/suggest?"+query, http.StatusOK).Data {
			out = append(out, s.Value)
		}
		return out
	}
	assert.Contains(t, values("field=skills&prefix=golang"), "Go", "an alias")
	assert.Contains(t, values("field=skills&prefix=gola"), "Go", "a prefix of an alias")
	assert.Contains(t, values("field=skills&prefix=k8s"), "Kubernetes")
	assert.Contains(t, values("field=title&prefix=eng"), "Software Engineer", "a later word")
	assert.Contains(t, values("field=title&prefix=soft+eng"), "Software Engineer", "successive words")
	assert.Contains(t, values("field=title&prefix=sofware"), "Software Engineer", "one edit")
	assert.Contains(t, values("field=location&prefix=sf"), "San Francisco, California, United States", "a city's alias")
	assert.Contains(t, values("field=location&prefix=san+fr"), "San Francisco, California, United States")
	assert.Contains(t, values("field=location&prefix=austin%2C+tx"), "Austin, Texas, United States", "a state's code after a comma")
	top := getJSON[suggestions](t, h, "/api/v1/suggest?field=skills", http.StatusOK)
	require.Len(t, top.Data, 8, "an empty prefix: the values with most jobs, 8 by default")
	assert.True(t, slices.IsSortedFunc(top.Data, func(a, b suggestion) int { return b.Count - a.Count }))

	for _, tt := range []struct{ query, code, param string }{
		{"prefix=a", "invalid_parameter", "field"},
		{"field=salary&prefix=a", "invalid_parameter", "field"},
		{"field=title&prefix=" + strings.Repeat("é", 65), "invalid_parameter", "prefix"},
		{"field=title&limit=0", "invalid_parameter", "limit"},
		{"field=title&limit=21", "invalid_parameter", "limit"},
		{"field=title&sort=newest", "unknown_parameter", "sort"},
		{"field=title&offset=3", "unknown_parameter", "offset"},
		{"field=title&facets=skills", "unknown_parameter", "facets"},
		{"field=title&posted_within=forever", "invalid_parameter", "posted_within"},
		{"field=skills&skills=%FF", "invalid_parameter", "skills"},
	} {
		e := fail(t, h, "/api/v1/suggest?"+tt.query, http.StatusBadRequest)
		assert.Equal(t, tt.code, e.Error.Code, tt.query)
		assert.Equal(t, tt.param, e.Error.Param, tt.query)
	}
}

// TestSuggestionsAreFresh: a company is suggested once its posting is
// open, and no more once it closes.
func TestSuggestionsAreFresh(t *testing.T) {
	env := suggestEnv(t, 50)
	h := env.REST()
	companies := func() []suggestion {
		return getJSON[suggestions](t, h, "/api/v1/suggest?field=company&prefix=quokka", http.StatusOK).Data
	}
	assert.Empty(t, companies())
	env.ImportLines(t, []string{`{"id":"fresh-1","title":"Go Developer","company":"Quokka Labs","skills":["golang"]}`})
	assert.Equal(t, []suggestion{{Value: "Quokka Labs", Count: 1, Filter: map[string]string{"company": "Quokka Labs"}}}, companies())
	env.ImportLines(t, []string{`{"id":"fresh-1","closed":true}`})
	assert.Empty(t, companies())
}
