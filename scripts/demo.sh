#!/usr/bin/env bash
# The quick start's main job. Until the service lands it runs the sample UI suite on the simulated
# screen: once as written, then with its seeded flaky and broken faults switched on.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh libsqlite3-dev libpng-dev libfreetype-dev libmicrohttpd-dev libssl-dev zlib1g-dev \
    fonts-dejavu-core fontconfig
swift build --build-tests
swift test --skip-build --filter DemoUITests
DEMO_FAULTS=slow-network,cart-quantity-bug DEMO_SEED=demo swift test --skip-build --filter DemoUITests || true
