#!/usr/bin/env bash
# Prints the URL of a PostgreSQL server for development and tests, starting
# one when none answers:
#   1. the local server on 127.0.0.1:5432 (or $PGPORT), if it answers;
#   2. else a private cluster under .data/pg, made and started with the
#      installed PostgreSQL binaries (port $JOBSD_DEVDB_PORT, default 54329).
# It exits non-zero, saying what to install or set, when there is no
# PostgreSQL at all. Messages go to stderr; only the URL goes to stdout.
#
# JOBSD_DEVDB_PRIVATE=1 skips the local server (always the private
# cluster) and JOBSD_DEVDB_DIR names the cluster's folder (default
# .data/pg): make soak restarts a cluster of its own. `devdb.sh restart`
# and `devdb.sh stop` restart and stop the private cluster.
set -euo pipefail
cd "$(dirname "$0")/.."

action="${1:-start}"
user="${PGUSER:-postgres}"
port="${PGPORT:-5432}"
private_port="${JOBSD_DEVDB_PORT:-54329}"
data="$PWD/${JOBSD_DEVDB_DIR:-.data/pg}"
log="$data.log"
case "$action" in
  start | restart | stop) ;;
  *) echo "devdb: unknown action \"$action\" (start, restart or stop)" >&2; exit 2 ;;
esac

answers() { # host port
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$1" -p "$2" -t 2 >/dev/null 2>&1
  else
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
  fi
}

if [ "$action" = start ] && [ "${JOBSD_DEVDB_PRIVATE:-0}" != 1 ] && answers 127.0.0.1 "$port"; then
  echo "postgres://$user@127.0.0.1:$port/postgres?sslmode=disable"
  exit 0
fi
# A private cluster already running: this folder's (JOBSD_DEVDB_PRIVATE
# adopts no other server).
if [ "$action" = start ] && answers 127.0.0.1 "$private_port" &&
  { [ "${JOBSD_DEVDB_PRIVATE:-0}" != 1 ] || [ -f "$data/postmaster.pid" ]; }; then
  echo "postgres://postgres@127.0.0.1:$private_port/postgres?sslmode=disable"
  exit 0
fi

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
  bindir="$(pg_config --bindir)"
else
  for d in $(ls -d /usr/lib/postgresql/*/bin /usr/local/pgsql/bin /opt/homebrew/opt/postgresql*/bin /usr/local/opt/postgresql*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir="$d"; break; fi
  done
fi
if [ -z "$bindir" ]; then
  cat >&2 <<MSG
No PostgreSQL server answers on 127.0.0.1:$port, and no PostgreSQL binaries
(initdb, pg_ctl) are installed to start one.
Either install PostgreSQL (Debian/Ubuntu: apt-get install postgresql;
macOS: brew install postgresql), or set DATABASE_URL to a server you have.
MSG
  exit 1
fi

# PostgreSQL refuses to run as root: run the cluster as the postgres user.
as_owner=()
if [ "$(id -u)" = 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "devdb: running as root and there is no 'postgres' user to own the cluster" >&2
    exit 1
  fi
  as_owner=(runuser -u postgres --)
fi

if [ "$action" != start ]; then
  # -m fast: open sessions are ended, as a server restarting under load.
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -l "$log" -m fast -w -t 60 "$action" >/dev/null
  exit 0
fi
mkdir -p "$data" "$PWD/.data/run"
if [ "$(id -u)" = 0 ]; then chown postgres "$data" "$PWD/.data/run"; fi
if [ ! -f "$data/PG_VERSION" ]; then
  echo "devdb: creating a private PostgreSQL cluster in ${data#"$PWD"/} ($bindir)" >&2
  "${as_owner[@]}" "$bindir/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
fi
echo "devdb: starting the private cluster on 127.0.0.1:$private_port (log: ${log#"$PWD"/})" >&2
touch "$log"
if [ "$(id -u)" = 0 ]; then chown postgres "$log"; fi
"${as_owner[@]}" "$bindir/pg_ctl" -D "$data" -l "$log" -w -t 60 \
  -o "-p $private_port -c listen_addresses=127.0.0.1 -k $PWD/.data/run" start >/dev/null
echo "postgres://postgres@127.0.0.1:$private_port/postgres?sslmode=disable"
