#!/usr/bin/env bash
# make demo: the quick start's main job.
#
# Installs missing Debian packages, builds, starts `failscope serve` on 127.0.0.1:8080 (embedded
# SQLite store in ./demo-data, reused by the next `make demo`), runs the sample UI suite several
# times through the real reporter as a team's CI would (commits, branches, phone and tablet, the
# seeded flaky and broken faults on), imports the sample JUnit reports, prints the dashboard URL and
# serves until Ctrl-C.
#
# Settings: FAILSCOPE_DEMO_PORT (8080), FAILSCOPE_DEMO_DATA (./demo-data), FAILSCOPE_DEMO_RUNS
# (rounds of the suite, default 8), FAILSCOPE_DATABASE (a postgres://… URI: the store in that PostgreSQL
# database instead of demo-data/failscope.sqlite; the artifacts stay in demo-data/).
set -euo pipefail
cd "$(dirname "$0")/.."

port="${FAILSCOPE_DEMO_PORT:-8080}"
data="${FAILSCOPE_DEMO_DATA:-demo-data}"
rounds="${FAILSCOPE_DEMO_RUNS:-8}"
token="demo-upload-token"
url="http://127.0.0.1:$port"

scripts/install-deps.sh libsqlite3-dev libpng-dev libfreetype-dev libmicrohttpd-dev libssl-dev zlib1g-dev \
    fonts-dejavu-core fontconfig libjs-chart.js curl libpq-dev

# Before the build, which takes minutes the first time: the port must be free.
if curl -sf "$url/healthz" >/dev/null 2>&1; then
    echo "Error: something already answers on $url (an earlier 'make demo'?). Stop it or set FAILSCOPE_DEMO_PORT." >&2
    exit 1
fi

echo "==> Building failscope (release) and the sample UI suite" >&2
swift build -c release --product failscope -Xswiftc -warnings-as-errors
swift build --build-tests -Xswiftc -warnings-as-errors  # the flags make test uses: one build serves both
bin=".build/release/failscope"
tests=".build/debug/FailscopePackageTests.xctest"

mkdir -p "$data"
log="$data/serve.log"
"$bin" serve --host 127.0.0.1 --port "$port" --data "$data" --upload-token "$token" 2>"$log" &
server=$!
stop_server() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
}
trap stop_server EXIT
trap 'echo; echo "==> Stopping the service" >&2; exit 0' INT TERM
# Wait for the service to answer (curl retries refused connections, at most 30 s).
if ! curl -sf --retry 30 --retry-connrefused --retry-delay 1 "$url/healthz" >/dev/null; then
    echo "Error: the service did not start:" >&2
    cat "$log" >&2
    exit 1
fi
echo "==> failscope serve on $url (data in $data/, log in $log)" >&2

suite="DemoUITests.LoginTests,DemoUITests.CatalogTests,DemoUITests.ItemTests,DemoUITests.SettingsTests"
suite="$suite,DemoUITests.PhoneLayoutTests,DemoUITests.TabletLayoutTests"
# Rounds as a team's CI would produce them: branch, commit, device.
plan=(
    "main a1f3c9e iPhone 15"
    "main a1f3c9e iPad (10th generation)"
    "main a1f3c9e iPhone 15"
    "main b7d2e41 iPhone 15 Pro Max"
    "feature/checkout c94e0aa iPhone SE (3rd generation)"
    "main b7d2e41 iPhone 15"
    "main b7d2e41 iPad (10th generation)"
    "feature/checkout c94e0aa iPhone 15"
)
stamp=$(date -u +%Y%m%d%H%M%S)
for ((index = 0; index < rounds; index++)); do
    read -r branch commit device <<<"${plan[index % ${#plan[@]}]}"
    echo "==> Sample UI suite, round $((index + 1))/$rounds: $branch @ $commit on $device" >&2
    FAILSCOPE_URL="$url" FAILSCOPE_TOKEN="$token" FAILSCOPE_PROJECT="DemoApp" FAILSCOPE_BRANCH="$branch" \
        FAILSCOPE_COMMIT="$commit" FAILSCOPE_DEVICE="$device" FAILSCOPE_RUN_ID="demo-$stamp-$index" \
        FAILSCOPE_SPOOL="$data/spool" DEMO_FAULTS="slow-network,cart-quantity-bug" DEMO_SEED="$stamp-$index" \
        "$tests" "$suite" 2>&1 >/dev/null | grep -E "^Failscope:|error:" | sed 's/^/    /' >&2 || true
done

echo "==> Importing the sample JUnit reports" >&2
"$bin" import --project DemoApp --branch main --commit a1f3c9e --device "iPhone 15" --spool "$data/spool" \
    --url "$url" --token "$token" Samples/junit || echo "    (import reported a problem; see above)" >&2

cat >&2 <<MSG

Failscope is running. Open the dashboard:

    $url/

Runs, failures by page and call site with screenshots, test history, and flaky tests by page.
The sample app's slow network makes waits flaky on LoginPage and CatalogPage (and, more rarely,
SettingsPage: which tests fail depends on each round's seed); ItemPage's cart confirmation is
broken in every round. Press Ctrl-C to stop; the data stays in $data/ for the next 'make demo'.

Send your own suite's results here (Samples/ShopUITests is an example project):

    FAILSCOPE_URL=$url FAILSCOPE_TOKEN=$token swift test

The binary is $bin ('make install' puts it on your PATH).
MSG
wait "$server"
