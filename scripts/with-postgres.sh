#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL server: a fresh cluster in a temporary
# folder on 127.0.0.1, DATABASE_URL pointing at it, everything removed afterwards.
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]
set -euo pipefail
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$BIN" ] || { echo "PostgreSQL is not installed: run scripts/system-deps.sh" >&2; exit 1; }
DIR=$(mktemp -d /tmp/kwx-pg.XXXXXX)
PORT=${KWX_PG_PORT:-$(( 20000 + RANDOM % 20000 ))}
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
as_pg "$BIN/initdb" -D "$DIR/data" -A trust -U kwx -E UTF8 --no-sync >/dev/null
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
cleanup() { as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$DIR"; }
trap cleanup EXIT
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U kwx kwx
echo "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
DATABASE_URL="postgres://kwx@127.0.0.1:$PORT/kwx" "$@"
