#!/usr/bin/env bash
# Live runs: 200 sample UI tests (every tenth fails, with a screenshot) with the reporter uploading
# while they run, against a release `failscope serve` on a free loopback port; a poller asks the API
# every 100 ms. Prints p50 and p95 of the time from a failing test's end to its result and screenshot
# being readable through the API. Release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product reporter-bench >&2
swift build -c release --product failscope >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
"$bin/failscope" serve --host 127.0.0.1 --port 0 --data "$work/data" --upload-token live-bench 2>"$work/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's#.*listening on http://127\.0\.0\.1:\([0-9]*\).*#\1#p' "$work/serve.log" | head -1)
    [ -n "$port" ] && break
    read -r -t 0.1 <> <(:) || true
done
[ -n "$port" ] || { cat "$work/serve.log" >&2; exit 1; }
FAILSCOPE_DISABLED=1 "$bin/reporter-bench" live "http://127.0.0.1:$port" live-bench "${LIVE_BENCH_TESTS:-200}"
