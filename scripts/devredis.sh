#!/usr/bin/env bash
# Prints the URL of a Redis for tests, starting one when none answers:
# the local server on 127.0.0.1:6379 if it answers, else a private one
# (no persistence) on $JOBSD_DEVREDIS_PORT (default 63799). It exits
# non-zero, saying what to install, when there is no Redis at all.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${JOBSD_DEVREDIS_PORT:-63799}"

answers() { # port
  if command -v redis-cli >/dev/null 2>&1; then
    [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = "PONG" ]
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

for p in 6379 "$port"; do
  if answers "$p"; then echo "redis://127.0.0.1:$p/15"; exit 0; fi
done
if ! command -v redis-server >/dev/null 2>&1; then
  echo "No Redis answers on 127.0.0.1:6379 and redis-server is not installed (Debian/Ubuntu: apt-get install redis-server)." >&2
  exit 1
fi
mkdir -p .data
echo "devredis: starting a private Redis on 127.0.0.1:$port" >&2
redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
  --dir "$PWD/.data" --logfile "$PWD/.data/redis.log" >/dev/null
for _ in $(seq 1 50); do answers "$port" && break; sleep 0.1; done
echo "redis://127.0.0.1:$port/15"
