#!/usr/bin/env bash
# `make bench`: the throughput benchmark of issue 5. Loads N generated
# postings (default 200,000) into the database jobsd_bench_$N, starts jobsd
# cold, drives the query mix through REST and GraphQL with bin/benchload
# (CONNECTIONS closed-loop connections, DURATION per query and transport),
# checks sampled totals against SQL and the cost of deep cursor pages, and
# writes the results into docs/bench-results.md between markers (the
# method and the design stay in docs/benchmarks.md, written by hand).
#
# The database is reused when it holds exactly N jobs loaded from the
# current seed generator and migrations (a fingerprint kept in its table
# jobsd_bench); BENCH_RELOAD=1 forces a fresh load.
#
# Then the live scenario (BENCH_LIVE=0 skips it): on a copy of that
# database (CREATE DATABASE … TEMPLATE, dropped afterwards, so that its
# writes never reach the data the quiet figures are measured on), a fresh
# jobsd serves the list mix quiet and then while `bin/jobsd import` lands
# a 50-posting import every 3 s and one snapshot closing 1,000 of a
# 10,000-posting source, BENCH_LIVE_DURATION (60s) per phase; bin/benchload
# -live writes its own section of docs/bench-results.md. BENCH_QUIET=0
# skips the quiet benchmark (the live scenario alone).
#
# Then the subscriptions scenario (BENCH_SUBS=0 skips it), on the same
# copy: a fresh jobsd with BENCH_SUBS_N (10,000) subscriptions of distinct
# filters open over WebSockets, the list mix without and with them, then
# 50 new postings a second for BENCH_SUBS_DURATION (60s), every event
# checked against a jobs query of its filter and timed from its import's
# end; bin/benchload -subs writes its own section. Then the same with
# BENCH_SUBS_SOCKETS (2,000) sockets of one subscription each, as browser
# tabs open them, for BENCH_SUBS_SOCKETS_DURATION (20s), in a section of
# its own: its memory per idle subscription is one with its socket
# (BENCH_SUBS_SOCKETS=0 skips it). BENCH_LOAD_ONLY=1
# loads (or checks) the database and stops: the slow load can then run
# while the machine is busy, and the measured part later on an idle one.
#
# Last, the churn scenario (BENCH_CHURN=0 skips it), on a fresh copy of the
# loaded data: a fresh jobsd serves the list mix on 4 connections while one
# import writes a tenth of the postings again with new content and closes
# a twentieth by tombstones; bin/benchload -churn reads jobsd's peak
# resident memory (VmHWM, reset when the import starts) and its settled
# memory BENCH_CHURN_SETTLE (60s) after it absorbed the import, checks its
# total against SQL, and writes its own section (targets at N=1,000,000:
# peak ≤ 600 MiB, settled ≤ 400 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
N="${N:-200000}"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-16}"
PORT="${BENCH_PORT:-18766}"
QUIET="${BENCH_QUIET:-1}"
LIVE="${BENCH_LIVE:-1}"
LIVE_DURATION="${BENCH_LIVE_DURATION:-60s}"
LOAD_ONLY="${BENCH_LOAD_ONLY:-0}"
SUBS="${BENCH_SUBS:-1}"
SUBS_N="${BENCH_SUBS_N:-10000}"
SUBS_DURATION="${BENCH_SUBS_DURATION:-60s}"
SUBS_SOCKETS="${BENCH_SUBS_SOCKETS:-2000}"
SUBS_SOCKETS_DURATION="${BENCH_SUBS_SOCKETS_DURATION:-20s}"
CHURN="${BENCH_CHURN:-1}"
CHURN_SETTLE="${BENCH_CHURN_SETTLE:-60s}"
for knob in "BENCH_QUIET=$QUIET" "BENCH_LIVE=$LIVE" "BENCH_LOAD_ONLY=$LOAD_ONLY" "BENCH_SUBS=$SUBS" "BENCH_CHURN=$CHURN"; do
  case "${knob#*=}" in
    0 | 1) ;;
    *) echo "bench: ${knob%%=*} is 0 or 1, not \"${knob#*=}\"" >&2; exit 2 ;;
  esac
done
case "$SUBS_SOCKETS" in
  '' | *[!0-9]*) echo "bench: BENCH_SUBS_SOCKETS is a number of sockets (0 skips the run), not \"$SUBS_SOCKETS\"" >&2; exit 2 ;;
esac
if [ "$QUIET$LIVE$LOAD_ONLY$SUBS$CHURN" = 00000 ]; then
  echo "bench: BENCH_QUIET=0, BENCH_LIVE=0, BENCH_SUBS=0 and BENCH_CHURN=0: nothing to run" >&2
  exit 2
fi
READY_TIMEOUT="${BENCH_READY_TIMEOUT:-900}" # seconds
OUT="${BENCH_OUT:-docs/bench-results.md}"
work=.data/bench
# BENCH_TEXT_INDEX=0 leaves descriptions unindexed for keyword search (no
# query of the mix searches them) and serve's background indexer off: at a
# million jobs `jobsd textindex` takes over an hour on 2 CPUs.
text_index="${BENCH_TEXT_INDEX:-1}"
case "$text_index" in
  1) no_text_index="" ;;
  0) no_text_index="--no-text-index" ;;
  *) echo "bench: BENCH_TEXT_INDEX is 0 or 1, not \"$text_index\"" >&2; exit 2 ;;
esac
mkdir -p "$work" docs

# The reference data beside the repository, when there is a copy (as make run).
if [ -z "${JOBSD_REFDATA:-}" ] && [ -d ../shared/data/locations ]; then
  JOBSD_REFDATA="$(cd ../shared/data && pwd)"
  export JOBSD_REFDATA
fi

echo "bench: building bin/jobsd and bin/benchload"
go build -o bin/jobsd ./cmd/jobsd
# The tools are a module of their own (bench/go.mod); -o is relative to bench/.
go build -C bench -o ../bin/benchload ./benchload

admin="$(scripts/devdb.sh)"
name="jobsd_bench_$N"
export DATABASE_URL="${admin%/postgres\?*}/$name?sslmode=disable"

# What the loaded data depends on: N, the generator and the schema, and
# whether reference data normalized it.
generator="$(git log -1 --format=%H -- seed/ migrations/)"
if ! git diff --quiet HEAD -- seed/ migrations/; then
  generator="$generator+$(git diff HEAD -- seed/ migrations/ | sha1sum | cut -c1-12)"
fi
fingerprint="n=$N generator=$generator refdata=${JOBSD_REFDATA:+yes}"
stored="$(psql "$DATABASE_URL" -XAtqc "SELECT value FROM jobsd_bench WHERE name = 'fingerprint'" 2>/dev/null || true)"
count="$(psql "$DATABASE_URL" -XAtqc "SELECT count(*) FROM jobs" 2>/dev/null || true)"

if [ "${BENCH_RELOAD:-}" != 1 ] && [ "$stored" = "$fingerprint" ] && [ "$count" = "$N" ]; then
  import_note="$(psql "$DATABASE_URL" -XAtqc "SELECT value FROM jobsd_bench WHERE name = 'import'")"
  echo "bench: reusing $name ($N jobs, $fingerprint); its import: $import_note"
  ./bin/jobsd migrate >/dev/null
  # Normalized again when the rules or vocabularies changed since (the
  # keys a newer jobsd filters by).
  ./bin/jobsd renormalize --if-due
  if [ "$text_index" = 1 ]; then ./bin/jobsd textindex; fi
else
  echo "bench: loading $N postings into $name"
  psql "$admin" -XqAc "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null
  ./bin/jobsd migrate --create-database >/dev/null
  file="$work/jobs-$N.ndjson"
  ./bin/jobsd seed --n "$N" --out "$file"
  echo "bench: seed file $(du -h "$file" | cut -f1); importing"
  /usr/bin/time -v ./bin/jobsd import "$file" 2>"$work/import.time" >"$work/import.out" || {
    cat "$work/import.out" "$work/import.time" >&2
    exit 1
  }
  rm -f "$file"
  wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/import.time")"
  maxrss="$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/import.time")"
  seconds="$(awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' <<<"$wall")"
  import_note="$(awk -v n="$N" -v s="$seconds" -v r="$maxrss" -v c="$(git rev-parse --short HEAD)" -v d="$(date -u +%F)" \
    'BEGIN { printf "%.1f s, %.0f jobs/s, importer peak RSS %.0f MiB (loaded %s at %s)", s, n / s, r / 1024, d, c }')"
  echo "bench: import took $import_note"
  # Descriptions for keyword search, so that serve's background indexer
  # does not share the CPUs with the measured load.
  if [ "$text_index" = 1 ]; then ./bin/jobsd textindex; fi
  echo "bench: VACUUM ANALYZE"
  psql "$DATABASE_URL" -XqAc "VACUUM ANALYZE" >/dev/null
  psql "$DATABASE_URL" -XqAv fp="$fingerprint" -v note="$import_note" >/dev/null <<'SQL'
CREATE TABLE jobsd_bench (name text PRIMARY KEY, value text NOT NULL);
INSERT INTO jobsd_bench VALUES ('fingerprint', :'fp'), ('import', :'note'), ('loaded_at', now()::text);
SQL
fi

if [ "$LOAD_ONLY" = 1 ]; then
  echo "bench: $name is loaded; BENCH_LOAD_ONLY=1 stops before the benchmark"
  exit 0
fi

key="$(./bin/jobsd apikey create --name "bench-$$" 2>/dev/null)"
bench_url="$DATABASE_URL"
server=""
live_db=""
stop_server() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; fi
  server=""
}
cleanup() {
  stop_server
  DATABASE_URL="$bench_url" ./bin/jobsd apikey revoke "bench-$$" >/dev/null 2>&1 || true
  if [ -n "$live_db" ]; then psql "$admin" -XqAc "DROP DATABASE IF EXISTS $live_db WITH (FORCE)" >/dev/null 2>&1 || true; fi
  if [ -n "${index_cache:-}" ]; then rm -rf "$index_cache"; fi # 160 MB a saved index at 1M
}
trap cleanup EXIT

base="http://127.0.0.1:$PORT"
# serve's saved indexes go to a folder of the benchmark's own, emptied
# before the quiet run: its first start always builds (cold), and the
# restart after it loads what that start saved.
index_cache="$work/index-cache"
# start_serve LOG CACHE: jobsd serve on $DATABASE_URL, with the rate limit
# far above what the load can reach, the request log to LOG (one line a
# request) and CACHE as its --index-cache ("": none); sets server, ready
# and ready_ns (how long it took to answer /readyz).
start_serve() {
  local log="$1" cache="$2" started
  # shellcheck disable=SC2086 # extra_serve_flags is words
  ./bin/jobsd serve --addr "127.0.0.1:$PORT" --no-migrate --index-cache "$cache" --rate 1000000000 --burst 1000000000 ${no_text_index:+"$no_text_index"} ${extra_serve_flags:-} 2>"$log" >/dev/null &
  server=$!
  echo "bench: waiting for $base/readyz"
  started=$(date +%s%N)
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz" || true)" = 200 ]; do
    if ! kill -0 "$server" 2>/dev/null; then
      echo "bench: jobsd exited; its log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    if [ $(($(date +%s%N) - started)) -gt $((READY_TIMEOUT * 1000000000)) ]; then
      echo "bench: jobsd not ready after ${READY_TIMEOUT}s (BENCH_READY_TIMEOUT); its log: $log" >&2
      exit 1
    fi
    sleep 0.2
  done
  ready_ns=$(($(date +%s%N) - started))
  ready="$(awk -v ns="$ready_ns" 'BEGIN { printf "%.1f s", ns / 1e9 }')"
  echo "bench: ready after $ready"
}

# wait_log LOG TEXT FAILURE: wait until serve's LOG holds TEXT; fail at
# once when it holds FAILURE instead or serve has exited, and after
# READY_TIMEOUT.
wait_log() {
  local started
  started=$(date +%s%N)
  until grep -qF "$2" "$1"; do
    if grep -qF "$3" "$1" || ! kill -0 "$server" 2>/dev/null; then
      echo "bench: $1 does not say $2; its end:" >&2
      tail -n 5 "$1" >&2
      exit 1
    fi
    if [ $(($(date +%s%N) - started)) -gt $((READY_TIMEOUT * 1000000000)) ]; then
      echo "bench: no $2 in $1 after ${READY_TIMEOUT}s" >&2
      exit 1
    fi
    sleep 0.2
  done
}

commit="$(git rev-parse --short HEAD)"
# Dirty: uncommitted changes to tracked files other than the results file.
if [ -n "$(git status --porcelain --untracked-files=no -- . ":(exclude)$OUT")" ]; then commit="$commit-dirty"; fi
# A failed quiet benchmark (an error or an answer that differs from SQL)
# still lets the live scenario run; the script then fails. A start-up that
# does not go as below (build and save, then load) fails it at once.
quiet_status=0
if [ "$QUIET" = 1 ]; then
  rm -rf "$index_cache"
  start_serve "$work/jobsd.log" "$index_cache"
  cold="$ready"
  # Start-up: the cold start saves the index it built, in the background;
  # a restart loads it. The load below runs on the restarted jobsd.
  wait_log "$work/jobsd.log" '"msg":"index saved"' '"msg":"the index is not saved'
  stop_server
  start_serve "$work/jobsd-restart.log" "$index_cache"
  restarted="$ready"
  wait_log "$work/jobsd-restart.log" '"msg":"index ready from the saved one"' '"msg":"index built"'
  restart_target=""
  if [ "$N" -ge 1000000 ]; then
    if [ "$ready_ns" -le 10000000000 ]; then restart_target=" (target at N=1,000,000 ≤ 10 s: met)"; else
      restart_target=" (target at N=1,000,000 ≤ 10 s: missed)"; fi
  fi
  ready="$cold, building its index; the load below ran on a restart, which loaded the index that start had saved and was ready after $restarted$restart_target"
  ./bin/benchload -base "$base" -key "$key" -db "$DATABASE_URL" -n "$N" \
    -connections "$CONNECTIONS" -duration "$DURATION" \
    -commit "$commit" -import "$import_note${no_text_index:+; descriptions not indexed for keyword search, serve run with --no-text-index (BENCH_TEXT_INDEX=0)}" -ready "$ready" -out "$OUT" ||
    quiet_status=$?
fi

if [ "$LIVE$SUBS$CHURN" = 000 ]; then exit "$quiet_status"; fi

# The live and subscriptions scenarios write: they run on a copy, which the
# template must have no sessions for while it is made (jobsd stopped,
# benchload done). When the quiet benchmark ran, the copy is of the data it
# measured.
live_db="${name}_live"
# fresh_copy: jobsd stopped, $live_db made anew as a copy of $name and
# DATABASE_URL pointed at it; copied says how long the copy took.
fresh_copy() {
  stop_server
  export DATABASE_URL="$bench_url"
  psql "$admin" -XqAc "DROP DATABASE IF EXISTS $live_db WITH (FORCE)" >/dev/null
  local started
  started=$(date +%s%N)
  psql "$admin" -XqAc "CREATE DATABASE $live_db TEMPLATE $name" >/dev/null
  copied="$(awk -v ns="$(($(date +%s%N) - started))" 'BEGIN { printf "%.1f s", ns / 1e9 }')"
  export DATABASE_URL="${admin%/postgres\?*}/$live_db?sslmode=disable"
}
status="$quiet_status"
if [ "$LIVE$SUBS" != 00 ]; then
  echo "bench: live scenarios on $live_db, a copy of $name"
  fresh_copy
fi
if [ "$LIVE" = 1 ]; then
  start_serve "$work/jobsd-live.log" "" # builds: the copy is another database; nothing saved while measuring
  ./bin/benchload -live -base "$base" -key "$key" -db "$DATABASE_URL" -n "$N" -jobsd bin/jobsd \
    -connections "$CONNECTIONS" -live-duration "$LIVE_DURATION" -commit "$commit" -out "$OUT" \
    -live-database "\`$live_db\`, a copy of \`$name\` made with CREATE DATABASE … TEMPLATE in $copied before the scenario and dropped after it (the quiet figures' data is never written to); jobsd started cold on it (ready after $ready)" ||
    status=$?
  stop_server
fi
# run_subs N PER_SOCKET DURATION LOG WHERE: the subscriptions scenario on a
# fresh jobsd, N subscriptions, PER_SOCKET a socket, postings landing for
# DURATION; WHERE says what the copy has been through.
run_subs() {
  # One key holds every subscription: the per-key bound raised above them.
  extra_serve_flags="--max-subscriptions-per-key $(($1 + 100))"
  start_serve "$work/$4" ""
  ./bin/benchload -subs -subs-per-socket "$2" -base "$base" -key "$key" -db "$DATABASE_URL" -n "$N" -jobsd bin/jobsd \
    -connections "$CONNECTIONS" -subs-n "$1" -subs-duration "$3" -commit "$commit" -out "$OUT" \
    -subs-database "\`$live_db\` (the same copy$5); jobsd started cold on it (ready after $ready)" ||
    status=$?
  stop_server
  extra_serve_flags=""
}
if [ "$SUBS" = 1 ]; then
  after_live=""
  if [ "$LIVE" = 1 ]; then after_live=", after the live scenario"; fi
  run_subs "$SUBS_N" 100 "$SUBS_DURATION" jobsd-subs.log "$after_live"
  if [ "$SUBS_SOCKETS" -gt 0 ]; then
    run_subs "$SUBS_SOCKETS" 1 "$SUBS_SOCKETS_DURATION" jobsd-subs-sockets.log ", after the scenario with $SUBS_N"
  fi
fi
if [ "$CHURN" = 1 ]; then
  # A fresh copy: the churn replaces and closes the loaded postings, as a
  # crawl of the loaded boards would, and its memory target is at N.
  echo "bench: churn scenario on $live_db, a fresh copy of $name"
  fresh_copy
  start_serve "$work/jobsd-churn.log" ""
  ./bin/benchload -churn -churn-pid "$server" -churn-settle "$CHURN_SETTLE" -base "$base" -key "$key" -db "$DATABASE_URL" -n "$N" \
    -jobsd bin/jobsd -commit "$commit" -out "$OUT" \
    -churn-database "\`$live_db\`, a fresh copy of \`$name\` (CREATE DATABASE … TEMPLATE, $copied), dropped after it; jobsd started cold on it (ready after $ready), without a saved index${no_text_index:+ or keyword indexing}" ||
    status=$?
  stop_server
fi
exit "$status"
