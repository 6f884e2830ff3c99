#!/usr/bin/env bash
# make check-adoption (part of make test): Failscope adopted the way a project adopts it.
#
# 1. The reporter's product links the model and the client only (from `swift package describe`), and
#    the README's snippets marked `// From Samples/…` are that file's code, as written.
# 2. A tagged local clone of this checkout (its working tree, committed as tag 0.1.0) is the
#    dependency of a copy of Samples/ShopUITests through `.package(url: "file://…", from: "0.1.0")`:
#    SwiftPM refuses unsafe build flags in a library product of such a dependency, so this build
#    proves the products can be used as a versioned dependency.
# 3. The sample's suite runs: the passing tests pass, and the test that fails on purpose
#    (KnownBugTests) fails with its page, action, call site and a screenshot in the spool. A package
#    whose tests depend on FailscopeReporter alone builds no simulator module, links no libpng or
#    FreeType, and records its run without a device.
# 4. `make install` into a scratch prefix gives a `failscope` that serves the dashboard.
#
# Settings: ADOPTION_KEEP=1 keeps the scratch folder (printed) for inspection.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
started=$(date +%s)
work=$(mktemp -d /tmp/failscope-adoption.XXXXXX)
if [[ "${ADOPTION_KEEP:-}" != 1 ]]; then trap 'rm -rf "$work"' EXIT; else echo "check-adoption: scratch in $work" >&2; fi
fail() {
    echo "check-adoption: FAILED: $*" >&2
    exit 1
}

echo "==> check-adoption: FailscopeReporter's dependencies" >&2
swift package describe --type json | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
def closure(name, seen):
    for dependency in targets[name].get("target_dependencies", []):
        if dependency not in seen:
            seen.add(dependency)
            closure(dependency, seen)
    return seen
linked = closure("FailscopeReporter", set())
allowed = {"FailscopeClient", "FailscopeModel", "CCrypto"}
if not linked <= allowed:
    sys.exit("FailscopeReporter links " + ", ".join(sorted(linked - allowed)) + ": it must link the model and the client only")
' || fail "the reporter product drags in more than the model and the client"

echo "==> check-adoption: the README's snippets are the sample's code" >&2
python3 - <<'PY' || fail "a README snippet marked '// From Samples/…' is not in that file as written"
import re, sys
readme = open("README.md").read()
problems, count = [], 0
for block in re.findall(r"```swift\n(.*?)```", readme, re.S):
    first, _, body = block.partition("\n")
    match = re.match(r"// From (Samples/\S+)", first)
    if not match:
        continue
    count += 1
    if body not in open(match.group(1)).read():
        problems.append(f"README.md: the snippet from {match.group(1)} differs from the file:\n{body}")
if count == 0:
    problems.append("README.md: no snippet marked '// From Samples/…'")
sys.exit("\n".join(problems) or None)
PY

echo "==> check-adoption: a tagged clone (0.1.0) of this working tree" >&2
clone="$work/failscope"
mkdir -p "$clone"
git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$clone"
(
    cd "$clone"
    git init -q
    git add -A
    git -c user.name=check -c user.email=check@localhost commit -q -m "failscope under test"
    git tag 0.1.0
)

echo "==> check-adoption: Samples/ShopUITests against it through .package(url:from:)" >&2
consumer="$work/ShopUITests"
mkdir -p "$consumer"
(cd Samples/ShopUITests && cp -R Package.swift Sources Tests "$consumer/")
python3 - "$consumer/Package.swift" "file://$clone" <<'PY'
import sys
path, url = sys.argv[1], sys.argv[2]
text = open(path).read()
local = '.package(name: "Failscope", path: "../..")'
if local not in text:
    sys.exit(f"{path}: the sample no longer depends on {local}")
text = text.replace(local, f'.package(url: "{url}", from: "0.1.0")').replace('package: "Failscope"', 'package: "failscope"')
open(path, "w").write(text)
PY
cd "$consumer"
swift build --build-tests --disable-dependency-cache -Xswiftc -warnings-as-errors >"$work/build.log" 2>&1 || {
    tail -40 "$work/build.log" >&2
    fail "the sample does not build against the tagged clone"
}
grep -q "failscope" Package.resolved || fail "Package.resolved does not name the clone"

spool="$work/spool"
run_suite() {
    FAILSCOPE_SPOOL="$spool" FAILSCOPE_RUN_ID="$1" FAILSCOPE_PROJECT=ShopUITests FAILSCOPE_DEVICE="iPhone 15" \
        swift test --skip-build "${@:2}" >"$work/$1.log" 2>&1
}
run_suite passing --skip KnownBugTests || { cat "$work/passing.log" >&2; fail "the sample's passing tests failed"; }
grep -q "Failscope: 2 results (2 passed, 0 failed, 0 errors, 0 skipped)" "$work/passing.log" \
    || { cat "$work/passing.log" >&2; fail "the XCTest summary line is missing"; }
grep -q "Failscope: 1 results (1 passed, 0 failed, 0 errors, 0 skipped)" "$work/passing.log" \
    || { cat "$work/passing.log" >&2; fail "the Swift Testing summary line is missing"; }
if run_suite failing --filter KnownBugTests; then
    fail "KnownBugTests passed: it fails on purpose (ShopApp adds two mugs)"
fi
grep -q "Failscope: 1 results (0 passed, 1 failed, 0 errors, 0 skipped), 1 screenshot(s)" "$work/failing.log" \
    || { cat "$work/failing.log" >&2; fail "the failing test's summary line is missing"; }
python3 - "$spool" <<'PY' || fail "the spool does not hold what the sample's failure should record"
import glob, json, os, sys
spool = sys.argv[1]
writers = glob.glob(os.path.join(spool, "failing", "w-*"))  # one folder a test process (docs/spool.md)
assert len(writers) == 1, writers
run = json.load(open(os.path.join(writers[0], "run.json")))
assert run["device"] == "iPhone 15" and run["osVersion"] == "iOS 17.5 (simulated)", run
results = [r for f in glob.glob(os.path.join(writers[0], "results", "*.json")) for r in json.load(open(f))["results"]]
assert len(results) == 1, results
result = results[0]
failure = result["failures"][0]
assert (result["suite"], result["name"], result["status"]) == ("KnownBugTests", "testAddingTheMugCountsOneItem", "failed"), result
assert failure["page"] == "ProductPage" and failure["action"] == "ProductPage.verifyBasket(_:)", failure
assert failure["callSite"]["file"].endswith("KnownBugTests.swift"), failure
assert "Basket: 2 items" in failure["message"], failure
shots = [a for a in result["artifacts"] if a["kind"] == "screenshot"]
assert len(shots) == 1 and os.path.exists(os.path.join(writers[0], "artifacts", shots[0]["sha256"] + ".png")), result
PY

echo "==> check-adoption: a results-only suite links no simulator, FreeType or libpng" >&2
library="$work/ResultsOnly"
mkdir -p "$library/Tests/ParserTests"
cat >"$library/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "ResultsOnly",
    dependencies: [.package(url: "file://$clone", from: "0.1.0")],
    targets: [
        .testTarget(name: "ParserTests", dependencies: [.product(name: "FailscopeReporter", package: "failscope")])
    ]
)
SWIFT
cat >"$library/Tests/ParserTests/ParserTests.swift" <<'SWIFT'
import XCTest

final class ParserTests: XCTestCase {
    func testSplitsOnCommas() {
        XCTAssertEqual("a,b".split(separator: ","), ["a", "b"])
    }
}
SWIFT
cd "$library"
# The test product alone: `--build-tests` would build every target of the dependency too.
swift build --product ResultsOnlyPackageTests --disable-dependency-cache -Xswiftc -warnings-as-errors \
    >"$work/library-build.log" 2>&1 || {
    tail -40 "$work/library-build.log" >&2
    fail "a package depending on FailscopeReporter alone does not build"
}
for module in SimulatedUI ScreenRaster PageObjects FailscopeSimulatedScreen; do
    ! compgen -G ".build/debug/$module.build/*.o" >/dev/null || fail "depending on FailscopeReporter compiled $module"
done
needed=$(readelf -d .build/debug/ResultsOnlyPackageTests.xctest | grep NEEDED || true)
[[ "$needed" != *libpng* && "$needed" != *libfreetype* ]] || fail "the results-only test binary links: $needed"
FAILSCOPE_SPOOL="$spool" FAILSCOPE_RUN_ID=library swift test --skip-build >"$work/library.log" 2>&1 \
    || { cat "$work/library.log" >&2; fail "the results-only suite failed"; }
grep -q "Failscope: 1 results (1 passed, 0 failed, 0 errors, 0 skipped)" "$work/library.log" \
    || { cat "$work/library.log" >&2; fail "the results-only suite's summary line is missing"; }
python3 -c 'import glob, json, sys; sys.exit(any("device" in json.load(open(f)) for f in glob.glob(sys.argv[1])))' \
    "$spool/library/w-*/run.json" || fail "a results-only run has a device"
cd "$root"

echo "==> check-adoption: make install into a scratch prefix" >&2
make --no-print-directory install CONFIG=debug PREFIX="$work/prefix" >"$work/install.log" 2>&1 \
    || { cat "$work/install.log" >&2; fail "make install failed"; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work" && exec "$work/prefix/bin/failscope" serve --host 127.0.0.1 --port "$port" --data "$work/data" \
    --upload-token adoption-token 2>"$work/serve.log") &
server=$!
trap 'kill "$server" 2>/dev/null || true; [[ "${ADOPTION_KEEP:-}" == 1 ]] || rm -rf "$work"' EXIT
dashboard=$(curl -sf --retry 20 --retry-connrefused --retry-delay 1 "http://127.0.0.1:$port/" || true)
[[ "$dashboard" == *"<script"* ]] || { cat "$work/serve.log" >&2; fail "the installed failscope does not serve the dashboard"; }

echo "==> check-adoption: failscope test -- swift test, as the README's CI step" >&2
(
    cd "$consumer"
    FAILSCOPE_DEVICE="iPhone 15" "$work/prefix/bin/failscope" test --url "http://127.0.0.1:$port" \
        --token adoption-token --project ShopUITests --run-id ci-step --spool "$work/ci-spool" \
        -- swift test --skip-build --skip KnownBugTests >"$work/ci-step.log" 2>&1
) || { cat "$work/ci-step.log" >&2; fail "failscope test -- swift test failed"; }
grep -q "Failscope: 3 results (3 passed, 0 failed, 0 errors, 0 skipped), run passed, uploaded to" "$work/ci-step.log" \
    || { cat "$work/ci-step.log" >&2; fail "failscope test's summary line is missing or counts a test twice"; }
[[ -z "$(ls -A "$work/ci-spool" 2>/dev/null)" ]] || fail "failscope test left files in its spool: $(ls -R "$work/ci-spool")"
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true

echo "==> check-adoption: passed in $(($(date +%s) - started)) s" >&2
