package rest_test

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/jobsd-dev/jobsd/internal/apitest"
)

// TestHostileInput: injections, huge and malformed values are 200 or 400,
// never 500; nothing is written, and no internal error is logged.
func TestHostileInput(t *testing.T) {
	env := apitest.New(t)
	var log bytes.Buffer
	env.LogTo(&log)
	h := env.REST()
	before := env.Fingerprint(t)
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
			rec := apitest.Get(t, h, "/api/v1/jobs?"+q)
			assert.Contains(t, []int{200, 400}, rec.Code, "GET /jobs?%s", q[:min(len(q), 120)])
			if rec.Code == 400 {
				code := apitest.Decode[errorBody](t, rec.Body.Bytes()).Error.Code
				assert.Contains(t, []string{"invalid_parameter", "unknown_parameter"}, code)
			}
		})
	}
	for _, path := range []string{"/api/v1/jobs/%27%3B--", "/api/v1/jobs/" + strings.Repeat("a", 10000) + "-1", "/api/v1/jobs/test-1%00", "/api/v1/companies?min_jobs=1e9", "/api/v1/companies?min_jobs=99999999999999999999"} {
		assert.Less(t, apitest.Get(t, h, path).Code, 500, path[:min(len(path), 60)])
	}
	assert.Equal(t, before, env.Fingerprint(t), "the database is unchanged")
	assert.NotContains(t, log.String(), `"level":"ERROR"`, "no internal errors were logged")
}
