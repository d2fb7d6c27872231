#!/usr/bin/env bash
# Runs the whole test suite N times and the bundled scenarios N times with both cores kept busy by
# two busy loops, and prints how many rounds were green. A test that passes only on a quiet machine
# is a failing test for the people who run this in CI.
#
#   scripts/stress-tests.sh [N=5] [--tests-only | --scenarios-only]
#
# Exit status 0 when every round was green. Logs of failed rounds are kept in .stress/ (ignored by git).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

rounds=${1:-5}
case "$rounds" in ''|*[!0-9]*) echo "usage: $0 [N] [--tests-only|--scenarios-only]" >&2; exit 2 ;; esac
mode=${2:-all}

mkdir -p .stress
echo "stress: building (debug, with tests)"
swift build --build-tests >/dev/null 2>.stress/build.log || { cat .stress/build.log; exit 2; }

busy=()
cleanup() {
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM
for _ in 1 2; do
    ( while :; do :; done ) &
    busy+=($!)
done
echo "stress: two busy loops running (pids ${busy[*]})"

tests_green=0
scenarios_green=0
deterministic_green=0
deterministic_differs=0
if [ "$mode" != "--scenarios-only" ]; then
    for round in $(seq 1 "$rounds"); do
        start=$(date +%s)
        if swift test --skip-build >".stress/tests-$round.log" 2>&1; then
            tests_green=$((tests_green + 1))
            rm -f ".stress/tests-$round.log"
            echo "stress: tests round $round green ($(( $(date +%s) - start )) s)"
        else
            echo "stress: tests round $round FAILED ($(( $(date +%s) - start )) s): .stress/tests-$round.log"
            grep -E "✘|error:" ".stress/tests-$round.log" | head -10 | sed 's/^/    /'
        fi
    done
fi
if [ "$mode" != "--tests-only" ]; then
    for round in $(seq 1 "$rounds"); do
        start=$(date +%s)
        if .build/debug/groupsim run Scenarios --jobs 2 --report-dir ".stress/reports-$round" >".stress/scenarios-$round.log" 2>&1; then
            scenarios_green=$((scenarios_green + 1))
            rm -rf ".stress/scenarios-$round.log" ".stress/reports-$round"
            echo "stress: scenarios round $round green ($(( $(date +%s) - start )) s)"
        else
            echo "stress: scenarios round $round FAILED ($(( $(date +%s) - start )) s): .stress/scenarios-$round.log"
            grep -E "NOT MATCHED|error" ".stress/scenarios-$round.log" | head -10 | sed 's/^/    /'
        fi
        # The deterministic mode under the same load: every verdict, and the same traces every round.
        if .build/debug/groupsim run Scenarios --deterministic --jobs 2 --report-dir ".stress/det-$round" >".stress/det-$round.log" 2>&1; then
            (cd ".stress/det-$round" && find . -name trace.jsonl | sort | xargs md5sum) > ".stress/det-$round.sums"
            if [ "$round" -gt 1 ] && ! cmp -s ".stress/det-1.sums" ".stress/det-$round.sums"; then
                deterministic_differs=1
                echo "stress: deterministic round $round wrote other traces than round 1"
            fi
            deterministic_green=$((deterministic_green + 1))
            rm -rf ".stress/det-$round.log" ".stress/det-$round"
        else
            echo "stress: deterministic round $round FAILED: .stress/det-$round.log"
            grep -E "NOT MATCHED|error" ".stress/det-$round.log" | head -10 | sed 's/^/    /'
        fi
    done
fi

status=0
if [ "$mode" != "--scenarios-only" ]; then
    echo "tests: $tests_green of $rounds green"
    [ "$tests_green" -eq "$rounds" ] || status=1
fi
if [ "$mode" != "--tests-only" ]; then
    echo "scenarios: $scenarios_green of $rounds green"
    echo "deterministic scenarios: $deterministic_green of $rounds green$([ "$deterministic_differs" -eq 0 ] && echo ", the same traces every round")"
    [ "$scenarios_green" -eq "$rounds" ] && [ "$deterministic_green" -eq "$rounds" ] && [ "$deterministic_differs" -eq 0 ] || status=1
    rm -f .stress/det-*.sums
fi
exit $status
