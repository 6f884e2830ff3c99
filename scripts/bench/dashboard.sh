#!/usr/bin/env bash
# Benchmark: the dashboard's run view with 5,000 and 50,000 results, first render in headless Chromium
# (Performance API, navigation start → the view's rendered mark, median of several loads) against fetching
# the whole run's JSON alone (Tests/Browser/bench_run_view.py). Release build of `failscope serve` on a free
# loopback port with a temporary data folder. Prints one `BENCH|…` row a run size on stdout; everything else
# on stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

swift build -c release --product failscope >&2
bin=$(swift build -c release --show-bin-path)/failscope

work=$(mktemp -d "${TMPDIR:-/tmp}/failscope-bench-dashboard.XXXXXX")
token="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" serve --host 127.0.0.1 --port 0 --data "$work/data" --upload-token "$token" --web "$root/Web" \
    >"$work/serve.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 600); do  # up to 30 s
    port=$(sed -n 's#.*listening on http://127\.0\.0\.1:\([0-9]*\).*#\1#p' "$work/serve.log" | head -1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    read -r -t 0.05 <> <(:) || true   # a bounded pause between polls
done
[ -n "$port" ] || { cat "$work/serve.log" >&2; echo "dashboard bench: failscope serve did not start" >&2; exit 1; }

FAILSCOPE_BENCH_URL="http://127.0.0.1:$port" FAILSCOPE_BENCH_TOKEN="$token" \
    python3 Tests/Browser/bench_run_view.py
