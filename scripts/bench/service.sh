#!/usr/bin/env bash
# Service benchmarks (release build), rows `BENCH|measure|ours|reference|ratio|goal` on stdout.
#
# 1. Ingest: results/s through HTTP on loopback (wrk, 4 connections, unique batches of 100 results)
#    versus raw SQLite inserts of the same rows, one transaction per batch (service-bench raw); medians of
#    three alternating rounds. Goal >= 0.5x.
#    Also the store's own ingest (no HTTP, no JSON) against the same reference, to show what HTTP adds.
# 2. Run page: GET /api/v1/runs/{id} for a run of 5,000 results, median latency over 1 connection (wrk --latency).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${BENCH_DURATION:-5}
swift build -c release --product failscope >&2
swift build -c release --product service-bench >&2
BIN=$(swift build -c release --show-bin-path)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

start_server() { # data-dir
    "$BIN/failscope" serve --port 0 --data "$1" --upload-token bench --threads 4 2>"$WORK/serve.log" &
    SERVER_PID=$!
    PORT=""
    for _ in $(seq 1 200); do
        PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/serve.log" | head -1)
        [ -n "$PORT" ] && curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && return 0
        # Bounded wait without sleep: block on the log file for up to 0.05 s.
        timeout 0.05 tail -f "$WORK/serve.log" >/dev/null 2>&1 || true
    done
    echo "server did not start" >&2; cat "$WORK/serve.log" >&2; exit 1
}
stop_server() {
    kill "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
}

# 1. Ingest. The rates swing with the machine (raw inserts 12-20k/s across runs here), so HTTP and the
# raw reference are measured in three alternating rounds, each on a fresh folder, and the medians are
# compared; the store's own rates below are medians of three too.
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
# http_ingest ROUND sets HTTP_RATE, the results/s through HTTP into a fresh data folder (called without a
# subshell, so the cleanup trap knows the server's pid).
http_ingest() {
    local dir="$WORK/ingest-$1" reqs
    start_server "$dir"
    curl -sf -X PUT -H 'Authorization: Bearer bench' -H 'Content-Type: application/json' \
        -d '{"id":"ingest","project":"Bench","branch":"main","source":"reporter","startedAt":"2026-11-30T04:00:00Z"}' \
        "http://127.0.0.1:$PORT/api/v1/runs/ingest" >/dev/null
    BENCH_TOKEN=bench BENCH_RUN=ingest wrk -t4 -c4 -d"${DURATION}s" -s scripts/bench/service-ingest.lua \
        "http://127.0.0.1:$PORT" >"$WORK/wrk-ingest.txt" 2>&1
    cat "$WORK/wrk-ingest.txt" >&2
    reqs=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk-ingest.txt")
    stop_server
    echo "stored results: $(sqlite3 "$dir/failscope.sqlite" "SELECT result_count FROM runs WHERE id = 'ingest'")" >&2
    HTTP_RATE=$(awk -v r="$reqs" 'BEGIN { printf "%.0f", r * 100 }')
}
median3() { # command...: runs it three times on fresh folders, prints the median, the three on stderr
    local values=()
    for round in 1 2 3; do
        rm -rf "$WORK/median"
        values+=("$("$@" --data "$WORK/median" --batches 300)")
    done
    echo "$* --batches 300: ${values[*]} results/s" >&2
    median "${values[@]}"
}
https=()
raws=()
for round in 1 2 3; do
    http_ingest "$round"
    https+=("$HTTP_RATE")
    rm -rf "$WORK/median"
    raws+=("$("$BIN/service-bench" raw --data "$WORK/median" --batches 300)")
done
echo "HTTP ingest: ${https[*]} results/s; raw inserts: ${raws[*]} results/s" >&2
OURS=$(median "${https[@]}")
RAW=$(median "${raws[@]}")
RATIO=$(awk -v a="$OURS" -v b="$RAW" 'BEGIN { printf "%.2f", a / b }')
echo "BENCH|service ingest results/s (HTTP, batches of 100, 4 clients)|$OURS|raw SQLite inserts $RAW/s|$RATIO|>= 0.5"
# Where the time goes: the store's ingest alone (validation, counters, flaky summaries), no HTTP or JSON.
STORE=$(median3 "$BIN/service-bench" store)
RATIO=$(awk -v a="$STORE" -v b="$RAW" 'BEGIN { printf "%.2f", a / b }')
echo "BENCH|service ingest results/s (FailscopeStore.addResults, no HTTP)|$STORE|raw SQLite inserts $RAW/s|$RATIO|report"
# The benchmark's results carry no device, like an import without --device; with one (a reporter on a
# simulator) they also keep per-device outcome, day and call-site rows.
DEVICE=$(median3 "$BIN/service-bench" store --device "iPhone 15")
RATIO=$(awk -v a="$DEVICE" -v b="$RAW" 'BEGIN { printf "%.2f", a / b }')
echo "BENCH|service ingest results/s (FailscopeStore.addResults, no HTTP, results on a device)|$DEVICE|raw SQLite inserts $RAW/s|$RATIO|report"

# 2. Run page of 5,000 results.
"$BIN/service-bench" seed --data "$WORK/page" --run page --results 5000
start_server "$WORK/page"
BYTES=$(curl -sf "http://127.0.0.1:$PORT/api/v1/runs/page" | wc -c)
echo "run page JSON: $BYTES bytes" >&2
wrk -t1 -c1 -d"${DURATION}s" --latency "http://127.0.0.1:$PORT/api/v1/runs/page" >"$WORK/wrk-page.txt" 2>&1
cat "$WORK/wrk-page.txt" >&2
MEDIAN=$(awk '$1 == "50%" { v = $2; if (v ~ /ms$/) { sub(/ms$/, "", v); print v } else if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else if (v ~ /s$/) { sub(/s$/, "", v); print v * 1000 } }' "$WORK/wrk-page.txt")
stop_server
echo "BENCH|service run page JSON, 5,000 results: median ms|$MEDIAN|-|-|report"
