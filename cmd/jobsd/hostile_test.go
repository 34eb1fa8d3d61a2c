package main_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/store"
)

// fingerprint sums the rows of every table a request could touch.
func fingerprint(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn, store.Options{MaxOpenConns: 1})
	require.NoError(t, err)
	defer db.Close()
	var sum string
	require.NoError(t, db.NewRaw(`SELECT
		(SELECT count(*) || md5(coalesce(string_agg(j::text, '|' ORDER BY id), '')) FROM jobs j) ||
		(SELECT count(*) || md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM companies c) ||
		(SELECT count(*) || md5(coalesce(string_agg(k.name || k.prefix, '|' ORDER BY id), '')) FROM api_keys k)`).Scan(ctx, &sum))
	return sum
}

func TestHostileInput(t *testing.T) {
	s := startService(t)
	before := fingerprint(t, s.dsn)
	long := strings.Repeat("ä", 5000)
	thousand := strings.TrimSuffix(strings.Repeat("go,", 1000), ",")
	cases := []string{
		"company=" + url.QueryEscape("'; DROP TABLE jobs; --"),
		"title=" + url.QueryEscape(`Robert'); DELETE FROM companies;--`),
		"skills=" + url.QueryEscape(`go"}'::text[]) OR 1=1 --`),
		"location=" + url.QueryEscape(`%' OR '1'='1`),
		"company=" + url.QueryEscape(`\%_*`),
		"q=" + url.QueryEscape(`"unterminated & | ! ( ) :* -`),
		"salary_min=1e400", "salary_min=NaN", "salary_max=-0", "salary_min=-1e-300", "salary_max=Infinity",
		"limit=9223372036854775808", "offset=99999999999999999999", "limit=-0", "limit=1e3", "limit=%20",
		"title=" + long, "company=" + long, "q=" + long, "skills=" + url.QueryEscape(long),
		"city=%FF%FE", "company=%C3%28", "title=a%00b", "skills=go%00,rust",
		"skills=go&skills=rust&skills=" + thousand, "city=SF&city=NYC", "limit=5&limit=6",
		"work_arrangement=" + thousand, "employment_type=" + url.QueryEscape("full-time\nDROP"),
		"cursor=" + url.QueryEscape(`eyJzIjoibmV3ZXN0IiwiaSI6Ilx1MDAwMCJ9`), "cursor=%FF", "sort=newest;DROP",
		"%FF=1", "=", "&&&", "skills", "a[b]=c",
	}
	for _, q := range cases {
		t.Run(q[:min(len(q), 40)], func(t *testing.T) {
			status, body, _ := s.get(t, "/api/v1/jobs?"+q)
			assert.Contains(t, []int{200, 400}, status, "GET /jobs?%s", q[:min(len(q), 120)])
			if status == 400 {
				code := body["error"].(map[string]any)["code"]
				assert.Contains(t, []any{"invalid_parameter", "unknown_parameter"}, code)
			}
		})
	}
	for _, path := range []string{"/api/v1/jobs/%27%3B--", "/api/v1/jobs/" + strings.Repeat("a", 10000) + "-1", "/api/v1/jobs/test-1%00", "/api/v1/companies?min_jobs=1e9", "/api/v1/companies?min_jobs=99999999999999999999"} {
		status, _, _ := s.get(t, path)
		assert.Less(t, status, 500, path[:min(len(path), 60)])
	}
	for _, q := range []string{
		`{ jobs(filter: {company: "'; DROP TABLE jobs; --", skills: ["\u0000"]}) { nodes { id } } }`,
		`{ jobs(filter: {salaryMin: 1e308, salaryMax: 1e308}) { nodes { id } } }`,
		`{ jobs(limit: 2147483647, offset: 2147483647) { nodes { id } } }`,
		`{ job(id: "test-1' OR '1'='1") { id } }`,
		`{ jobs(after: "\u0000") { nodes { id } } }`,
	} {
		status, body := s.graphql(t, q, nil)
		assert.Equal(t, http.StatusOK, status, q)
		if errs, ok := body["errors"].([]any); ok {
			code := errs[0].(map[string]any)["extensions"].(map[string]any)["code"]
			assert.NotEqual(t, "internal", code, q)
		}
	}
	assert.Equal(t, before, fingerprint(t, s.dsn), "the database is unchanged")
	assert.NotContains(t, s.logs.String(), `"level":"ERROR"`, "no internal errors were logged")
}
