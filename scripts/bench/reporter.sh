#!/usr/bin/env bash
# Reporter overhead: 1,000 passing sample UI tests with the observer on vs off (same process,
# alternating rounds), and the capture cost of one failure. Release build.
#
# The process runs on one CPU (taskset). swift-corelibs-xctest runs every setUp, test body and
# tearDown as a Task that the main thread awaits by spinning its run loop; on this 2-vCPU VM each
# hand-off to the other vCPU waits milliseconds for it to wake, so 1,000 tests take 2.6-5.6 s of wall
# time for 0.9 s of CPU, round to round, noise ten times larger than the effect measured. On one CPU
# the same tests take 0.55 s and wall time equals the CPU time of all threads: the spool writer's
# background work counts in full, so the ratio is an upper bound on what the reporter adds.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product reporter-bench >&2
FAILSCOPE_DISABLED=1 taskset -c "${REPORTER_BENCH_CPU:-1}" .build/release/reporter-bench "${REPORTER_BENCH_TESTS:-1000}"
