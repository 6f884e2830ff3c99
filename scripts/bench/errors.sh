#!/usr/bin/env bash
# Unique errors and run comparison benchmark (release build): rows `BENCH|measure|ours|reference|ratio|goal`.
#
# Uses the 1M-result store of scripts/bench/flaky.sh (the same generator and cache key; generated here when
# absent), then `flaky-bench errors` times, in process (store queries + JSON encoding, as the handlers
# answer them), GET /api/v1/errors?project=Shop&days=14, GET /api/v1/runs/{id}/errors and
# GET /api/v1/runs/{id}/compare (cycling over main's newest failed runs), BENCH_ERRORS_QUERIES times each
# (default 100): on the SQLite store, then on a PostgreSQL copy of it (`failscope copy`, a throwaway server of
# scripts/with-postgres.sh). Goal: p95 <= 50 ms at 1M results on both engines. Reference: the same
# measure on the other engine.
set -euo pipefail
cd "$(dirname "$0")/../.."
QUERIES=${BENCH_ERRORS_QUERIES:-100}
swift build -c release --product flaky-bench >&2
swift build -c release --product failscope >&2
BIN=$(swift build -c release --show-bin-path)
KEY=$(cat Migrations/*/*.sql Benchmarks/flaky-bench/HistoryGenerator.swift | sha256sum | cut -c1-12)
dir=.build/bench-data/flaky-1000000-$KEY
if [ ! -f "$dir/generated.json" ]; then
    rm -rf "$dir" "$dir.partial"
    mkdir -p .build/bench-data
    echo "generating 1000000 results into $dir (cached for later runs)" >&2
    "$BIN/flaky-bench" generate --data "$dir.partial" --results 1000000 >&2
    mv "$dir.partial" "$dir"
fi
read -r e50 e95 r50 r95 c50 c95 listed < <("$BIN/flaky-bench" errors --data "$dir" --queries "$QUERIES")
echo "SQLite: errors p50 $e50 p95 $e95 ms ($listed errors); run errors p50 $r50 p95 $r95 ms; compare p50 $c50 p95 $c95 ms" >&2
# shellcheck disable=SC2016
pg=$(scripts/with-postgres.sh bash -c '"$1" copy --from "sqlite:$2/failscope.sqlite" --to "$FAILSCOPE_TEST_POSTGRES_URL" >&2 &&
    "$3" errors --data "$2" --database "$FAILSCOPE_TEST_POSTGRES_URL" --queries "$4"' _ "$BIN/failscope" "$dir" \
    "$BIN/flaky-bench" "$QUERIES")
read -r pe50 pe95 pr50 pr95 pc50 pc95 plisted <<<"$pg"
echo "PostgreSQL: errors p50 $pe50 p95 $pe95 ms ($plisted errors); run errors p50 $pr50 p95 $pr95 ms; compare p50 $pc50 p95 $pc95 ms" >&2
ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
echo "BENCH|errors: GET errors p95 ms, 1M results, SQLite (p50 $e50)|$e95|PostgreSQL $pe95 ms|$(ratio "$e95" "$pe95")|p95 <= 50 ms"
echo "BENCH|errors: GET errors p95 ms, 1M results, PostgreSQL (p50 $pe50)|$pe95|SQLite $e95 ms|$(ratio "$pe95" "$e95")|p95 <= 50 ms"
echo "BENCH|errors: GET runs/{id}/errors p95 ms, 1M, SQLite (p50 $r50)|$r95|PostgreSQL $pr95 ms|$(ratio "$r95" "$pr95")|p95 <= 50 ms"
echo "BENCH|errors: GET runs/{id}/errors p95 ms, 1M, PostgreSQL (p50 $pr50)|$pr95|SQLite $r95 ms|$(ratio "$pr95" "$r95")|p95 <= 50 ms"
echo "BENCH|errors: GET runs/{id}/compare p95 ms, 1M, SQLite (p50 $c50)|$c95|PostgreSQL $pc95 ms|$(ratio "$c95" "$pc95")|p95 <= 50 ms"
echo "BENCH|errors: GET runs/{id}/compare p95 ms, 1M, PostgreSQL (p50 $pc50)|$pc95|SQLite $c95 ms|$(ratio "$pc95" "$c95")|p95 <= 50 ms"
