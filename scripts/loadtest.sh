#!/usr/bin/env bash
# `make loadtest`: one key at RATE requests/s for DURATION against a fresh
# jobsd on loopback; every answer must be 200 or 429 with correct
# rate-limit headers, and the server's RSS is reported before, at peak and
# after. The key keeps the default limit (50/s, burst 100).
#
# Then the hostile scenario (HOSTILE=0 skips it): normal traffic from one
# key (NORMAL_RATE requests/s over a mix of lists, a job and companies) is
# measured alone, then again while another key sends the built-in hostile
# GraphQL operations (loadgen -hostile: nested fragments, hundreds of
# aliased keyword searches with every facet, deep introspection, long
# documents and strings, and the most expensive operations accepted) at
# HOSTILE_RATE; the normal traffic's p99 is reported with and without.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${RATE:-2000}"
DURATION="${DURATION:-10s}"
PORT="${LOAD_PORT:-18765}"
N="${N:-20000}"
NORMAL_RATE="${NORMAL_RATE:-200}"
HOSTILE_RATE="${HOSTILE_RATE:-40}"

go build -o bin/jobsd ./cmd/jobsd
go build -C bench -o ../bin/loadgen ./loadgen # the tools' module (bench/go.mod)
admin="$(scripts/devdb.sh)"
name="jobsd_load_$$"
export DATABASE_URL="${admin%/postgres\?*}/$name?sslmode=disable"
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  psql "$admin" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

./bin/jobsd migrate --create-database >/dev/null
./bin/jobsd seed --n "$N" >/dev/null 2>&1
key="$(./bin/jobsd apikey create --name load 2>/dev/null)"
./bin/jobsd serve --addr "127.0.0.1:$PORT" --no-migrate >/dev/null 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
echo "loadtest: $RATE requests/s for $DURATION from one key (limit 50/s, burst 100), GET /api/v1/jobs/greenhouse-100000"
./bin/loadgen -base "http://127.0.0.1:$PORT" -key "$key" -rate "$RATE" -duration "$DURATION" -path /api/v1/jobs/greenhouse-100000

[ "${HOSTILE:-1}" = 1 ] || exit 0
normal="$(./bin/jobsd apikey create --name normal --rate 100000 --burst 100000 2>/dev/null)"
hostile="$(./bin/jobsd apikey create --name hostile 2>/dev/null)"
paths="$(mktemp)"
out="$(mktemp -d)"
trap 'cleanup; rm -rf "$paths" "$out"' EXIT
printf '%s\n' '/api/v1/jobs?limit=25' '/api/v1/jobs?skills=go&limit=25' '/api/v1/jobs/greenhouse-100000' \
  '/api/v1/jobs?work_arrangement=remote&sort=salary_desc' '/api/v1/companies?limit=20' >"$paths"
normal_run() {
  ./bin/loadgen -base "http://127.0.0.1:$PORT" -key "$normal" -rate "$NORMAL_RATE" -duration "$DURATION" -paths "$paths" -allow 200
}
echo "loadtest: hostile scenario on $N postings: normal traffic at $NORMAL_RATE requests/s alone"
normal_run | tee "$out/alone"
echo "loadtest: normal traffic again, while another key sends hostile GraphQL operations at $HOSTILE_RATE/s"
./bin/loadgen -base "http://127.0.0.1:$PORT" -key "$hostile" -hostile -rate "$HOSTILE_RATE" -workers 16 \
  -duration "$DURATION" -check-headers=false -allow 200,429 >"$out/hostile" 2>&1 &
attacker=$!
normal_run | tee "$out/with"
wait "$attacker" || { cat "$out/hostile"; exit 1; }
echo "loadtest: the hostile key's answers:"
cat "$out/hostile"
p99() { sed -n 's/.*p99 \([^,]*\),.*/\1/p' "$1"; }
echo "loadtest: normal traffic's p99: $(p99 "$out/alone") alone, $(p99 "$out/with") beside the hostile traffic"
