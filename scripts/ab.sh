#!/usr/bin/env bash
# A rough A/B of jobsd builds on one machine, in one run: for each of
# COMMITS (and the working tree, "new"), in alternating order each round,
# a fresh database imported from one seed file (import seconds), a cold
# start to /readyz with no saved index (seconds), and bin/benchload's
# quiet list types and job by id (-only ONLY, DURATION each, REST and
# GraphQL; req/s and jobsd's processor time per request). The benchload
# of BASE_COMMIT (it need not be one of COMMITS) drives every build, so
# that the query mix is the same. Its default, 682c8aab, is the benchload
# the notes' A/B runs used: it has bench/ (432de8f's tree has none), and
# it derives only the values older builds' data has (the benchload of a
# later commit wants near keys, which builds before near do not write).
# At the end, a summary: each figure's median over the rounds, per build,
# and new's ratio to each commit's (import and ready: time, lower is
# better; req/s: higher is better).
# Usage: make bench AB="432de8f" (N=50000 ROUNDS=2 DURATION=4s), or
#        COMMITS="682c8aab 432de8f" N=50000 ROUNDS=2 scripts/ab.sh > ab.txt
set -euo pipefail
cd "$(dirname "$0")/.."
COMMITS="${COMMITS:-432de8f}"; BASE_COMMIT="${BASE_COMMIT:-682c8aab}"
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
# BASE_COMMIT may be none of COMMITS: its benchload only, not measured.
[ -d "$work/wt-$BASE_COMMIT" ] || git worktree add -f "$work/wt-$BASE_COMMIT" "$BASE_COMMIT" >/dev/null 2>&1
if [ ! -d "$work/wt-$BASE_COMMIT/bench/benchload" ]; then
  echo "ab: BASE_COMMIT $BASE_COMMIT has no bench/benchload to drive the builds; name a later one" >&2
  exit 1
fi
(cd "$work/wt-$BASE_COMMIT" && go build -C bench -o "$work/benchload" ./benchload)
file="$work/seed.ndjson"
"$work/jobsd-new" seed --n "$N" --out "$file"
builds="new $COMMITS"
raw="$work/raw"; : >"$raw"
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
    if curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then
      echo "ab: something already serves on port $PORT (a jobsd of an earlier run?); stop it, or set PORT" >&2
      exit 1
    fi
    s=$(date +%s.%N)
    DATABASE_URL=$dsn "$bin" serve --addr "127.0.0.1:$PORT" --no-migrate --no-text-index --rate 1000000000 --burst 1000000000 $cache >"$work/serve-$b.log" 2>&1 &
    pid=$!
    until curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null; do sleep 0.05; done
    e=$(date +%s.%N)
    echo "ROUND $r $b import_s=$imp ready_s=$(echo "$e - $s" | bc)" | tee -a "$raw"
    "$work/benchload" -base "http://127.0.0.1:$PORT" -key "$key" -db "$dsn" -only "$ONLY" -duration "$DURATION" -rounds 1 -yardstick=false 2>&1 |
      { grep -E "req/s|mismatch|ERROR|^benchload:" || true; } | sed "s/^/R$r $b /" | tee -a "$raw" ||
      true # benchload fails on mismatches (an older build's semantics): they are in the output
    kill $pid; wait $pid 2>/dev/null || true
    psql "$admin" -XqAc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
  done
done
echo
echo "SUMMARY: medians over $ROUNDS round(s); ratio = new / commit"
awk -v builds="$builds" '
  function median(key,   n, i, j, t, a) {
    n = split(vals[key], a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n == 0 ? "" : (n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2)
  }
  function add(b, m, v) { if (!(m in seen)) { seen[m] = 1; order[++nm] = m }; vals[b SUBSEP m] = vals[b SUBSEP m] " " v }
  /^ROUND / { split($4, i, "="); split($5, r, "="); add($3, "import s", i[2]); add($3, "ready s", r[2]); next }
  /^R[0-9]+ .* req\/s/ {
    b = $2; line = $0; sub(/^R[0-9]+ [^ ]+ /, "", line)
    if (match(line, / (REST|GraphQL) +[0-9.]+ req\/s/)) {
      name = substr(line, 1, RSTART - 1); sub(/ +$/, "", name)
      split(substr(line, RSTART + 1), f, " +"); add(b, name " " f[1] " req/s", f[2])
    }
  }
  END {
    nb = split(builds, bs, " ")
    printf "%-48s", "figure"; for (k = 1; k <= nb; k++) printf " %12s", bs[k]; for (k = 2; k <= nb; k++) printf " %12s", "new/" bs[k]; print ""
    for (x = 1; x <= nm; x++) {
      m = order[x]; printf "%-48s", m
      for (k = 1; k <= nb; k++) printf " %12s", median(bs[k] SUBSEP m)
      for (k = 2; k <= nb; k++) { a = median(bs[1] SUBSEP m); c = median(bs[k] SUBSEP m); printf " %12s", (c > 0 ? sprintf("%.2f", a / c) : "") }
      print ""
    }
  }' "$raw"
