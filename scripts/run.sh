#!/usr/bin/env bash
# `make run`: a working jobsd on this machine. Uses $DATABASE_URL, or the
# local PostgreSQL server, or a private cluster under .data/pg; migrates;
# loads demo data when the database is empty; renormalizes the stored jobs
# when the vocabularies or reference data changed since they were written;
# prints the database URL, a demo API key and the URLs (the search page at
# /demo/ among them); then serves until
# interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."

jobsd=./bin/jobsd
# The reference data beside the repository, when there is a copy.
if [ -z "${JOBSD_REFDATA:-}" ] && [ -d ../shared/data/locations ]; then
  JOBSD_REFDATA="$(cd ../shared/data && pwd)"
  export JOBSD_REFDATA
fi
addr="${JOBSD_ADDR:-127.0.0.1:8080}"
if [ -z "${DATABASE_URL:-}" ]; then
  admin="$(scripts/devdb.sh)"
  export DATABASE_URL="${admin%/postgres\?*}/jobsd?sslmode=disable"
fi

"$jobsd" migrate --create-database
"$jobsd" seed --if-empty --lifecycle --n "${JOBSD_DEMO_JOBS:-5000}"
"$jobsd" renormalize --if-due
key="$("$jobsd" apikey create --name demo --replace 2>/dev/null)"

base="http://$addr"
cat <<MSG

  jobsd is starting on $base

  Database:      $DATABASE_URL
                 (export DATABASE_URL=… to run bin/jobsd's other commands against it)
  Demo API key:  $key
  Search page:   $base/demo/        (examples/web, sending the demo key: --demo is for local use)
  Playground:    $base/playground   (the key is already in its headers)
  Frontends:     pages on http://localhost:* and http://127.0.0.1:* may call the API (CORS);
                 JOBSD_CORS_ORIGINS=https://app.example.com make run allows others
  REST:          curl -H "x-api-key: $key" "$base/api/v1/jobs?skills=golang&city=SF"
  GraphQL:       curl -H "x-api-key: $key" -H 'content-type: application/json' \\
                   -d '{"query":"{ jobs(filter:{skills:[\"golang\"], city:\"SF\"}, first: 5) { totalCount edges { cursor node { id title company postedAt } } pageInfo { hasNextPage endCursor } } }"}' $base/graphql

MSG
exec "$jobsd" serve --addr "$addr" --playground-key "$key" --demo
