#!/usr/bin/env bash
# Makes the pictures in Docs/images/ from the commands the docs show, so they stay true:
#   report-stale-read.png   groupsim run Scenarios/refresh-with-infinite-staleness.yaml (the README's command)
#   report-workload.png     groupsim run Scenarios/racing-writers.yaml --variant infinite-staleness --deterministic
#   compare.png             groupsim compare Scenarios/strategy-comparison.yaml --deterministic
# Renders with scripts/screenshot-report.sh (headless Chromium, installed when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

swift build --product groupsim >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
groupsim=.build/debug/groupsim

# The README's command as it shows it (real time); the others deterministic, so their pictures change
# only when the reports do.
$groupsim run Scenarios/refresh-with-infinite-staleness.yaml --report-dir "$out/r" >/dev/null || true
$groupsim run Scenarios/racing-writers.yaml --variant infinite-staleness --deterministic --report-dir "$out/r" >/dev/null || true
$groupsim compare Scenarios/strategy-comparison.yaml --deterministic --report-dir "$out/r" >/dev/null || true

shot() { scripts/screenshot-report.sh "$1" "$2" "$3" "$4" >/dev/null && echo "screenshots: $2"; }
shot "$out/r/refresh-with-infinite-staleness/stale-cache/report.html" Docs/images/report-stale-read.png 1280 1500
shot "$out/r/racing-writers/infinite-staleness/report.html" Docs/images/report-workload.png 1280 1800
shot "$out/r/strategy-comparison/compare/compare.html" Docs/images/compare.png 1280 760
