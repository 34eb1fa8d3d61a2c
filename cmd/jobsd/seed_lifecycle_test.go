package main_test

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestSeedLifecycle: make run's demo data (seed --lifecycle) has closed
// postings, whose detail answers 410 gone, and postings that expire soon;
// the list counts only the open ones.
func TestSeedLifecycle(t *testing.T) {
	dsn := pgtest.NewURL(t)
	jobsd(t, dsn, "migrate")
	out := jobsd(t, dsn, "seed", "--n", "600", "--lifecycle")
	require.Contains(t, out, "2 closed", out)
	s := startServiceOn(t, dsn)
	s.key = strings.TrimSpace(jobsd(t, dsn, "apikey", "create", "--name", "demo"))
	status, body, _ := s.get(t, "/api/v1/jobs?limit=1")
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 598, body["meta"].(map[string]any)["total"], "600 postings, 2 closed")
	status, body, _ = s.get(t, "/api/v1/changes?limit=1000")
	require.Equal(t, http.StatusOK, status)
	var closed string
	for _, c := range body["data"].([]any) {
		if c.(map[string]any)["change"] == "closed" {
			closed = c.(map[string]any)["id"].(string)
		}
	}
	require.NotEmpty(t, closed, "the feed shows the closes")
	status, body, _ = s.get(t, "/api/v1/jobs/"+closed)
	assert.Equal(t, http.StatusGone, status, "%v", body)
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	var due int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM jobs WHERE valid_through > now() AND valid_through < now() + interval '15 days'").Scan(&due))
	assert.Equal(t, 6, due, "every 100th posting expires within two weeks")
}
