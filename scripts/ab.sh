#!/usr/bin/env bash
# A rough A/B of jobsd builds on one machine, in one run: for each of
# COMMITS (and the working tree, "new"), in alternating order each round,
# a fresh database imported from one seed file (import seconds), a cold
# start to /readyz with no saved index (seconds), and bin/benchload's
# quiet list types and job by id (-only ONLY, DURATION each, REST and
# GraphQL; req/s and jobsd's processor time per request). The benchload
# of BASE_COMMIT drives every build, so that the query mix is the same.
# Usage: COMMITS="682c8aab 432de8f" N=50000 ROUNDS=2 scripts/ab.sh > ab.txt
# (not make bench's A/B mode, which issue 32 asks for: a first tool).
set -euo pipefail
cd "$(dirname "$0")/.."
COMMITS="${COMMITS:-432de8f}"; BASE_COMMIT="${BASE_COMMIT:-${COMMITS%% *}}"
N="${N:-50000}"; ROUNDS="${ROUNDS:-2}"; DURATION="${DURATION:-4s}"; PORT="${PORT:-18790}"
ONLY="${ONLY:-newest 25|city \+ remote|skills any-of|four filters|one full job by id}"
if [ -z "${JOBSD_REFDATA:-}" ] && [ -d ../shared/data/locations ]; then
  JOBSD_REFDATA="$(cd ../shared/data && pwd)"; export JOBSD_REFDATA
fi
admin="$(scripts/devdb.sh)"
work="$(mktemp -d)"; trap 'rm -rf "$work"; git worktree prune' EXIT
go build -o "$work/jobsd-new" ./cmd/jobsd
for c in $COMMITS; do
  git worktree add -f "$work/wt-$c" "$c" >/dev/null 2>&1
  (cd "$work/wt-$c" && go build -o "$work/jobsd-$c" ./cmd/jobsd)
done
(cd "$work/wt-$BASE_COMMIT" && go build -C bench -o "$work/benchload" ./benchload)
file="$work/seed.ndjson"
"$work/jobsd-new" seed --n "$N" --out "$file"
builds="new $COMMITS"
for r in $(seq 1 "$ROUNDS"); do
  order="$builds"; [ $((r % 2)) = 0 ] && order="$(echo "$builds" | tr ' ' '\n' | tac | tr '\n' ' ')"
  for b in $order; do
    bin="$work/jobsd-$b"; db="jobsd_ab_$b"; dsn="${admin%/postgres\?*}/$db?sslmode=disable"
    psql "$admin" -XqAc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
    DATABASE_URL=$dsn "$bin" migrate --create-database >/dev/null 2>&1
    s=$(date +%s.%N); DATABASE_URL=$dsn "$bin" import "$file" >/dev/null 2>&1; e=$(date +%s.%N)
    imp=$(echo "$e - $s" | bc)
    psql "$dsn" -XqAc "VACUUM ANALYZE" >/dev/null
    key=$(DATABASE_URL=$dsn "$bin" apikey create --name ab --rate 1000000 --burst 1000000 2>/dev/null)
    help="$("$bin" serve -h 2>&1 || true)"; cache=""
    case "$help" in *-index-cache*) cache="--index-cache=" ;; esac # none saved: a cold start
    s=$(date +%s.%N)
    DATABASE_URL=$dsn "$bin" serve --addr "127.0.0.1:$PORT" --no-migrate --no-text-index --rate 1000000000 --burst 1000000000 $cache >"$work/serve-$b.log" 2>&1 &
    pid=$!
    until curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null; do sleep 0.05; done
    e=$(date +%s.%N)
    echo "ROUND $r $b import_s=$imp ready_s=$(echo "$e - $s" | bc)"
    "$work/benchload" -base "http://127.0.0.1:$PORT" -key "$key" -db "$dsn" -only "$ONLY" -duration "$DURATION" -rounds 1 -yardstick=false 2>&1 |
      grep -E "req/s|mismatch" | sed "s/^/R$r $b /"
    kill $pid; wait $pid 2>/dev/null || true
    psql "$admin" -XqAc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
  done
done
