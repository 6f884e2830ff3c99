#!/usr/bin/env bash
# Reporter overhead: 1,000 passing sample UI tests with the observer on vs off (same process,
# alternating rounds), and the capture cost of one failure. Release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product reporter-bench >&2
FAILSCOPE_DISABLED=1 .build/release/reporter-bench "${REPORTER_BENCH_TESTS:-1000}"
