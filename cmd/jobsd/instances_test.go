package main_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// counts is what one instance shows of a company: its jobs' total, its
// facet count, its /companies count and its page's count.
type counts struct{ total, facet, companies, page int }

func (s *service) countsOf(t *testing.T, company, slug string) counts {
	t.Helper()
	var c counts
	status, body, _ := s.get(t, "/api/v1/jobs?limit=1&company="+company+"&facets=company")
	require.Equal(t, 200, status, "%v", body)
	meta := body["meta"].(map[string]any)
	c.total = int(meta["total"].(float64))
	for _, v := range meta["facets"].(map[string]any)["company"].([]any) {
		if v := v.(map[string]any); strings.EqualFold(v["value"].(string), company) {
			c.facet = int(v["count"].(float64))
		}
	}
	status, body, _ = s.get(t, "/api/v1/companies?limit=100")
	require.Equal(t, 200, status, "%v", body)
	for _, co := range body["data"].([]any) {
		if co := co.(map[string]any); strings.EqualFold(co["name"].(string), company) {
			c.companies = int(co["job_count"].(float64))
		}
	}
	status, body, _ = s.get(t, "/api/v1/companies/"+slug)
	if status == 200 {
		c.page = int(body["data"].(map[string]any)["job_count"].(float64))
	}
	return c
}

// TestInstancesFollowWrites runs two serve instances on one database and
// checks that an import, a tombstone, a snapshot's closes and an expiry
// show on both at once in totals, facets, company lists and company
// pages, without either building its index again.
func TestInstancesFollowWrites(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	var lines []string
	for i := range 6 {
		lines = append(lines, posting(fmt.Sprintf("greenhouse-%d", i), "Backend Engineer", "Twinco", `"source":"greenhouse"`))
	}
	_, errOut, code := importLines(dsn, nil, lines...)
	require.Zero(t, code, errOut)
	key := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "twins", "--rate", "100000", "--burst", "100000"))
	a, b := startServiceOn(t, dsn), startServiceOn(t, dsn)
	a.key, b.key = key, key
	both := func(want int, what string) {
		t.Helper()
		for _, s := range []*service{a, b} {
			assert.Equal(t, counts{want, want, want, want}, s.countsOf(t, "Twinco", "twinco"), "%s (%s)", what, s.base)
		}
	}
	both(6, "the import before start")

	_, errOut, code = importLines(dsn, nil, posting("greenhouse-6", "Frontend Engineer", "Twinco", `"source":"greenhouse"`))
	require.Zero(t, code, errOut)
	both(7, "an import")

	_, errOut, code = importLines(dsn, nil, tombstone("greenhouse-0"))
	require.Zero(t, code, errOut)
	both(6, "a tombstone")

	_, errOut, code = importLines(dsn, []string{"--snapshot", "--source", "greenhouse"}, lines[2:]...)
	require.Zero(t, code, errOut)
	both(4, "a snapshot closing greenhouse-1 and greenhouse-6")

	until := time.Now().Add(2 * time.Second).UTC()
	_, errOut, code = importLines(dsn, nil, posting("greenhouse-2", "Backend Engineer", "Twinco",
		`"source":"greenhouse"`, `"valid_through":"`+until.Format(time.RFC3339Nano)+`"`))
	require.Zero(t, code, errOut)
	both(4, "an update")
	time.Sleep(time.Until(until) + 1200*time.Millisecond)
	both(3, "an expiry, a second after its instant")

	for _, s := range []*service{a, b} {
		status, metrics := fetch(t, "GET", s.base+"/metrics")
		require.Equal(t, 200, status)
		// One build at most: the second instance may load the first's.
		assert.Regexp(t, `(?m)^jobsd_index_builds_total [01]$`, metrics, "no instance built its index again")
		assert.Regexp(t, `(?m)^jobsd_index_sql_answers_total 0$`, metrics)
		assert.Regexp(t, `(?m)^jobsd_index_behind_changes 0$`, metrics)
	}
}
