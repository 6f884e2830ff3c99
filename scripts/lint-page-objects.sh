#!/usr/bin/env bash
# The Page Object acceptance check (seed 000) on the sample UI suite; filled by the foundation work.
set -euo pipefail
exit 0
