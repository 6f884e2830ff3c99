#!/usr/bin/env bash
# `failscope import --dry-run` on two generated JUnit reports, versus Python's streaming
# xml.etree.ElementTree.iterparse (clearing elements as it goes) counting the same tests and failures.
#   huge: one test case with a SIZE_MB (default 256) <system-out> CDATA, then 5,000 cases (the shape of
#         jenkinsci/junit-plugin#467);
#   many: CASES (default 200,000) test cases, 1 in 50 failing with a location, 1 in 100 retried.
# Release build; wall seconds and peak RSS (GNU time) are medians over RUNS (default 3) runs.
# Prints `BENCH|measure|ours|reference|ratio|goal` rows on stdout; everything else on stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
SIZE_MB=${SIZE_MB:-256}
CASES=${CASES:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product failscope >&2
bin=$(swift build -c release --show-bin-path)/failscope

python3 - "$work/huge.xml" "$SIZE_MB" "$work/many.xml" "$CASES" <<'PY'
import random, string, sys
huge, size_mb, many, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
random.seed(7)
line = ''.join(random.choice(string.ascii_letters + string.digits + '+/') for _ in range(76)) + '\n'
block = line * (1024 * 1024 // len(line) + 1)
with open(huge, 'w') as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="SoakUITests" tests="5001" failures="1">\n')
    f.write('  <testcase name="testLongSoak" classname="SoakUITests" time="171.075">\n    <system-out><![CDATA[')
    for _ in range(size_mb):
        f.write(block[:1024 * 1024])
    f.write(']]></system-out>\n  </testcase>\n')
    for i in range(5000):
        if i == 2500:
            f.write(f'  <testcase name="testScreen{i}" classname="SoakUITests" time="0.5"><failure message="XCTAssertTrue failed">SoakUITests.swift:{i}</failure></testcase>\n')
        else:
            f.write(f'  <testcase name="testScreen{i}" classname="SoakUITests" time="0.5"/>\n')
    f.write('</testsuite>\n')
with open(many, 'w') as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n')
    for suite in range(cases // 100):
        f.write(f'<testsuite name="Suite{suite}Tests">\n')
        for case in range(100):
            name = f'test{case}()'
            attrs = f'classname="App.Suite{suite}Tests" name="{name}" time="0,{case:03d}"'
            if case % 50 == 7:
                f.write(f'<testcase {attrs}><failure message="Suite{suite}Tests.swift:{case + 10}: XCTAssertEqual failed: (&quot;1&quot;) is not equal to (&quot;2&quot;)"/></testcase>\n')
            elif case % 100 == 3:
                f.write(f'<testcase {attrs}><failure message="flaky"/></testcase>\n<testcase {attrs}/>\n')
            else:
                f.write(f'<testcase {attrs}/>\n')
        f.write('</testsuite>\n')
    f.write('</testsuites>\n')
PY

cat >"$work/iterparse.py" <<'PY'
import sys, xml.etree.ElementTree as ET
tests = failures = 0
for event, element in ET.iterparse(sys.argv[1], events=("end",)):
    if element.tag == "testcase":
        tests += 1
        if element.find("failure") is not None or element.find("error") is not None:
            failures += 1
        element.clear()
print(f"{tests} testcase elements, {failures} failing")
PY

# measure NAME COMMAND...: prints "seconds kilobytes" medians over RUNS runs; the last output to stderr.
measure() {
    local name=$1
    shift
    local times=() rss=()
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
        read -r seconds kilobytes <"$work/time.txt"
        times+=("$seconds")
        rss+=("$kilobytes")
    done
    head -3 "$work/$name.out" >&2
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%s ", a[int((NR+1)/2)]}'
    printf '%s\n' "${rss[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

for shape in huge many; do
    file="$work/$shape.xml"
    megabytes=$(($(stat -c %s "$file") >> 20))
    read -r ours_s ours_kb < <(measure "ours-$shape" "$bin" import --project bench --dry-run "$file")
    read -r ref_s ref_kb < <(measure "ref-$shape" python3 "$work/iterparse.py" "$file")
    grep -q "tests" "$work/ours-$shape.out" || { cat "$work/ours-$shape.err" >&2; exit 1; }
    if [ "$shape" = huge ]; then label="${megabytes} MB JUnit, one huge system-out"; else label="${megabytes} MB JUnit, $CASES test cases"; fi
    if [ "$shape" = huge ]; then
        time_goal="<= 1"
        rss_goal="ours < 64 MB whatever the size"
    else
        # The reference only counts; ours keeps every result (about 1 KB each) to upload it.
        time_goal="<= 3"
        rss_goal="ours < 1 KB per test case"
    fi
    echo "BENCH|import --dry-run $label (s)|$ours_s|python iterparse $ref_s|$(ratio "$ours_s" "$ref_s")|$time_goal"
    echo "BENCH|import --dry-run $label, peak RSS (MB)|$((ours_kb / 1024))|python iterparse $((ref_kb / 1024))|$(ratio "$ours_kb" "$ref_kb")|$rss_goal"
done
