#!/usr/bin/env bash
# `make loadtest`: one key at RATE requests/s for DURATION against a fresh
# jobsd on loopback; every answer must be 200 or 429 with correct
# rate-limit headers, and the server's RSS is reported before, at peak and
# after. The key keeps the default limit (50/s, burst 100).
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${RATE:-2000}"
DURATION="${DURATION:-10s}"
PORT="${LOAD_PORT:-18765}"

go build -o bin/jobsd ./cmd/jobsd
go build -o bin/loadgen ./cmd/loadgen
admin="$(scripts/devdb.sh)"
name="jobsd_load_$$"
export DATABASE_URL="${admin%/postgres\?*}/$name?sslmode=disable"
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  psql "$admin" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

./bin/jobsd migrate --create-database >/dev/null
./bin/jobsd seed --n 2000 >/dev/null 2>&1
key="$(./bin/jobsd apikey create --name load 2>/dev/null)"
./bin/jobsd serve --addr "127.0.0.1:$PORT" --no-migrate >/dev/null 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
echo "loadtest: $RATE requests/s for $DURATION from one key (limit 50/s, burst 100), GET /api/v1/jobs/greenhouse-100000"
./bin/loadgen -base "http://127.0.0.1:$PORT" -key "$key" -rate "$RATE" -duration "$DURATION" -path /api/v1/jobs/greenhouse-100000
