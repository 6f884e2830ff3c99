#!/usr/bin/env bash
# PostgreSQL benchmarks (release build), rows `BENCH|measure|ours|reference|ratio|goal` on stdout, on a
# throwaway server (scripts/with-postgres.sh, or the one FAILSCOPE_TEST_POSTGRES_URL names).
#
# 1. Ingest: results/s through HTTP on loopback into PostgreSQL (`serve --database`, wrk, 4 connections,
#    unique batches of 100 results) versus raw inserts of the same rows into the same server (service-bench
#    raw --database: libpq prepared statements, one transaction per batch); medians of three alternating
#    rounds, each into a new database. Goal >= 0.5x.
# 2. Flaky queries: the flaky benchmark's generated store (BENCH_POSTGRES_FLAKY_RESULTS results, default
#    1,000,000; generated in SQLite, cached like scripts/bench/flaky.sh's) carried into PostgreSQL by
#    `failscope copy`, then GET pages and flaky?page= latencies there (flaky-bench measure --database).
#    BENCH_POSTGRES_FLAKY=0 leaves this part out (the copy of 1M results takes a while).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${FAILSCOPE_TEST_POSTGRES_URL:-}" ]; then exec scripts/with-postgres.sh "$0" "$@"; fi
DURATION=${BENCH_DURATION:-5}
SIZE=${BENCH_POSTGRES_FLAKY_RESULTS:-1000000}
QUERIES=${BENCH_FLAKY_QUERIES:-300}
swift build -c release --product failscope >&2
swift build -c release --product service-bench >&2
swift build -c release --product flaky-bench >&2
BIN=$(swift build -c release --show-bin-path)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
SERVER=$FAILSCOPE_TEST_POSTGRES_URL
# A new database on the server: prints its URI.
new_database() {
    psql "$SERVER" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" >/dev/null
    psql "$SERVER" -qc "CREATE DATABASE $1" >/dev/null
    python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' \
        "$SERVER" "$1"
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

http_ingest() { # round
    local url dir="$WORK/ingest-$1" reqs port=""
    url=$(new_database "bench_http_$1")
    "$BIN/failscope" serve --port 0 --data "$dir" --database "$url" --upload-token bench --threads 4 \
        2>"$WORK/serve.log" &
    SERVER_PID=$!
    for _ in $(seq 1 200); do
        port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)$|\1|p' "$WORK/serve.log" | head -1)
        [ -n "$port" ] && curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
        timeout 0.05 tail -f "$WORK/serve.log" >/dev/null 2>&1 || true
    done
    curl -sf -X PUT -H 'Authorization: Bearer bench' -H 'Content-Type: application/json' \
        -d '{"id":"ingest","project":"Bench","branch":"main","source":"reporter","startedAt":"2026-11-30T04:00:00Z"}' \
        "http://127.0.0.1:$port/api/v1/runs/ingest" >/dev/null
    BENCH_TOKEN=bench BENCH_RUN=ingest wrk -t4 -c4 -d"${DURATION}s" -s scripts/bench/service-ingest.lua \
        "http://127.0.0.1:$port" >"$WORK/wrk-ingest.txt" 2>&1
    cat "$WORK/wrk-ingest.txt" >&2
    reqs=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk-ingest.txt")
    kill "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
    echo "stored results: $(psql "$url" -Atc "SELECT result_count FROM runs WHERE id = 'ingest'")" >&2
    HTTP_RATE=$(awk -v r="$reqs" 'BEGIN { printf "%.0f", r * 100 }')
}
https=()
raws=()
for round in 1 2 3; do
    http_ingest "$round"
    https+=("$HTTP_RATE")
    raws+=("$("$BIN/service-bench" raw --data "$WORK/raw-$round" --database "$(new_database "bench_raw_$round")" --batches 300)")
done
echo "HTTP ingest into PostgreSQL: ${https[*]} results/s; raw inserts: ${raws[*]} results/s" >&2
OURS=$(median "${https[@]}")
RAW=$(median "${raws[@]}")
RATIO=$(awk -v a="$OURS" -v b="$RAW" 'BEGIN { printf "%.2f", a / b }')
echo "BENCH|PostgreSQL ingest results/s (HTTP, batches of 100, 4 clients)|$OURS|raw libpq inserts $RAW/s|$RATIO|>= 0.5"

[ "${BENCH_POSTGRES_FLAKY:-1}" = 0 ] && exit 0
KEY=$(cat Migrations/*/*.sql Benchmarks/flaky-bench/HistoryGenerator.swift | sha256sum | cut -c1-12)
dir=".build/bench-data/flaky-$SIZE-$KEY"
if [ ! -f "$dir/generated.json" ]; then
    echo "generating $SIZE results into $dir (cached for later runs)" >&2
    rm -rf "$dir.partial"
    "$BIN/flaky-bench" generate --data "$dir.partial" --results "$SIZE" >&2
    mv "$dir.partial" "$dir"
fi
url=$(new_database bench_flaky)
started=$(date +%s)
"$BIN/failscope" copy --from "sqlite:$dir/failscope.sqlite" --to "$url" >&2
copy_seconds=$(( $(date +%s) - started ))
echo "copied $SIZE results into PostgreSQL in $copy_seconds s" >&2
mapfile -t lines < <("$BIN/flaky-bench" measure --data "$dir" --database "$url" --queries "$QUERIES")
read -r p50 p95 f50 f95 n50 _ _ _ _ <<<"${lines[0]}"
echo "$SIZE results on PostgreSQL: pages p50 $p50 p95 $p95 ms; flaky?page= p50 $f50 p95 $f95 ms; naive page list p50 $n50 ms" >&2
echo "BENCH|failscope copy of $SIZE results (SQLite to PostgreSQL, summaries included), s|$copy_seconds|-|-|report"
echo "BENCH|PostgreSQL flaky: GET pages p95 ms, $SIZE results (p50 $p50)|$p95|naive scan p50 $n50 ms|-|p95 <= 50 ms"
echo "BENCH|PostgreSQL flaky: GET flaky?page= p95 ms, $SIZE results (p50 $f50)|$f95|-|-|p95 <= 50 ms"
