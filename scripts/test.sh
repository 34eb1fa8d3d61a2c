#!/usr/bin/env bash
# `make test`'s test run: finds or starts a PostgreSQL server (see devdb.sh)
# and runs every test, with the race detector, against it. Tests create and
# drop their own databases.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${JOBSD_TEST_DATABASE_URL:-}" ]; then
  JOBSD_TEST_DATABASE_URL="$(scripts/devdb.sh)"
  export JOBSD_TEST_DATABASE_URL
fi
echo "test: PostgreSQL at ${JOBSD_TEST_DATABASE_URL}" >&2
go test -race -count=1 "$@" ./...
