package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
)

// The suggestions scenario (contract section 14): prefixes of 1 to 4
// letters over every field, without a filter, with a work arrangement or
// with a skill.
const (
	suggestKindName = "suggest while typing"
	firstKindName   = "suggest, first letter"
	// firstWithin: the first keystroke (one letter, no filter) is as fast
	// as any other: its p50 is at most this many times the mix's.
	firstWithin = 1.25
	// suggestP99 bounds a suggestion request's p99 (REST), and
	// suggestPerSecond is its least throughput at N=1,000,000.
	suggestP99       = 10 * time.Millisecond
	suggestPerSecond = 5000.0
)

// suggestDoc is the suggest query, with every member of the filter.
const suggestDoc = `query S($field: SuggestField!, $prefix: String!, $filter: JobFilter, $limit: Int) { ` +
	`suggest(field: $field, prefix: $prefix, filter: $filter, limit: $limit) { value count ` +
	`filter { company skills categoryRole categorySpecialization location } } }`

// suggestion is one suggestion of an answer, its filter as REST writes it.
type suggestion struct {
	Value  string
	Count  int
	Filter map[string]string
}

// buildSuggest returns the suggestions scenario: for each field in turn,
// a prefix of 1 to 4 letters of a word of one of the data's values of
// that field (roles, skills, company names, cities), a third of them
// without a filter, a third with work_arrangement=remote, a third with a
// skill.
func buildSuggest(ctx context.Context, db *pgx.Conn, rnd *rand.Rand, skills []string) ([]query, error) {
	sources := map[string]string{
		"title":    `SELECT DISTINCT category_role FROM jobs WHERE category_role IS NOT NULL ORDER BY 1`,
		"company":  `SELECT DISTINCT c.name FROM jobs AS j JOIN companies AS c ON c.id = j.company_id ORDER BY 1`,
		"skills":   `SELECT DISTINCT s FROM jobs, unnest(skills) AS s ORDER BY 1`,
		"location": `SELECT DISTINCT c FROM jobs, unnest(location_city) AS c ORDER BY 1`,
	}
	fields := []string{"title", "company", "skills", "location"}
	words := map[string][]string{}
	for _, f := range fields {
		vals, err := strings1(ctx, db, sources[f])
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if len(w) >= 4 && strings.IndexFunc(w, func(r rune) bool { return r > unicode.MaxASCII }) < 0 {
					words[f] = append(words[f], w)
				}
			}
		}
		if len(words[f]) == 0 {
			return nil, fmt.Errorf("suggest: no word of four letters among the %s values", f)
		}
	}
	q := query{Name: suggestKindName, Kind: suggestKind,
		Rotation: "title, company, skills, location in turn; prefixes of 1–4 letters of the data's words; no filter, remote, or a skill"}
	for i := range values {
		field := fields[i%len(fields)]
		ws := words[field]
		prefix := ws[rnd.IntN(len(ws))][:1+(i/len(fields))%4]
		params := url.Values{"field": {field}, "prefix": {prefix}, "limit": {"8"}}
		vars := map[string]any{"field": strings.ToUpper(field), "prefix": prefix, "limit": 8}
		where, args := "true", []any(nil)
		switch i % 3 {
		case 1:
			params.Set("work_arrangement", "remote")
			vars["filter"] = map[string]any{"workArrangement": []string{"REMOTE"}}
			where = `j.work_arrangement = 'remote'`
		case 2:
			if field == "skills" {
				break // the suggestion's skills replace the request's
			}
			s := skills[rnd.IntN(len(skills))]
			params.Set("skills", s)
			vars["filter"] = map[string]any{"skills": []string{s}}
			where, args = `j.skills @> ARRAY[$1]::text[]`, []any{s}
		}
		q.Cases = append(q.Cases, testCase{REST: "/api/v1/suggest?" + params.Encode(), GraphQL: graphQLBody(suggestDoc, vars),
			Where: where, Args: args})
	}
	first := query{Name: firstKindName, Kind: suggestFirstKind, Base: q.Name,
		Rotation: "title, company, skills, location in turn; the first letter of the data's words; no filter"}
	for i := range values {
		field := fields[i%len(fields)]
		ws := words[field]
		prefix := ws[rnd.IntN(len(ws))][:1]
		params := url.Values{"field": {field}, "prefix": {prefix}, "limit": {"8"}}
		vars := map[string]any{"field": strings.ToUpper(field), "prefix": prefix, "limit": 8}
		first.Cases = append(first.Cases, testCase{REST: "/api/v1/suggest?" + params.Encode(), GraphQL: graphQLBody(suggestDoc, vars),
			Where: "true"})
	}
	return []query{q, first}, nil
}

// parseSuggestions reads the suggestions of an answer of either transport.
func parseSuggestions(transport string, body []byte) ([]suggestion, error) {
	if transport == restT {
		var r struct{ Data []suggestion }
		err := json.Unmarshal(body, &r)
		return r.Data, err
	}
	var g struct {
		Data struct {
			Suggest []struct {
				Value  string
				Count  int
				Filter map[string]any
			}
		}
	}
	if err := json.Unmarshal(body, &g); err != nil {
		return nil, err
	}
	names := map[string]string{"categoryRole": "category_role", "categorySpecialization": "category_specialization"}
	out := make([]suggestion, 0, len(g.Data.Suggest))
	for _, s := range g.Data.Suggest {
		f := map[string]string{}
		for k, v := range s.Filter {
			if name, ok := names[k]; ok {
				k = name
			}
			switch v := v.(type) {
			case string:
				f[k] = v
			case []any:
				if len(v) == 1 {
					f[k], _ = v[0].(string)
				}
			}
		}
		out = append(out, suggestion{Value: s.Value, Count: s.Count, Filter: f})
	}
	return out, nil
}

// checkSuggestions compares each suggestion's count with SQL's count of
// the jobs of the case's filter and the suggestion's (contract section
// 14), read as section 4 reads them, without the service's code.
func checkSuggestions(ctx context.Context, db *pgx.Conn, tc testCase, got []suggestion) []string {
	var diffs []string
	for _, s := range got {
		if len(s.Filter) != 1 {
			diffs = append(diffs, fmt.Sprintf("%q: filter %v, want one member", s.Value, s.Filter))
			continue
		}
		where, args := tc.Where, append([]any(nil), tc.Args...)
		arg := func(v any) string {
			args = append(args, v)
			return "$" + strconv.Itoa(len(args))
		}
		for param, v := range s.Filter {
			switch param {
			case "company":
				where += ` AND j.company_id IN (SELECT id FROM companies WHERE name ILIKE '%' || ` + arg(strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(v)) + ` || '%')`
			case "skills":
				where += ` AND j.skills @> ARRAY[` + arg(v) + `]::text[]`
			case "category_role":
				where += ` AND j.category_role = ` + arg(v)
			case "category_specialization":
				where += ` AND j.category_specialization = ` + arg(v)
			case "location":
				parts := strings.Split(v, ", ")
				where += ` AND j.location_city @> ARRAY[` + arg(parts[0]) + `]::text[] AND j.location_country @> ARRAY[` + arg(parts[len(parts)-1]) + `]::text[]`
				if len(parts) == 3 {
					where += ` AND j.location_state @> ARRAY[` + arg(parts[1]) + `]::text[]`
				}
			default:
				diffs = append(diffs, fmt.Sprintf("%q: unknown filter %s", s.Value, param))
				continue
			}
		}
		var n int
		if err := db.QueryRow(ctx, `SELECT count(*) FROM jobs AS j WHERE `+where, args...).Scan(&n); err != nil {
			diffs = append(diffs, fmt.Sprintf("%q: SQL: %v", s.Value, err))
			continue
		}
		if n != s.Count {
			diffs = append(diffs, fmt.Sprintf("%q count %d, SQL %d", s.Value, s.Count, n))
		}
	}
	return diffs
}
