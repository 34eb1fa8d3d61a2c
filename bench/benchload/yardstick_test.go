package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// loadedURL returns the URL of a database holding the fixture's jobs,
// and their ids.
func loadedURL(t *testing.T) (string, []string) {
	t.Helper()
	dsn := pgtest.NewLoadedURL(t)
	db, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer db.Close(context.Background())
	ids, err := strings1(context.Background(), db, "SELECT id FROM jobs ORDER BY id")
	require.NoError(t, err)
	return dsn, ids
}

func TestMeasureYardsticks(t *testing.T) {
	ctx := context.Background()
	dsn, ids := loadedURL(t)
	db, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer db.Close(ctx)
	cols, err := jobColumns(ctx, dsn)
	require.NoError(t, err)
	for _, left := range []string{"content_hash", "filter_keys", "given", "imported_at", "search_tsv", "posted_sort", "title_tsv"} {
		assert.NotContains(t, strings.Split(cols, ", "), left)
	}
	assert.Contains(t, strings.Split(cols, ", "), "description")
	// Every column of a whole job, in the table's order: the columns of
	// jobsd's job-by-id statement (store's jobByIDSQL) when this was
	// written. When the table jobs changes, check that the rule of package
	// jobcols still gives what jobsd reads, then update the list.
	assert.Equal(t, "id, company_id, title, company, company_logo, url, posted_at, location_city, location_state, "+
		"location_country, location_full, work_arrangement, employment_type, experience_level, salary_min, salary_max, "+
		"salary_currency, salary_period, salary_annual_min, salary_annual_max, summary, description, description_raw, "+
		"responsibilities, required_qualifications, preferred_qualifications, skills, tools, soft_skills, technical_skills, "+
		"benefits, education, education_levels, education_majors, certifications, visa_sponsorship, visa_requirements, "+
		"security_clearances, clearance_status, travel_percent, source, category_field, category_role, "+
		"category_specialization, valid_through", cols)

	// PostgREST's statement answers the job as JSON text, and null for
	// no job.
	var body string
	require.NoError(t, db.QueryRow(ctx, "SELECT body FROM ("+postgrestObjectSQL(cols)+") AS s", ids[0]).Scan(&body))
	var job map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &job))
	assert.Equal(t, ids[0], job["id"])
	assert.NotEmpty(t, job["title"])
	require.NoError(t, db.QueryRow(ctx, "SELECT body FROM ("+postgrestObjectSQL(cols)+") AS s", "no-such-job").Scan(&body))
	assert.Equal(t, "null", body)

	mix := []query{{Name: "one full job by id", Kind: jobKind}}
	for _, id := range ids {
		mix[0].Cases = append(mix[0].Cases, testCase{ID: id})
	}
	var out bytes.Buffer
	runs, err := measureYardsticks(ctx, dsn, 2, 200*time.Millisecond, mix, &out)
	require.NoError(t, err)
	require.Len(t, runs, len(yardsticks))
	for i, r := range runs {
		assert.Equal(t, yardsticks[i].Name, r.Yardstick.Name)
		assert.Positive(t, r.Executed, r.Yardstick.Name)
		assert.GreaterOrEqual(t, r.Elapsed, 200*time.Millisecond)
		assert.Contains(t, out.String(), "yardstick: "+r.Yardstick.Name)
	}

	// Nothing to measure without job by id.
	_, err = measureYardsticks(ctx, dsn, 2, time.Millisecond, []query{{Name: "companies", Kind: companyKind}}, io.Discard)
	assert.ErrorContains(t, err, "no job ids")
}

func TestMeasureYardstickErrors(t *testing.T) {
	ctx := context.Background()
	empty := pgtest.NewURL(t) // no table jobs
	_, err := jobColumns(ctx, empty)
	assert.ErrorContains(t, err, "the columns of jobs")
	_, err = measureYardstick(ctx, empty, 1, time.Millisecond, yardsticks[0], "id", nil)
	assert.ErrorContains(t, err, "no ids")
	_, err = measureYardstick(ctx, empty, 1, time.Millisecond, yardsticks[1], "id", []string{"a"})
	assert.ErrorContains(t, err, `prepare one full job by id, PostgREST's statement`)
	assert.ErrorContains(t, err, `relation "jobs" does not exist`)
	_, err = measureYardstick(ctx, "postgres://127.0.0.1:1/none?connect_timeout=1", 1, time.Millisecond, yardsticks[0], "id", []string{"a"})
	var connectErr *pgconn.ConnectError
	assert.ErrorAs(t, err, &connectErr)
	assert.True(t, strings.HasPrefix(err.Error(), "connect: "), err)
}

func TestMeasureYardstickStopsAtTheFirstError(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewURL(t)
	// The statement fails for the id "2" only: the connection that meets it
	// stops every other, long before the time is up.
	failing := yardstick{Name: "failing", Issue: 1, SQL: func(string) string { return "SELECT 1 / ($1::int - 2)" }}
	started := time.Now()
	run, err := measureYardstick(ctx, dsn, 3, time.Minute, failing, "", []string{"1", "3", "2"})
	require.Error(t, err)
	assert.ErrorContains(t, err, "failing: ")
	assert.ErrorContains(t, err, "division by zero")
	assert.Less(t, time.Since(started), 30*time.Second)
	assert.Less(t, run.Elapsed, 30*time.Second)

	// The caller's cancellation ends it with the caller's error.
	cancelled, cancel := context.WithCancel(ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	started = time.Now()
	_, err = measureYardstick(cancelled, dsn, 2, time.Minute, yardstick{Name: "sleep", SQL: func(string) string {
		return "SELECT pg_sleep(0.01), $1::text"
	}}, "", []string{"a"})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(started), 30*time.Second)

	// Running out of time is no error.
	run, err = measureYardstick(ctx, dsn, 2, 100*time.Millisecond, yardstick{Name: "quick", Issue: 1, SQL: func(string) string {
		return "SELECT $1::text"
	}}, "", []string{"a", "b"})
	require.NoError(t, err)
	assert.Positive(t, run.Executed)
	assert.Equal(t, 100*time.Millisecond, run.Elapsed)
}

func TestYardstickMarkdown(t *testing.T) {
	run := func(y yardstick, perSecond int) yardstickRun {
		return yardstickRun{Yardstick: y, Executed: perSecond * 2, Elapsed: 2 * time.Second}
	}
	for _, tc := range []struct {
		name    string
		runs    []yardstickRun
		failure string
		n       int
		jobREST float64
		want    []string
		notWant []string
	}{
		{name: "none measured", n: 200000, jobREST: 5000},
		{
			name: "half the issue's speed", n: 200000, jobREST: 3546,
			runs: []yardstickRun{run(yardsticks[0], 7763), run(yardsticks[1], 3595)},
			want: []string{
				"run again here at N=200,000",
				"| one full job by id, plain SQL | 15,525/s | 7,763/s | 0.50 |",
				"| one full job by id, PostgREST's statement | 7,190/s | 3,595/s | 0.50 |",
				"jobsd served 3,546 full jobs a second over HTTP: 0.99× PostgREST's statement without HTTP on this machine. " +
					"The target, 7,000 requests/s against its 7,190 a second on issue 5's machine, asks 0.97×",
			},
		},
		{
			name: "job by id not measured", n: 200000,
			runs:    []yardstickRun{run(yardsticks[1], 7190)},
			want:    []string{"| one full job by id, PostgREST's statement | 7,190/s | 7,190/s | 1.00 |"},
			notWant: []string{"jobsd served"},
		},
		{
			name: "at a million jobs the target does not apply", n: 1000000, jobREST: 7000,
			runs:    []yardstickRun{run(yardsticks[1], 7190)},
			want:    []string{"run again here at N=1,000,000", "| 7,190/s | 7,190/s | 1.00 |"},
			notWant: []string{"jobsd served", "judged"},
		},
		{
			name: "failed", n: 200000, jobREST: 7000, failure: "connect: too many clients",
			want:    []string{"**Not measured:** connect: too many clients."},
			notWant: []string{"| statement |", "jobsd served"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := yardstickMarkdown(tc.runs, tc.failure, tc.n, tc.n >= 1000000, tc.jobREST)
			if len(tc.runs) == 0 && tc.failure == "" {
				assert.Empty(t, md)
				return
			}
			for _, w := range tc.want {
				assert.Contains(t, md, w)
			}
			for _, w := range tc.notWant {
				assert.NotContains(t, md, w)
			}
		})
	}

	// The report places it after the targets, naming jobsd's job-by-id rate.
	r := &report{N: 200000, Mix: []query{{Name: "one full job by id", Kind: jobKind, PostGraphile: 536, PlainSQL: 15525}},
		Runs:       [][]runResult{{measured(restT, time.Millisecond, 2*time.Millisecond), measured(graphQLT, time.Millisecond, 2*time.Millisecond)}},
		Yardsticks: []yardstickRun{run(yardsticks[1], 3595)}}
	md := r.markdown()
	assert.Contains(t, md, "jobsd served 1,000 full jobs a second over HTTP: 0.28×")
	targets, yard := strings.Index(md, "Targets:"), strings.Index(md, "Yardstick (")
	require.GreaterOrEqual(t, targets, 0)
	require.GreaterOrEqual(t, yard, 0)
	assert.Less(t, targets, yard)
}
