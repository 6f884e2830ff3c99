#!/usr/bin/env bash
# The quick start's main job. Until the service lands it runs the sample UI suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh libsqlite3-dev libpng-dev libfreetype-dev libmicrohttpd-dev libssl-dev zlib1g-dev fonts-dejavu-core fontconfig
swift test --filter DemoUITests
