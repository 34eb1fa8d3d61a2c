#!/usr/bin/env bash
# `make test`'s test run: finds or starts a PostgreSQL server (devdb.sh) and
# a Redis (devredis.sh), and runs every test against them with the race
# detector on. Tests create and drop their own databases.
set -euo pipefail
cd "$(dirname "$0")/.."
# The reference data beside the repository, when there is a copy.
if [ -z "${JOBSD_REFDATA:-}" ] && [ -d ../shared/data/locations ]; then
  JOBSD_REFDATA="$(cd ../shared/data && pwd)"
  export JOBSD_REFDATA
fi
# CI runs every test: those that need the reference data skip without it,
# so CI fails instead.
if [ -n "${CI:-}" ] && { [ -z "${JOBSD_REFDATA:-}" ] || [ ! -d "$JOBSD_REFDATA/locations" ]; }; then
  echo "test: CI runs the tests that need the reference data: set JOBSD_REFDATA, or put a copy at ../shared/data" >&2
  exit 2
fi
if [ -z "${JOBSD_TEST_DATABASE_URL:-}" ]; then
  JOBSD_TEST_DATABASE_URL="$(scripts/devdb.sh)"
  export JOBSD_TEST_DATABASE_URL
fi
if [ -z "${JOBSD_TEST_REDIS_URL:-}" ]; then
  JOBSD_TEST_REDIS_URL="$(scripts/devredis.sh)"
  export JOBSD_TEST_REDIS_URL
fi
echo "test: PostgreSQL at ${JOBSD_TEST_DATABASE_URL}, Redis at ${JOBSD_TEST_REDIS_URL}" >&2
# What the tests cache (the normalizer's compiled reference data, saved
# indexes) goes to a cache directory of this run, removed after it, not to
# the user's; Go's build cache stays where it is.
GOCACHE="$(go env GOCACHE)"
export GOCACHE
XDG_CACHE_HOME="$(mktemp -d "${TMPDIR:-/tmp}/jobsd-test-cache.XXXXXX")"
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
# gotestsum (a tool of go.mod) prints a line per package, the output of
# what failed, and at the end every skipped test with the reason it gave
# (Chromium or Node.js missing, …) and the totals.
gotestsum="$(go tool -n gotestsum)"
status=0
"$gotestsum" --format pkgname-and-test-fails --format-hide-empty-pkg -- -race -count=1 "$@" ./... || status=$?
# The benchmark and evaluation tools: a module of their own (bench/go.mod).
(cd bench && "$gotestsum" --format pkgname-and-test-fails --format-hide-empty-pkg -- -race -count=1 "$@" ./...) || status=$?
exit $status
