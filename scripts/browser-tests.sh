#!/usr/bin/env bash
# Browser tests of the dashboard (Web/): builds, starts `failscope serve` on a free loopback port with
# a temporary data folder and a read token, seeds it with the sample UI suite through the reporter (twice, with faults
# on, on two devices and branches) plus API-posted runs (hostile strings, a large run), then runs
# Tests/Browser/dashboard_tests.py in headless Chromium. PNGs of every view go to test-output/browser/.
# Prints `N passed, M failed` last; exits non-zero on any failure. Stops the server it started.
#
# Needs: chromium, chromium-driver (Debian), python3 with selenium (PyPI).
# Options: BROWSER_TESTS_SKIP_BUILD=1 skips `swift build --build-tests`; arguments name tests to run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

for tool in chromium chromedriver python3; do
    command -v "$tool" >/dev/null || { echo "browser-tests: $tool is not installed (apt-get install chromium chromium-driver python3)" >&2; echo "0 passed, 1 failed"; exit 1; }
done
python3 -c 'import selenium' 2>/dev/null || { echo "browser-tests: python3 -m pip install selenium" >&2; echo "0 passed, 1 failed"; exit 1; }

if [ "${BROWSER_TESTS_SKIP_BUILD:-0}" != 1 ]; then
    swift build --build-tests -Xswiftc -warnings-as-errors >&2
fi
bin=$(swift build --show-bin-path)/failscope

work=$(mktemp -d "${TMPDIR:-/tmp}/failscope-browser.XXXXXX")
token="browser-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
read_token="read-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" serve --host 127.0.0.1 --port 0 --data "$work/data" --upload-token "$token" --read-token "$read_token" \
    --web "$root/Web" \
    >"$work/serve.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 600); do  # up to 30 s
    port=$(sed -n 's#.*listening on http://127\.0\.0\.1:\([0-9]*\).*#\1#p' "$work/serve.log" | head -1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    read -r -t 0.05 <> <(:) || true   # a bounded pause between polls
done
if [ -z "$port" ]; then
    echo "browser-tests: failscope serve did not start:" >&2
    cat "$work/serve.log" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
url="http://127.0.0.1:$port"
echo "browser-tests: service at $url (data $work/data)" >&2

# The real sample UI suite through the reporter; its failing tests make `swift test` exit non-zero.
seed_suite() { # run-id seed branch commit device
    local status=0
    env -u FAILSCOPE_DISABLED FAILSCOPE_URL="$url" FAILSCOPE_TOKEN="$token" FAILSCOPE_PROJECT=demo \
        FAILSCOPE_RUN_ID="$1" DEMO_FAULTS=slow-network,cart-quantity-bug DEMO_SEED="$2" FAILSCOPE_BRANCH="$3" \
        FAILSCOPE_COMMIT="$4" FAILSCOPE_DEVICE="$5" FAILSCOPE_SPOOL="$work/spool-$1" \
        swift test --skip-build --filter DemoUITests >"$work/suite-$1.log" 2>&1 || status=$?
    if ! grep -q "uploaded to $url" "$work/suite-$1.log"; then
        echo "browser-tests: the suite run $1 (exit $status) did not upload:" >&2
        tail -20 "$work/suite-$1.log" >&2
        return 1
    fi
    echo "browser-tests: seeded $1 ($(grep -o '[0-9]* results ([^)]*)' "$work/suite-$1.log" | head -1), swift test exit $status)" >&2
}
seed_suite browser-feature 11 feature/login 1f2e3d4c5b6a79881726354453627180a9b8c7d6 "iPhone SE (3rd generation)" \
    || { echo "0 passed, 1 failed"; exit 1; }
seed_suite browser-main 7 main 9a8b7c6d5e4f30211203948576a5b4c3d2e1f0a9 "iPhone 15" \
    || { echo "0 passed, 1 failed"; exit 1; }

mkdir -p test-output/browser
rm -f test-output/browser/*.png
status=0
FAILSCOPE_TEST_URL="$url" FAILSCOPE_TEST_TOKEN="$token" FAILSCOPE_TEST_READ_TOKEN="$read_token" FAILSCOPE_TEST_OUTPUT="$root/test-output/browser" \
    FAILSCOPE_TEST_MAIN_RUN=browser-main FAILSCOPE_TEST_SECOND_RUN=browser-feature \
    python3 Tests/Browser/dashboard_tests.py "$@" || status=$?
if [ "$status" != 0 ]; then
    echo "browser-tests: server log tail:" >&2
    grep -v ' 200 \| 304 ' "$work/serve.log" | tail -15 >&2 || true
fi
exit "$status"
