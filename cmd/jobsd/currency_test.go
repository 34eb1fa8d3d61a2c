package main_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/apitest"
	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestSalaryCurrencyRates starts jobsd with a reference-data directory whose
// currencies/eurofxref.csv the test writes: salaries compare at its rates
// (REST and GraphQL, the index and --index=false alike), /attributions
// names the ECB, and a new file is used within seconds, without a restart.
func TestSalaryCurrencyRates(t *testing.T) {
	refData := os.Getenv("JOBSD_REFDATA")
	if refData == "" {
		t.Skip("JOBSD_REFDATA is not set: serve needs the rest of the reference data beside the rates")
	}
	dir := t.TempDir()
	for _, sub := range []string{"locations", "occupations", "skills"} {
		require.NoError(t, os.Symlink(filepath.Join(refData, sub), filepath.Join(dir, sub)))
	}
	rates := filepath.Join(dir, "currencies", "eurofxref.csv")
	require.NoError(t, os.MkdirAll(filepath.Dir(rates), 0o755))
	write := func(body string, mod time.Time) {
		require.NoError(t, os.WriteFile(rates, []byte(body), 0o644))
		require.NoError(t, os.Chtimes(rates, mod, mod))
	}
	// 1 EUR = 1.25 USD = 160 JPY = 0.8 GBP.
	write("Date, USD, JPY, GBP, \n13 April 2026, 1.25, 160, 0.8, \n", time.Now().Add(-time.Hour))

	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	out, _ := runJobsdEnv(t, dsn, []string{"JOBSD_REFDATA=" + dir}, apitest.CurrencyJobs, "import", "-")
	require.Contains(t, out, "5 jobs written")
	key := strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "currency", "--rate", "100000", "--burst", "100000"))

	indexed := startServiceWith(t, dsn, []string{"--refdata", dir})
	indexed.key = key
	sqlOnly := startServiceWith(t, dsn, []string{"--refdata", dir, "--index=false"})
	sqlOnly.key = key

	list := func(s *service, query string) ([]string, map[string]any) {
		t.Helper()
		status, body, _ := s.get(t, "/api/v1/jobs?"+query)
		require.Equal(t, http.StatusOK, status, "%v", body)
		norm, _ := body["meta"].(map[string]any)["normalized"].(map[string]any)["salary_currency"].(map[string]any)
		return ids(body["data"]), norm
	}
	for _, s := range []*service{indexed, sqlOnly} {
		got, norm := list(s, "salary_min=100000")
		assert.Equal(t, []string{"cur-1", "cur-2"}, got, "JPY 6,000,000 is USD 46,875")
		assert.Equal(t, map[string]any{"currency": "USD", "rates_date": "2026-04-13"}, norm)
		got, _ = list(s, "sort=salary_desc")
		assert.Equal(t, []string{"cur-2", "cur-1", "cur-3", "cur-4", "cur-5"}, got)
		status, body := s.graphql(t, `{ jobs(filter: {salaryMin: 10000000, salaryCurrency: "JPY"}, sort: SALARY_ASC) { nodes { id } } }`, nil)
		require.Equal(t, http.StatusOK, status, "%v", body)
		assert.Equal(t, []string{"cur-1", "cur-2"}, ids(body["data"].(map[string]any)["jobs"].(map[string]any)["nodes"]))
	}
	attributions := func() []string {
		status, body, _ := indexed.get(t, "/attributions")
		require.Equal(t, http.StatusOK, status)
		var out []string
		for _, a := range body["data"].([]any) {
			out = append(out, a.(map[string]any)["attribution"].(string))
		}
		return out
	}
	assert.Contains(t, attributions(), "Source: ECB")

	// The next day's file: the pound at par with the dollar (GBP 80,000 is
	// USD 80,000 now).
	write("Date, USD, JPY, GBP, \n14 April 2026, 1.25, 160, 1.25, \n", time.Now())
	for _, s := range []*service{indexed, sqlOnly} {
		require.Eventually(t, func() bool {
			_, norm := list(s, "salary_min=100000")
			return norm["rates_date"] == "2026-04-14"
		}, 15*time.Second, 100*time.Millisecond, "the new rates are used without a restart")
		got, _ := list(s, "salary_min=100000")
		assert.Equal(t, []string{"cur-1"}, got)
		got, _ = list(s, "sort=salary_desc")
		assert.Equal(t, []string{"cur-1", "cur-2", "cur-3", "cur-4", "cur-5"}, got)
	}
	assert.Contains(t, indexed.logs.String(), "currency rates reloaded")

	// Without the file: salaries compare within the requested currency.
	require.NoError(t, os.Remove(rates))
	require.Eventually(t, func() bool {
		_, norm := list(indexed, "salary_min=50000")
		return norm["rates_date"] == nil
	}, 15*time.Second, 100*time.Millisecond)
	got, _ := list(indexed, "salary_min=50000&salary_currency=GBP")
	assert.Equal(t, []string{"cur-2"}, got)
	assert.NotContains(t, attributions(), "Source: ECB", "no rates in use, no ECB attribution")
}
