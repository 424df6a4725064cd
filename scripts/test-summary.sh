#!/usr/bin/env bash
# Prints one closing line for a `make test` run: "tests: N passed, M failed", summed over the XCTest and
# Swift Testing results in the given `swift test` logs. Exits non-zero when a log shows no test at all.
set -euo pipefail
passed=0; failed=0
for log in "$@"; do
    # XCTest: the largest "Executed N tests, with M failures" line is the whole bundle's.
    read -r n m < <(grep -Eo 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" \
        | awk '{ if ($2 + 0 > best) { best = $2 + 0; fail = $5 + 0 } } END { print best + 0, fail + 0 }')
    # Swift Testing: "Test run with N tests in K suites passed|failed … [with I issues]".
    read -r tn ti < <(grep -Eo 'Test run with [0-9]+ tests?.*' "$log" \
        | awk '{ n += $4; if (match($0, /with [0-9]+ issues?/)) { split(substr($0, RSTART, RLENGTH), a, " "); i += a[2] } } END { print n + 0, i + 0 }')
    if [ "$((n + tn))" -eq 0 ]; then echo "test-summary: no test ran in $log" >&2; exit 1; fi
    passed=$((passed + n - m + tn - ti)); failed=$((failed + m + ti))
done
echo "tests: $passed passed, $failed failed"
