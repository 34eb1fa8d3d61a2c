package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// sampleEvery picks the sampled cases of a query type: every 25th of its
// 500 values, 20 a transport.
const sampleEvery = 25

func sampled(i int) bool { return i%sampleEvery == 0 }

// answer is what the checks read of a response, whichever transport gave
// it: the items of a page (job ids, or company names with their counts),
// its total and next cursor, or one job.
type answer struct {
	IDs     []string
	Counts  []int
	Total   int
	HasMore bool
	Cursor  string
	// Title and Company of one job.
	Title, Company string
	// Facets are a page's facets by field (REST name), when it has them;
	// expected gives every value SQL counts, most first.
	Facets map[string][]facetValue
}

// facetValue is how many jobs of a facet have a value.
type facetValue struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// parseAnswer reads a response body of a query kind and transport.
func parseAnswer(k kind, transport string, body []byte) (answer, error) {
	type item struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		JobCount    int    `json:"job_count"`
		GQLJobCount int    `json:"jobCount"`
		Title       string `json:"title"`
		Company     string `json:"company"`
	}
	type pageInfo struct {
		Total     int     `json:"total"`
		HasMore   bool    `json:"hasMore"`
		EndCursor *string `json:"endCursor"`
	}
	type gqlPage struct {
		Nodes    []item   `json:"nodes"`
		PageInfo pageInfo `json:"pageInfo"`
		Facets   []struct {
			Field  string       `json:"field"`
			Values []facetValue `json:"values"`
		} `json:"facets"`
	}
	var a answer
	fill := func(items []item, total int, hasMore bool, cursor *string) {
		for _, it := range items {
			if k == companyKind {
				a.IDs = append(a.IDs, it.Name)
				a.Counts = append(a.Counts, it.JobCount+it.GQLJobCount)
			} else {
				a.IDs = append(a.IDs, it.ID)
			}
		}
		a.Total, a.HasMore = total, hasMore
		if cursor != nil {
			a.Cursor = *cursor
		}
	}
	if transport == restT {
		var r struct {
			Data json.RawMessage `json:"data"`
			Meta struct {
				Total      int                     `json:"total"`
				HasMore    bool                    `json:"has_more"`
				NextCursor *string                 `json:"next_cursor"`
				Facets     map[string][]facetValue `json:"facets"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return a, fmt.Errorf("REST answer: %w", err)
		}
		if k == jobKind {
			var j item
			err := json.Unmarshal(r.Data, &j)
			a.IDs, a.Title, a.Company = []string{j.ID}, j.Title, j.Company
			return a, err
		}
		var items []item
		if err := json.Unmarshal(r.Data, &items); err != nil {
			return a, fmt.Errorf("REST data: %w", err)
		}
		fill(items, r.Meta.Total, r.Meta.HasMore, r.Meta.NextCursor)
		a.Facets = r.Meta.Facets
		return a, nil
	}
	var g struct {
		Data struct {
			Jobs      *gqlPage `json:"jobs"`
			Companies *gqlPage `json:"companies"`
			Job       *item    `json:"job"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &g); err != nil {
		return a, fmt.Errorf("GraphQL answer: %w", err)
	}
	switch {
	case k == jobKind && g.Data.Job != nil:
		a.IDs, a.Title, a.Company = []string{g.Data.Job.ID}, g.Data.Job.Title, g.Data.Job.Company
	case isList(k) && g.Data.Jobs != nil:
		p := g.Data.Jobs
		fill(p.Nodes, p.PageInfo.Total, p.PageInfo.HasMore, p.PageInfo.EndCursor)
		for _, f := range p.Facets {
			if a.Facets == nil {
				a.Facets = map[string][]facetValue{}
			}
			field := strings.ToLower(f.Field)
			a.Facets[field] = restFacetValues(field, f.Values)
		}
	case k == companyKind && g.Data.Companies != nil:
		p := g.Data.Companies
		fill(p.Nodes, p.PageInfo.Total, p.PageInfo.HasMore, nil)
	default:
		return a, fmt.Errorf("GraphQL answer without its data: %.200s", body)
	}
	return a, nil
}

// expected computes in SQL, without the service's code, what a case must
// answer: the page's items in the contract's order and the total.
func expected(ctx context.Context, db *pgx.Conn, k kind, tc testCase) (answer, error) {
	var a answer
	switch k {
	case jobKind:
		a.IDs = []string{tc.ID}
		err := db.QueryRow(ctx, `SELECT title, company FROM jobs WHERE id = $1`, tc.ID).Scan(&a.Title, &a.Company)
		return a, err
	case companyKind:
		// Counted from the jobs, not from companies.job_count.
		err := db.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM jobs GROUP BY company_id HAVING count(*) >= $1) AS t`,
			tc.MinJobs).Scan(&a.Total)
		if err != nil {
			return a, err
		}
		rows, err := db.Query(ctx, `SELECT c.name, count(*) FROM jobs AS j JOIN companies AS c ON c.id = j.company_id
			GROUP BY c.id, c.name HAVING count(*) >= $1 ORDER BY count(*) DESC, c.name, c.id LIMIT $2`, tc.MinJobs, tc.Limit)
		if err != nil {
			return a, err
		}
		for rows.Next() {
			var name string
			var n int
			if err := rows.Scan(&name, &n); err != nil {
				return a, err
			}
			a.IDs, a.Counts = append(a.IDs, name), append(a.Counts, n)
		}
		return a, rows.Err()
	}
	if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs AS j WHERE `+tc.Where, tc.Args...).Scan(&a.Total); err != nil {
		return a, fmt.Errorf("count: %w", err)
	}
	// Contract section 3: posted_at newest first (undated last), then id.
	order := tc.OrderBy
	if order == "" {
		order = `coalesce(j.posted_at, '-infinity') DESC, j.id`
	}
	n := len(tc.Args)
	rows, err := db.Query(ctx, fmt.Sprintf(`SELECT j.id FROM jobs AS j WHERE %s
		ORDER BY %s LIMIT $%d OFFSET $%d`, tc.Where, order, n+1, n+2),
		append(slices.Clone(tc.Args), tc.Limit, tc.Offset)...)
	if err != nil {
		return a, fmt.Errorf("page: %w", err)
	}
	if a.IDs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return a, fmt.Errorf("page: %w", err)
	}
	for _, f := range tc.Facets {
		values, err := facetCounts(ctx, db, f)
		if err != nil {
			return a, fmt.Errorf("facet %s: %w", f.Field, err)
		}
		if a.Facets == nil {
			a.Facets = map[string][]facetValue{}
		}
		a.Facets[f.Field] = values
	}
	return a, nil
}

// enumPattern matches a GraphQL enum value (HYBRID, FULL_TIME).
var enumPattern = regexp.MustCompile(`^[A-Z][A-Z_]*$`)

// restFacetValues spells the values of a GraphQL facet of an enum-typed
// field (work_arrangement, employment_type), which GraphQL writes as its
// enum values, as REST and the database do (HYBRID → hybrid, FULL_TIME →
// full-time); a value outside the enum is kept as it came.
func restFacetValues(field string, values []facetValue) []facetValue {
	if field != "work_arrangement" && field != "employment_type" {
		return values
	}
	out := make([]facetValue, len(values))
	for i, v := range values {
		if enumPattern.MatchString(v.Value) {
			v.Value = strings.ToLower(strings.ReplaceAll(v.Value, "_", "-"))
		}
		out[i] = v
	}
	return out
}

// facetSQL says, from the contract, which column of jobs j holds each
// field's values, and whether it is a list (a job counts once under each
// value it has).
var facetSQL = map[string]struct {
	column string
	array  bool
}{
	"work_arrangement": {"j.work_arrangement", false},
	"employment_type":  {"j.employment_type", false},
	"category_role":    {"j.category_role", false},
	"skills":           {"j.skills", true},
	"country":          {"j.location_country", true},
}

// facetCounts counts in SQL the jobs matching a facet's condition by each
// value of its field: every value, most jobs first, then by value.
func facetCounts(ctx context.Context, db *pgx.Conn, f facetCheck) ([]facetValue, error) {
	col, ok := facetSQL[f.Field]
	if !ok {
		return nil, fmt.Errorf("no SQL for the facet %s", f.Field)
	}
	sql := fmt.Sprintf(`SELECT %[1]s, count(*) FROM jobs AS j WHERE (%[2]s) AND %[1]s IS NOT NULL
		GROUP BY 1 ORDER BY 2 DESC, 1`, col.column, f.Where)
	if col.array {
		sql = fmt.Sprintf(`SELECT v, count(DISTINCT j.id) FROM jobs AS j CROSS JOIN LATERAL unnest(%s) AS v
			WHERE (%s) AND v IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`, col.column, f.Where)
	}
	rows, err := db.Query(ctx, sql, f.Args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[facetValue])
}

// compareFacet returns what differs between a facet's values and every
// value SQL counts (most first): the facet must show the top facetLimit
// values, most first, each with SQL's count. Values with equal counts may
// come in any order, and at the cut any of them may be shown.
func compareFacet(field string, got []facetValue, present bool, all []facetValue) []string {
	if !present {
		return []string{fmt.Sprintf("facet %s missing", field)}
	}
	want := all[:min(len(all), facetLimit)]
	if len(got) != len(want) {
		return []string{fmt.Sprintf("facet %s: %d values, SQL %d (of %d, top %d)", field, len(got), len(want), len(all), facetLimit)}
	}
	counts := make(map[string]int, len(all))
	for _, v := range all {
		counts[v.Value] = v.Count
	}
	seen := map[string]bool{}
	for i, v := range got {
		switch {
		case seen[v.Value]:
			return []string{fmt.Sprintf("facet %s: %q twice", field, v.Value)}
		case v.Count != counts[v.Value]:
			return []string{fmt.Sprintf("facet %s: %q %d, SQL %d", field, v.Value, v.Count, counts[v.Value])}
		}
		seen[v.Value] = true
		// Most first with SQL's counts: the i-th as common as SQL's i-th,
		// so in order, and no value left out has more jobs than one shown.
		if v.Count != want[i].Count {
			return []string{fmt.Sprintf("facet %s: %q %d in place %d, where SQL has %q %d", field, v.Value, v.Count, i+1, want[i].Value, want[i].Count)}
		}
	}
	return nil
}

// compare returns what differs between an answer and the expected one.
func compare(k kind, got, want answer) []string {
	var diffs []string
	switch k {
	case jobKind:
		if !slices.Equal(got.IDs, want.IDs) || got.Title != want.Title || got.Company != want.Company {
			diffs = append(diffs, fmt.Sprintf("job %v %q at %q, SQL %v %q at %q", got.IDs, got.Title, got.Company, want.IDs, want.Title, want.Company))
		}
		return diffs
	}
	if got.Total != want.Total {
		diffs = append(diffs, fmt.Sprintf("total %d, SQL count(*) %d", got.Total, want.Total))
	}
	if !slices.Equal(got.IDs, want.IDs) {
		diffs = append(diffs, fmt.Sprintf("page %s, SQL %s", short(got.IDs), short(want.IDs)))
	}
	if k == companyKind && !slices.Equal(got.Counts, want.Counts) {
		diffs = append(diffs, fmt.Sprintf("job counts %v, SQL %v", shortInts(got.Counts), shortInts(want.Counts)))
	}
	if k == facetKind {
		for _, field := range slices.Sorted(maps.Keys(want.Facets)) {
			values, present := got.Facets[field]
			diffs = append(diffs, compareFacet(field, values, present, want.Facets[field])...)
		}
	}
	return diffs
}

func short(s []string) string {
	if len(s) > 4 {
		return fmt.Sprintf("%q… (%d)", s[:4], len(s))
	}
	return fmt.Sprintf("%q", s)
}

func shortInts(s []int) []int { return s[:min(len(s), 6)] }

// exactness is the check of one query type's sampled answers.
type exactness struct {
	Query      string
	Checked    int
	Mismatches []string
}

// checkQuery compares the sampled answers of a query type's runs (or, for
// a case a slow run did not reach, a fresh answer) with SQL.
func checkQuery(ctx context.Context, db *pgx.Conn, c *client, q query, runs []runResult) exactness {
	e := exactness{Query: q.Name}
	for i, tc := range q.Cases {
		if !sampled(i) {
			continue
		}
		if q.Kind == suggestKind || q.Kind == suggestFirstKind {
			e.checkSuggest(ctx, db, c, tc, i, runs)
			continue
		}
		want, err := expected(ctx, db, q.Kind, tc)
		if err != nil {
			e.Mismatches = append(e.Mismatches, fmt.Sprintf("SQL for %s: %v", tc.REST, err))
			continue
		}
		for _, r := range runs {
			body, ok := r.Samples[i]
			if !ok {
				if body, err = c.do(ctx, tc, r.Transport); err != nil {
					e.Mismatches = append(e.Mismatches, fmt.Sprintf("%s %s: %v", r.Transport, tc.REST, err))
					continue
				}
			}
			got, err := parseAnswer(q.Kind, r.Transport, body)
			e.Checked++
			if err != nil {
				e.Mismatches = append(e.Mismatches, fmt.Sprintf("%s %s: %v", r.Transport, tc.REST, err))
				continue
			}
			for _, d := range compare(q.Kind, got, want) {
				e.Mismatches = append(e.Mismatches, fmt.Sprintf("%s %s: %s", r.Transport, tc.REST, d))
			}
		}
	}
	return e
}

// checkSuggest checks the sampled answers of the suggestion case tc
// (the i-th) of each run: every count is SQL's.
func (e *exactness) checkSuggest(ctx context.Context, db *pgx.Conn, c *client, tc testCase, i int, runs []runResult) {
	for _, r := range runs {
		body, ok := r.Samples[i]
		var err error
		if !ok {
			if body, err = c.do(ctx, tc, r.Transport); err != nil {
				e.Mismatches = append(e.Mismatches, fmt.Sprintf("%s %s: %v", r.Transport, tc.REST, err))
				continue
			}
		}
		got, err := parseSuggestions(r.Transport, body)
		e.Checked++
		if err != nil {
			e.Mismatches = append(e.Mismatches, fmt.Sprintf("%s %s: %v", r.Transport, tc.REST, err))
			continue
		}
		for _, d := range checkSuggestions(ctx, db, tc, got) {
			e.Mismatches = append(e.Mismatches, fmt.Sprintf("%s %s: %s", r.Transport, tc.REST, d))
		}
	}
}

// keyset is the cursor check of one filter through one transport: the
// latency of page 1 and of the deepest page reached by following cursors.
type keyset struct {
	Filter      string
	Transport   string
	Page        int // the deepest page reached (the goal: 400)
	First, Deep time.Duration
	Problems    []string
}

// Ratio is the deep page's median latency over the first page's.
func (k keyset) Ratio() float64 {
	if k.First <= 0 {
		return 0
	}
	return float64(k.Deep) / float64(k.First)
}

// cursorFilter is a filter the keyset check walks.
type cursorFilter struct {
	Name   string
	Params url.Values
	Filter map[string]any
	Where  string
	Args   []any
}

// cursorFilters are the filters of the keyset check: none, a work
// arrangement, and the most common of the umbrella skills.
func cursorFilters(ctx context.Context, db *pgx.Conn, umbrellas []string) ([]cursorFilter, error) {
	var skill string
	err := db.QueryRow(ctx, `SELECT s FROM jobs, unnest(skills) AS s WHERE s = ANY($1) GROUP BY s ORDER BY count(*) DESC, s LIMIT 1`,
		umbrellas).Scan(&skill)
	if err != nil {
		return nil, fmt.Errorf("most common skill: %w", err)
	}
	return []cursorFilter{
		{Name: "no filter", Params: url.Values{}, Where: "true"},
		{Name: "work_arrangement=onsite", Params: url.Values{"work_arrangement": {"onsite"}},
			Filter: map[string]any{"workArrangement": []string{"ONSITE"}}, Where: "j.work_arrangement = 'onsite'"},
		{Name: "skills=" + skill, Params: url.Values{"skills": {skill}},
			Filter: map[string]any{"skills": []string{skill}}, Where: "j.skills @> ARRAY[$1]::text[]", Args: []any{skill}},
	}, nil
}

// pageCase is page 1 of a filter (cursor "") or the page after a cursor.
func (f cursorFilter) pageCase(cursor string) testCase {
	p := url.Values{}
	for k, v := range f.Params {
		p[k] = v
	}
	p.Set("limit", "25")
	vars := map[string]any{"limit": 25}
	if len(f.Filter) > 0 {
		vars["filter"] = f.Filter
	}
	if cursor != "" {
		p.Set("cursor", cursor)
		vars["after"] = cursor
	}
	return testCase{REST: "/api/v1/jobs?" + p.Encode(), GraphQL: graphQLBody(jobsDoc, vars), Where: f.Where, Args: f.Args, Limit: 25}
}

// checkKeyset follows the cursors of a filter for up to pages pages, checks
// the deepest page against SQL at its offset, then times page 1 and that
// page alternately, times times each, one request at a time.
func checkKeyset(ctx context.Context, db *pgx.Conn, c *client, f cursorFilter, transport string, pages, times int) keyset {
	k := keyset{Filter: f.Name, Transport: transport}
	fail := func(format string, args ...any) keyset {
		k.Problems = append(k.Problems, fmt.Sprintf(format, args...))
		return k
	}
	first := f.pageCase("")
	deep, cursor := first, ""
	for k.Page = 1; ; k.Page++ {
		body, err := c.do(ctx, deep, transport)
		if err != nil {
			return fail("page %d: %v", k.Page, err)
		}
		a, err := parseAnswer(listKind, transport, body)
		if err != nil {
			return fail("page %d: %v", k.Page, err)
		}
		if k.Page == pages || !a.HasMore {
			break
		}
		if a.Cursor == "" || a.Cursor == cursor {
			return fail("page %d: has more but no new cursor", k.Page)
		}
		cursor = a.Cursor
		deep = f.pageCase(cursor)
	}
	// The page reached by cursors is the one at its offset.
	body, err := c.do(ctx, deep, transport)
	if err != nil {
		return fail("page %d: %v", k.Page, err)
	}
	got, err := parseAnswer(listKind, transport, body)
	if err != nil {
		return fail("page %d: %v", k.Page, err)
	}
	at := deep
	at.Offset = (k.Page - 1) * 25
	want, err := expected(ctx, db, listKind, at)
	if err != nil {
		return fail("SQL: %v", err)
	}
	for _, d := range compare(listKind, got, want) {
		k.Problems = append(k.Problems, fmt.Sprintf("page %d: %s", k.Page, d))
	}
	var firsts, deeps []time.Duration
	for range times {
		for j, tc := range []testCase{first, deep} {
			t0 := time.Now()
			if _, err := c.do(ctx, tc, transport); err != nil {
				return fail("timing: %v", err)
			}
			if j == 0 {
				firsts = append(firsts, time.Since(t0))
			} else {
				deeps = append(deeps, time.Since(t0))
			}
		}
	}
	slices.Sort(firsts)
	slices.Sort(deeps)
	k.First, k.Deep = percentile(firsts, 0.5), percentile(deeps, 0.5)
	return k
}

// itoa formats an integer with thousands separators.
func itoa(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
