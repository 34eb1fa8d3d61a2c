// Command benchfloor is the least a Go HTTP service can do per job-by-id
// request on a machine, for comparing jobsd with: a net/http server that
// answers GET /api/v1/jobs/{id} with one fixed gzipped job (-mode fixed),
// or reads the job's row from PostgreSQL first (-mode pg: the same columns
// as jobsd, one prepared statement through database/sql and pgx on a pool
// of -db-max-conns, the row read and not decoded). No routing middleware,
// authentication, JSON encoding, compression per request or logging. It
// serves /readyz and the process metrics on /metrics, as bin/benchload
// needs:
//
//	benchfloor -mode pg -addr 127.0.0.1:18999 &
//	bin/benchload -base http://127.0.0.1:18999 -key x -only 'job by id' -out -
//
// (benchload's REST line is the measurement; its GraphQL run and its checks
// fail, as the floor serves neither.)
package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/klauspost/compress/gzip"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/jobsd-dev/jobsd/bench/internal/jobcols"
)

func main() {
	mode := flag.String("mode", "pg", "fixed: answer one fixed job; pg: read the job's row first")
	addr := flag.String("addr", "127.0.0.1:18999", "address to listen on")
	dsn := flag.String("db", "", "the database of the jobs (default $DATABASE_URL)")
	conns := flag.Int("db-max-conns", 4, "connections to PostgreSQL")
	flag.Parse()
	if *dsn == "" {
		*dsn = os.Getenv("DATABASE_URL")
	}
	if *mode != "fixed" && *mode != "pg" {
		log.Fatalf("-mode %q: want fixed or pg", *mode)
	}
	h, err := newHandler(context.Background(), *dsn, *conns, *mode == "pg")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(*addr, h))
}

// newHandler returns the floor's handler: the job's route, /readyz and
// /metrics. With readRow, every job request first reads its row.
func newHandler(ctx context.Context, dsn string, conns int, readRow bool) (http.Handler, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	var cols string
	if err := db.QueryRowContext(ctx, jobcols.Query).Scan(&cols); err != nil {
		return nil, fmt.Errorf("the columns of jobs: %w", err)
	}
	if cols == "" {
		return nil, errors.New("the columns of jobs: none")
	}
	// The answer: the first job as PostgreSQL renders it, gzipped once at
	// level 1 (as jobsd's answers are, per request).
	var body []byte
	if err := db.QueryRowContext(ctx, "SELECT json_build_object('data', row_to_json(j))::text FROM (SELECT "+cols+
		" FROM jobs ORDER BY id LIMIT 1) AS j").Scan(&body); err != nil {
		return nil, fmt.Errorf("a job: %w", err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	_, _ = zw.Write(body)
	_ = zw.Close()
	answer := gz.Bytes()
	query := "SELECT " + cols + " FROM jobs WHERE id = $1"

	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.Handler())
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /api/v1/jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		if readRow {
			if err := readJob(r.Context(), db, query, r.PathValue("id")); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(answer)
	})
	return mux, nil
}

// readJob reads the row of the job with the id through the statement,
// prepared once per connection, without decoding it.
func readJob(ctx context.Context, db *sql.DB, query, id string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("the driver is not pgx")
		}
		rows, err := c.Conn().Query(ctx, query, pgx.QueryExecModeCacheStatement, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			_ = rows.RawValues()
		}
		rows.Close()
		return rows.Err()
	})
}
