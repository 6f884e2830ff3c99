#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server: FAILSCOPE_TEST_POSTGRES_URL is exported to it, and
# the server (a temporary data folder, a free loopback port, trust authentication, database `failscope`)
# is stopped and removed when the command ends, however it ends.
# With FAILSCOPE_TEST_POSTGRES_URL already set, runs the command against that server instead.
# Needs Debian's `postgresql` (initdb, pg_ctl). As root the server runs as the `postgres` user (it
# refuses to run as root); otherwise as the current user.
#   scripts/with-postgres.sh swift test --skip-build
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGUMENT...]" >&2; exit 64; }
if [ -n "${FAILSCOPE_TEST_POSTGRES_URL:-}" ]; then exec "$@"; fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "with-postgres: no PostgreSQL server (apt-get install postgresql)" >&2; exit 69; }
as=()
if [ "$(id -u)" -eq 0 ]; then as=(runuser -u postgres --); fi
dir=$(mktemp -d /tmp/failscope-pg.XXXXXX)
[ ${#as[@]} -eq 0 ] || chown postgres "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
"${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 69; }
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$dir/server.log" >&2; exit 69; }
"${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres failscope
export FAILSCOPE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/failscope?sslmode=disable"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') at $FAILSCOPE_TEST_POSTGRES_URL" >&2
"$@"
