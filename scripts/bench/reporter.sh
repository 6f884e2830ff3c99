#!/usr/bin/env bash
# Reporter overhead: 1,000 passing sample UI tests (through page objects) with the observer on vs off (same
# process, alternating rounds), and the capture cost of one failure. Release build.
#
# The process runs on one CPU (taskset). swift-corelibs-xctest runs every setUp, test body and
# tearDown as a Task that the main thread awaits by spinning its run loop; on this 2-vCPU VM each
# hand-off to the other vCPU waits milliseconds for it to wake, so 1,000 tests take 2.6-5.6 s of wall
# time for 0.9 s of CPU, round to round, noise ten times larger than the effect measured. On one CPU
# the same tests take 0.55 s and wall time equals the CPU time of all threads: the spool writer's
# background work counts in full, so the ratio is an upper bound on what the reporter adds.
#
# When valgrind is installed (REPORTER_BENCH_CALLGRIND=0 skips it, 1 requires it) two rows follow that do not
# depend on the machine's load: the instructions a passing test executes with the reporter on against off, and
# on against on without the action trace's element trees, all threads, counted by callgrind over N and 2N tests
# so that start-up cancels out: per test (I(2N) - I(N)) / N, N = REPORTER_BENCH_CALLGRIND_TESTS (default 100).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product reporter-bench >&2
bench=.build/release/reporter-bench
FAILSCOPE_DISABLED=1 taskset -c "${REPORTER_BENCH_CPU:-1}" "$bench" "${REPORTER_BENCH_TESTS:-1000}"

callgrind=${REPORTER_BENCH_CALLGRIND:-auto}
if [ "$callgrind" = auto ]; then callgrind=0; command -v valgrind >/dev/null && callgrind=1; fi
if [ "$callgrind" = 1 ]; then
    n=${REPORTER_BENCH_CALLGRIND_TESTS:-100}
    work=$(mktemp -d "${TMPDIR:-/tmp}/failscope-bench-callgrind.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    # Without its debug information: Debian 12's valgrind 3.19 cannot read the DWARF 5 that Swift 6 writes.
    strip -g -o "$work/reporter-bench" "$bench"
    count() { # mode tests → instructions of the whole process, every thread
        FAILSCOPE_DISABLED=1 valgrind --tool=callgrind --callgrind-out-file="$work/out.$1.$2" "$work/reporter-bench" \
            instructions "$1" "$2" \
            >/dev/null 2>"$work/log.$1.$2"
        sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$work/out.$1.$2" | head -1
    }
    off1=$(count off "$n"); off2=$(count off $((2 * n)))
    on1=$(count on "$n"); on2=$(count on $((2 * n)))
    un1=$(count untraced "$n"); un2=$(count untraced $((2 * n)))
    python3 - "$n" "$off1" "$off2" "$on1" "$on2" "$un1" "$un2" <<'PY'
import sys
n, off1, off2, on1, on2, un1, un2 = (int(v) for v in sys.argv[1:])
off, on, untraced = (off2 - off1) / n, (on2 - on1) / n, (un2 - un1) / n
print('BENCH|passing test, reporter on vs off, instructions per test (callgrind, all threads, %d vs %d tests)|%.0f|%.0f off|%.3fx|<= 1.02x'
      % (2 * n, n, on, off, on / off))
print('BENCH|same, the action trace alone: reporter on vs on without element trees|%.0f|%.0f untraced|%.3fx|report'
      % (on, untraced, on / untraced))
PY
fi
