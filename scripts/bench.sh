#!/usr/bin/env bash
# Runs every benchmark in scripts/bench/ (release build) and prints one table.
# Each benchmark script prints rows `BENCH|measure|ours|reference|ratio|goal` on stdout; other output
# goes to stderr. Ratios compare against a named reference measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=$(mktemp)
for bench in scripts/bench/*.sh; do
    [ -e "$bench" ] || continue
    echo "== $bench" >&2
    bash "$bench" | grep '^BENCH|' >>"$rows" || echo "BENCH|$(basename "$bench") failed|-|-|-|-" >>"$rows"
done
printf '%-58s %-16s %-30s %-8s %s\n' measure ours reference ratio goal
cut -d'|' -f2- "$rows" | while IFS='|' read -r measure ours reference ratio goal; do
    printf '%-58s %-16s %-30s %-8s %s\n' "$measure" "$ours" "$reference" "$ratio" "$goal"
done
rm -f "$rows"
