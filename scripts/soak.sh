#!/usr/bin/env bash
# `make soak`: jobsd run as in production for SOAK_DURATION (30m), on a
# PostgreSQL cluster of its own (.data/soak-pg, port SOAK_PG_PORT, made
# from the installed binaries and removed afterwards), so that it can be
# restarted half way without disturbing anything else:
#   - SOAK_N (20,000) generated postings loaded, jobsd serve started cold
#     behind a trusted proxy (--trusted-proxies 127.0.0.1/32);
#   - bin/benchload -soak: the list mix on 16 connections, a 60-posting
#     import every 5 s (40 new, 20 changed, each closing the new postings
#     of the import 20 before it, so that the data stays the same size), a
#     snapshot of a 10,000-posting source every 4 minutes (alternately
#     closing a tenth of it and opening it again), wrong keys 10 times a
#     second from one client and a hostile GraphQL document every 2 s, and
#     the database restarted (pg_ctl restart -m fast) half way;
#   - it reports jobsd's RSS, goroutines and open files at the start (after
#     5 minutes), the middle (before the restart) and the end, and fails on
#     a growth over 10%, on any error but the restart's 503s, and on any
#     lost or wrong total.
# jobsd keeps the last changes for subscriptions that resume by cursor,
# about 1 KB each (--resume-history, 50,000 by default: 40 minutes of this
# load). The soak runs it with 5,000, which the warm-up fills, so that a
# bounded cache filling up is not taken for a leak.
# SOAK_FLAGS adds flags of bin/benchload -soak, SOAK_SERVE_FLAGS flags of
# jobsd serve (--debug-addr 127.0.0.1:6060 for heap profiles).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION="${SOAK_DURATION:-30m}"
N="${SOAK_N:-20000}"
PORT="${SOAK_PORT:-18767}"
export JOBSD_DEVDB_PRIVATE=1 JOBSD_DEVDB_DIR=.data/soak-pg JOBSD_DEVDB_PORT="${SOAK_PG_PORT:-54339}"
work=.data/soak
mkdir -p "$work"

if [ -z "${JOBSD_REFDATA:-}" ] && [ -d ../shared/data/locations ]; then
  JOBSD_REFDATA="$(cd ../shared/data && pwd)"
  export JOBSD_REFDATA
fi

echo "soak: building bin/jobsd and bin/benchload"
go build -o bin/jobsd ./cmd/jobsd
go build -C bench -o ../bin/benchload ./benchload

server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; fi
  # The cluster's files go once it has stopped (else they stay, for the
  # next run's start to stop it).
  if scripts/devdb.sh stop 2>/dev/null || [ ! -f "$JOBSD_DEVDB_DIR/postmaster.pid" ]; then
    rm -rf "$JOBSD_DEVDB_DIR" "$JOBSD_DEVDB_DIR.log"
  fi
}
trap cleanup EXIT
# A cluster an interrupted run left: stopped, then removed.
if [ -f "$JOBSD_DEVDB_DIR/postmaster.pid" ]; then scripts/devdb.sh stop || true; fi
rm -rf "$JOBSD_DEVDB_DIR"
admin="$(scripts/devdb.sh)"
export DATABASE_URL="${admin%/postgres\?*}/jobsd_soak?sslmode=disable"
./bin/jobsd migrate --create-database >/dev/null
echo "soak: loading $N postings"
./bin/jobsd seed --n "$N" >"$work/seed.out"
key="$(./bin/jobsd apikey create --name soak 2>/dev/null)"

base="http://127.0.0.1:$PORT"
./bin/jobsd serve --addr "127.0.0.1:$PORT" --no-migrate --index-cache "" --rate 1000000000 --burst 1000000000 \
  --trusted-proxies 127.0.0.1/32 --resume-history 5000 ${SOAK_SERVE_FLAGS:-} 2>"$work/jobsd.log" >/dev/null &
server=$!
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz" || true)" = 200 ]; do
  if ! kill -0 "$server" 2>/dev/null; then
    echo "soak: jobsd exited; its log:" >&2
    tail -n 20 "$work/jobsd.log" >&2
    exit 1
  fi
  sleep 0.2
done
echo "soak: jobsd ready on $base (log: $work/jobsd.log)"
./bin/benchload -soak -base "$base" -key "$key" -db "$DATABASE_URL" -n "$N" -jobsd bin/jobsd \
  -soak-duration "$DURATION" -live-interval 5s -live-new 40 -live-updates 20 \
  -soak-warmup 5m -soak-restart "scripts/devdb.sh restart" ${SOAK_FLAGS:-}
