package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// kind says which performance targets apply to a query type.
type kind int

const (
	listKind         kind = iota // a job list: ×PostGraphile, ×plain SQL, p99
	jobKind                      // one full job by id: requests/s
	companyKind                  // the companies list: requests/s
	facetKind                    // a job list with facets: p50 ≤ 2× its Base's
	placeKind                    // a job list by city=: the base of a nearKind type
	nearKind                     // a job list near a place: ≥ nearWithin× its Base's throughput, p99 ≤ 50 ms
	suggestKind                  // suggestions while typing: p99 ≤ 10 ms, ≥ 5,000 req/s at 1M, counts as SQL's
	suggestFirstKind             // the first keystroke's suggestions: p50 ≤ firstWithin× its Base's, and suggestKind's targets
)

// isList says whether a kind's answers are pages of jobs.
func isList(k kind) bool { return k == listKind || k == facetKind || k == placeKind || k == nearKind }

// query is one type of the mix: the values it rotates through, and the
// throughputs measured when the targets were set for it (N=200,000) to compare with (0 where
// the issue has none).
type query struct {
	Name         string
	Kind         kind
	PostGraphile float64
	PlainSQL     float64
	// Rotation says how the values vary, for the report.
	Rotation string
	Cases    []testCase
	// Base names the query type a facetKind type adds its facets to: the
	// same cases without facets, measured in the same run.
	Base string
}

// testCase is one value of a query type: its REST path, its GraphQL
// body, and what the harness needs to check the answer in SQL of its own.
type testCase struct {
	REST    string
	GraphQL []byte
	// Where is the condition on jobs j that the filter means (contract
	// section 4), with Args as $1, $2, …; for job lists.
	Where string
	Args  []any
	// OrderBy is the SQL order of the page when it is not the default
	// (newest first, then id).
	OrderBy string
	// Limit and Offset of the page asked for.
	Limit, Offset int
	// ID is the job asked for (job by id).
	ID string
	// MinJobs is the companies list's min_jobs.
	MinJobs int
	// Facets are the facets asked for (facetKind), with what each must
	// count.
	Facets []facetCheck
}

// facetCheck is one facet of a case: its field (REST name) and the jobs j
// it counts, those matching Where with Args as $1, $2, … (the case's
// condition without the field's own filter: disjunctive faceting).
type facetCheck struct {
	Field string
	Where string
	Args  []any
}

// values is how many different values each query type rotates through.
const values = 500

// The GraphQL documents: the card fields of GET /jobs, the full record of
// GET /jobs/{id}, the company fields of GET /companies, with the totals.
const (
	cardFields = `id title company location { city state country full } workArrangement employmentType ` +
		`salary { min max currency period } category { field role specialization }`
	jobsPage = `query Jobs($filter: JobFilter, $limit: Int, $offset: Int, $after: String) { ` +
		`jobs(filter: $filter, limit: $limit, offset: $offset, after: $after) { nodes { ` + cardFields + ` } ` +
		`pageInfo { total limit offset hasMore endCursor } `
	jobsDoc = jobsPage + `} }`
	jobDoc  = `query Job($id: ID!) { job(id: $id) { id title company companyLogo url postedAt ` +
		`location { city state country full } workArrangement employmentType experienceLevel ` +
		`salary { min max currency period } summary description descriptionRaw responsibilities ` +
		`requiredQualifications preferredQualifications skills tools softSkills technicalSkills benefits ` +
		`education educationLevels educationMajors certifications visaSponsorship visaRequirements ` +
		`securityClearances clearanceStatus travelPercent source category { field role specialization } } }`
	companiesDoc = `query Companies($minJobs: Int, $limit: Int) { companies(minJobs: $minJobs, limit: $limit) { ` +
		`nodes { name logoUrl jobCount slug } pageInfo { total limit offset hasMore } } }`
)

// pageFacets are the facets of the faceted page (REST names; GraphQL's
// FacetField values are these upper-cased), counted to the default
// facet_limit.
var pageFacets = []string{"work_arrangement", "employment_type", "category_role", "skills", "country"}

// facetLimit is the contract's default facet_limit: how many values a
// facet shows, most jobs first.
const facetLimit = 10

// jobsFacetsDoc is jobsDoc with the page's facets.
var jobsFacetsDoc = jobsPage + `facets(fields: [` + strings.ToUpper(strings.Join(pageFacets, ", ")) + `]) ` +
	`{ field values { value count } } } }`

// graphQLBody is the POST /graphql body of a document with its variables.
func graphQLBody(doc string, vars map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"query": doc, "variables": vars})
	if err != nil {
		panic(err) // only maps of strings, numbers and lists
	}
	return b
}

// jobsCase is a job-list case: REST parameters, the GraphQL filter, and
// the SQL condition.
func jobsCase(params url.Values, filter map[string]any, limit, offset int, where string, args ...any) testCase {
	return jobsCaseDoc(jobsDoc, params, filter, limit, offset, where, args...)
}

// jobsCaseDoc is jobsCase with another GraphQL document of the jobs page.
func jobsCaseDoc(doc string, params url.Values, filter map[string]any, limit, offset int, where string, args ...any) testCase {
	params.Set("limit", strconv.Itoa(limit))
	params.Set("offset", strconv.Itoa(offset))
	vars := map[string]any{"limit": limit, "offset": offset}
	if len(filter) > 0 {
		vars["filter"] = filter
	}
	if where == "" {
		where = "true"
	}
	return testCase{
		REST: "/api/v1/jobs?" + params.Encode(), GraphQL: graphQLBody(doc, vars),
		Where: where, Args: args, Limit: limit, Offset: offset,
	}
}

// buildMix derives the values of every query type from the loaded data,
// deterministically: the lists come from SQL in a fixed order and are
// sampled with a fixed seed. skills are the umbrella skills of the data.
func buildMix(ctx context.Context, db *pgx.Conn, seed uint64, skills []string) ([]query, error) {
	rnd := rand.New(rand.NewPCG(seed, 0x62656e6368))
	var mix []query

	// Newest 25, no filter: the same query shape, its window shifted.
	q := query{Name: "newest 25, no filter", Kind: listKind, PostGraphile: 90, PlainSQL: 121,
		Rotation: "limit 25, offsets 0–499"}
	for _, off := range rnd.Perm(values) {
		q.Cases = append(q.Cases, jobsCase(url.Values{}, nil, 25, off, ""))
	}
	mix = append(mix, q)

	// Company substring: pieces of real company names, in either case.
	names, err := strings1(ctx, db, `SELECT name FROM companies WHERE job_count > 0 ORDER BY name`)
	if err != nil {
		return nil, err
	}
	q = query{Name: "company substring", Kind: listKind, PostGraphile: 300, PlainSQL: 807,
		Rotation: "500 substrings (3–10 characters) of company names"}
	seen := map[string]bool{}
	for tries := 0; len(q.Cases) < values && tries < 100*values; tries++ {
		name := []rune(names[rnd.IntN(len(names))])
		n := min(len(name), 3+rnd.IntN(8))
		start := rnd.IntN(len(name) - n + 1)
		sub := strings.TrimSpace(string(name[start : start+n]))
		if len([]rune(sub)) < 3 || strings.ContainsAny(sub, `%_\`) || seen[strings.ToLower(sub)] {
			continue
		}
		seen[strings.ToLower(sub)] = true
		if rnd.IntN(2) == 0 {
			sub = strings.ToLower(sub)
		}
		q.Cases = append(q.Cases, jobsCase(url.Values{"company": {sub}}, map[string]any{"company": sub}, 25, 0,
			`EXISTS (SELECT 1 FROM companies c WHERE c.id = j.company_id AND c.name ILIKE '%' || $1 || '%')`, sub))
	}
	mix = append(mix, q)

	// City + remote: every city that has remote jobs, with page sizes
	// around 25, as the data has far fewer than 500 cities.
	cities, err := strings1(ctx, db, `SELECT DISTINCT c FROM jobs, unnest(location_city) AS c WHERE work_arrangement = 'remote' ORDER BY c`)
	if err != nil {
		return nil, err
	}
	limits := limitsAround(25, (values+len(cities)-1)/max(len(cities), 1))
	q = query{Name: "city + remote", Kind: listKind, PostGraphile: 73, PlainSQL: 83,
		Rotation: fmt.Sprintf("%d cities × limits %d–%d", len(cities), slices.Min(limits), slices.Max(limits))}
	for _, l := range limits {
		for _, c := range cities {
			q.Cases = append(q.Cases, jobsCase(url.Values{"city": {c}, "work_arrangement": {"remote"}},
				map[string]any{"city": c, "workArrangement": []string{"REMOTE"}}, l, 0,
				`j.location_city @> ARRAY[$1]::text[] AND j.work_arrangement = 'remote'`, c))
		}
	}
	q.Cases = shuffled(rnd, q.Cases[:min(len(q.Cases), values)])
	mix = append(mix, q)

	// Skills any-of (2): pairs of the umbrella skills jobs have.
	umbrella := map[string]bool{}
	for _, s := range skills {
		umbrella[s] = true
	}
	q = query{Name: "skills any-of (2)", Kind: listKind, PostGraphile: 50, PlainSQL: 54,
		Rotation: fmt.Sprintf("500 pairs of %d skills", len(skills))}
	pairs := map[[2]string]bool{}
	for tries := 0; len(q.Cases) < values && tries < 100*values && len(skills) > 1; tries++ {
		a, b := skills[rnd.IntN(len(skills))], skills[rnd.IntN(len(skills))]
		if a == b || pairs[[2]string{a, b}] || pairs[[2]string{b, a}] || strings.Contains(a+b, ",") {
			continue
		}
		pairs[[2]string{a, b}] = true
		q.Cases = append(q.Cases, jobsCase(url.Values{"skills": {a + "," + b}}, map[string]any{"skills": []string{a, b}}, 25, 0,
			`j.skills && ARRAY[$1, $2]::text[]`, a, b))
	}
	mix = append(mix, q)

	// Salary overlap: ranges from 30,000–200,000 wide 10,000–150,000.
	unit, err := loadSalaryUnit()
	if err != nil {
		return nil, err
	}
	q = query{Name: "salary overlap", Kind: listKind, PostGraphile: 91, PlainSQL: 125,
		Rotation: "500 ranges [lo, hi], lo 30k–200k, width 10k–150k"}
	ranges := map[[2]int]bool{}
	for len(q.Cases) < values {
		lo := 30000 + 1000*rnd.IntN(171)
		hi := lo + 10000*(1+rnd.IntN(15))
		if ranges[[2]int{lo, hi}] {
			continue
		}
		ranges[[2]int{lo, hi}] = true
		q.Cases = append(q.Cases, jobsCase(url.Values{"salary_min": {strconv.Itoa(lo)}, "salary_max": {strconv.Itoa(hi)}},
			map[string]any{"salaryMin": lo, "salaryMax": hi}, 25, 0,
			// Contract section 4: the job's max (its min where max is
			// null) ≥ salary_min and its min ≤ salary_max ("up to X": 0).
			unit.amount("coalesce(j.salary_annual_max, j.salary_annual_min)")+` >= $1::float8 AND `+
				unit.amount("coalesce(j.salary_annual_min, 0)")+` <= $2::float8 AND `+unit.cond, unit.bound(lo), unit.bound(hi)))
	}
	mix = append(mix, q)

	// Four filters combined: state, one skill, work arrangement and a
	// minimum salary, taken from sampled jobs so that each finds some.
	rows, err := db.Query(ctx, `SELECT location_state[1], skills, work_arrangement, salary_annual_max FROM jobs
		WHERE cardinality(location_state) > 0 AND cardinality(skills) > 0 AND work_arrangement IS NOT NULL
		  AND salary_annual_max IS NOT NULL
		ORDER BY md5(id || $1) LIMIT 5000`, strconv.FormatUint(seed, 10))
	if err != nil {
		return nil, fmt.Errorf("sample jobs: %w", err)
	}
	type four struct {
		state, skill, arrangement string
		salary                    int
	}
	var fours []four
	have := map[four]bool{}
	for rows.Next() {
		var f four
		var sk []string
		var top float64
		if err := rows.Scan(&f.state, &sk, &f.arrangement, &top); err != nil {
			return nil, err
		}
		sk = slices.DeleteFunc(sk, func(s string) bool { return !umbrella[s] || strings.Contains(s, ",") })
		if len(sk) == 0 {
			continue
		}
		f.skill = sk[rnd.IntN(len(sk))]
		f.salary = int(top*(0.5+0.5*rnd.Float64())) / 5000 * 5000
		if !have[f] && len(fours) < values {
			have[f] = true
			fours = append(fours, f)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	q = query{Name: "four filters combined", Kind: listKind, PostGraphile: 13, PlainSQL: 33,
		Rotation: "500 (state, skill, work arrangement, salary_min) of sampled jobs"}
	for _, f := range fours {
		q.Cases = append(q.Cases, jobsCase(
			url.Values{"state": {f.state}, "skills": {f.skill}, "work_arrangement": {f.arrangement}, "salary_min": {strconv.Itoa(f.salary)}},
			map[string]any{"state": f.state, "skills": []string{f.skill}, "workArrangement": []string{strings.ToUpper(f.arrangement)}, "salaryMin": f.salary},
			25, 0,
			`j.location_state @> ARRAY[$1]::text[] AND j.skills @> ARRAY[$2]::text[] AND j.work_arrangement = $3 `+
				`AND `+unit.amount("coalesce(j.salary_annual_max, j.salary_annual_min)")+` >= $4::float8 AND `+unit.cond,
			f.state, f.skill, f.arrangement, unit.bound(f.salary)))
	}
	mix = append(mix, q)

	// Offset 10,000: no filter, 500 offsets around it.
	q = query{Name: "offset 10,000", Kind: listKind, PostGraphile: 48, PlainSQL: 61,
		Rotation: "limit 25, offsets 9,750–10,249"}
	for _, i := range rnd.Perm(values) {
		q.Cases = append(q.Cases, jobsCase(url.Values{}, nil, 25, 10000-values/2+i, ""))
	}
	mix = append(mix, q)

	// One full job by id.
	ids, err := strings1(ctx, db, `SELECT id FROM jobs ORDER BY md5(id || $1) LIMIT 500`, strconv.FormatUint(seed, 10))
	if err != nil {
		return nil, err
	}
	q = query{Name: "one full job by id", Kind: jobKind, PostGraphile: 536, PlainSQL: plainJobPerSecond,
		Rotation: fmt.Sprintf("%d job ids", len(ids))}
	for _, id := range ids {
		q.Cases = append(q.Cases, testCase{REST: "/api/v1/jobs/" + url.PathEscape(id),
			GraphQL: graphQLBody(jobDoc, map[string]any{"id": id}), ID: id})
	}
	mix = append(mix, q)

	// Companies, top 50: min_jobs 1–500.
	q = query{Name: "companies, top 50", Kind: companyKind, PostGraphile: 727, PlainSQL: 5343,
		Rotation: "limit 50, min_jobs 1–500"}
	for _, i := range rnd.Perm(values) {
		m := i + 1
		q.Cases = append(q.Cases, testCase{REST: "/api/v1/companies?limit=50&min_jobs=" + strconv.Itoa(m),
			GraphQL: graphQLBody(companiesDoc, map[string]any{"minJobs": m, "limit": 50}), Limit: 50, MinJobs: m})
	}
	mix = append(mix, q)

	// A filtered page, then the same page with five facets (issue: with
	// facets ≤ 2× the latency without): every (state, work arrangement)
	// pair that has jobs, with page sizes around 25. The work-arrangement
	// facet leaves out its own filter; the other four count under both.
	places, err := db.Query(ctx, `SELECT DISTINCT s, j.work_arrangement FROM jobs AS j, unnest(j.location_state) AS s
		WHERE j.work_arrangement IS NOT NULL ORDER BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("states and work arrangements: %w", err)
	}
	type place struct{ State, Arrangement string }
	pairs2, err := pgx.CollectRows(places, pgx.RowToStructByPos[place])
	if err != nil {
		return nil, fmt.Errorf("states and work arrangements: %w", err)
	}
	limits = limitsAround(25, (values+len(pairs2)-1)/max(len(pairs2), 1))
	var plain, faceted []testCase
	for _, l := range limits {
		for _, p := range pairs2 {
			filter := map[string]any{"state": p.State, "workArrangement": []string{strings.ToUpper(p.Arrangement)}}
			where := `j.location_state @> ARRAY[$1]::text[] AND j.work_arrangement = $2`
			plain = append(plain, jobsCase(url.Values{"state": {p.State}, "work_arrangement": {p.Arrangement}},
				filter, l, 0, where, p.State, p.Arrangement))
			fc := jobsCaseDoc(jobsFacetsDoc,
				url.Values{"state": {p.State}, "work_arrangement": {p.Arrangement}, "facets": {strings.Join(pageFacets, ",")}},
				filter, l, 0, where, p.State, p.Arrangement)
			for _, f := range pageFacets {
				check := facetCheck{Field: f, Where: where, Args: []any{p.State, p.Arrangement}}
				if f == "work_arrangement" {
					check = facetCheck{Field: f, Where: `j.location_state @> ARRAY[$1]::text[]`, Args: []any{p.State}}
				}
				fc.Facets = append(fc.Facets, check)
			}
			faceted = append(faceted, fc)
		}
	}
	// One order for both: the faceted type sends the filtered page's
	// requests in the same order, each with the facets added.
	n := min(len(plain), values)
	order := rnd.Perm(n)
	q = query{Name: "filtered page", Kind: listKind,
		Rotation: fmt.Sprintf("%d (state, work arrangement) pairs × limits %d–%d", len(pairs2), slices.Min(limits), slices.Max(limits))}
	for _, i := range order {
		q.Cases = append(q.Cases, plain[i])
	}
	mix = append(mix, q)
	q = query{Name: "same + 5 facets", Kind: facetKind, Base: q.Name,
		Rotation: "the filtered page's values in its order, with facets=" + strings.Join(pageFacets, ",")}
	for _, i := range order {
		q.Cases = append(q.Cases, faceted[i])
	}
	mix = append(mix, q)

	near, err := buildNear(ctx, db, rnd, skills)
	if err != nil {
		return nil, err
	}
	mix = append(mix, near...)

	sg, err := buildSuggest(ctx, db, rnd, skills)
	if err != nil {
		return nil, err
	}
	mix = append(mix, sg...)

	for _, q := range mix {
		if len(q.Cases) < values {
			return nil, fmt.Errorf("%s: only %d different values in the data (want %d)", q.Name, len(q.Cases), values)
		}
	}
	return mix, nil
}

// umbrellaSkills returns the skills of the jobs that are umbrella skills,
// the canonical values of the skills filter (contract section 4: a filter
// item is mapped to its umbrella). Told from the data alone: the importer
// gives every job the umbrellas of its skills, so a skill under an
// umbrella never appears without it; a skill that no other skill always
// accompanies is an umbrella.
func umbrellaSkills(ctx context.Context, db *pgx.Conn) ([]string, error) {
	return strings1(ctx, db, `
		WITH n AS (SELECT s, count(*) AS c FROM jobs, unnest(skills) AS s GROUP BY s),
		     p AS (SELECT a.s, b.o, count(*) AS c FROM jobs, unnest(skills) AS a(s), unnest(skills) AS b(o)
		           WHERE a.s <> b.o GROUP BY a.s, b.o)
		SELECT n.s FROM n WHERE NOT EXISTS (SELECT 1 FROM p WHERE p.s = n.s AND p.c = n.c) ORDER BY n.s`)
}

// strings1 returns the first column of a query's rows.
func strings1(ctx context.Context, db *pgx.Conn, sql string, args ...any) ([]string, error) {
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sql, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sql, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no rows", sql)
	}
	return out, nil
}

// limitsAround returns n page sizes nearest to l (l, l-1, l+1, …), within
// 1–100.
func limitsAround(l, n int) []int {
	var out []int
	for d := 0; len(out) < n && d < 100; d++ {
		for _, v := range []int{l - d, l + d} {
			if v >= 1 && v <= 100 && !slices.Contains(out, v) && len(out) < n {
				out = append(out, v)
			}
		}
	}
	return out
}

// shuffled returns the cases in a random order of rnd.
func shuffled(rnd *rand.Rand, cases []testCase) []testCase {
	out := slices.Clone(cases)
	rnd.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
