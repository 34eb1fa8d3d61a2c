package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/jobsd-dev/jobsd/internal/pgtest"
)

// TestFloor serves the fixture's jobs in both modes: the fixed gzipped
// job for any id, its row read first in mode pg (an error is a 500).
func TestFloor(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.NewLoadedURL(t)
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	var first string
	require.NoError(t, db.QueryRowContext(ctx, "SELECT min(id) FROM jobs").Scan(&first))

	for _, readRow := range []bool{false, true} {
		h, err := newHandler(ctx, dsn, 2, readRow)
		require.NoError(t, err)
		srv := httptest.NewServer(h)
		for _, path := range []string{"/api/v1/jobs/" + first, "/api/v1/jobs/no-such-job"} {
			resp, err := http.Get(srv.URL + path) // the transport inflates, as it asked for gzip
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
			assert.True(t, resp.Uncompressed, "gzipped")
			var answer struct {
				Data struct {
					ID, Title, Description string
				}
			}
			require.NoError(t, json.Unmarshal(body, &answer))
			assert.Equal(t, first, answer.Data.ID, "the fixed job, whatever the id")
			assert.NotEmpty(t, answer.Data.Description)
		}
		for path, want := range map[string]string{"/readyz": "ok", "/metrics": "process_resident_memory_bytes"} {
			resp, err := http.Get(srv.URL + path)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Contains(t, string(body), want)
		}
		srv.Close()
	}

	// In mode pg a failing read is an error, not the fixed answer.
	h, err := newHandler(ctx, dsn, 1, true)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "ALTER TABLE jobs RENAME TO jobs_gone")
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/jobs/"+first, nil))
	assert.Equal(t, http.StatusInternalServerError, rec.Code)
	_, err = gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
	assert.Error(t, err, "no gzipped job with the error")
}
