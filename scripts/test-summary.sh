#!/usr/bin/env bash
# Prints one closing line for a `make test` run: "tests: N passed, M failed", summed over the results in the given
# files: xunit XML (`swift test --parallel --xunit-output`, one <testcase> per test, failed when it holds a <failure>
# or <error>), and logs of XCTest and Swift Testing (`swift test`), pytest, `go test -v`, `node --test` (TAP) and the
# JUnit console launcher. Exits non-zero when a file shows no test at all.
set -euo pipefail
passed=0; failed=0
for log in "$@"; do
    if [[ "$log" == *.xml ]]; then
        read -r xp xf < <(python3 -c '
import sys, xml.etree.ElementTree as tree
cases = tree.parse(sys.argv[1]).getroot().iter("testcase")
results = [any(child.tag in ("failure", "error") for child in case) for case in cases]
print(results.count(False), results.count(True))' "$log")
        # A tier's Swift Testing file may hold none: only its XCTest file must.
        if [ $((xp + xf)) -eq 0 ] && [[ "$log" != *-swift-testing.xml ]]; then echo "test-summary: no test ran in $log" >&2; exit 1; fi
        passed=$((passed + xp)); failed=$((failed + xf))
        continue
    fi
    # XCTest: the largest "Executed N tests, with M failures" line is the whole bundle's.
    read -r n m < <(grep -Eo 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" \
        | awk '{ if ($2 + 0 > best) { best = $2 + 0; fail = $5 + 0 } } END { print best + 0, fail + 0 }')
    # Swift Testing: "Test run with N tests in K suites passed|failed … [with I issues]".
    read -r tn ti < <(grep -Eo 'Test run with [0-9]+ tests?.*' "$log" \
        | awk '{ n += $4; if (match($0, /with [0-9]+ issues?/)) { split(substr($0, RSTART, RLENGTH), a, " "); i += a[2] } } END { print n + 0, i + 0 }')
    # pytest: its closing line, "==== 3 failed, 33 passed, 1 warning in 2.1s ====".
    read -r pp pf < <(grep -E '^=+ .*(passed|failed).* in [0-9.]+s' "$log" \
        | awk '{ for (i = 2; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } } END { print p + 0, f + 0 }')
    # go test -v: one "--- PASS:" or "--- FAIL:" line per test and subtest.
    gp=$(grep -cE '^ *--- PASS: ' "$log" || true); gf=$(grep -cE '^ *--- FAIL: ' "$log" || true)
    # node --test with the TAP reporter: "# pass N" and "# fail M" at the end of each run.
    read -r np nf < <(awk '/^# pass [0-9]+$/ { p += $3 } /^# fail [0-9]+$/ { f += $3 } END { print p + 0, f + 0 }' "$log")
    # JUnit console launcher (the Java kit): "[ N tests successful ]" and "[ M tests failed ]".
    jp=$({ grep -Eo '\[ +[0-9]+ tests successful +\]' "$log" || true; } | awk '{ s += $2 } END { print s + 0 }')
    jf=$({ grep -Eo '\[ +[0-9]+ tests failed +\]' "$log" || true; } | awk '{ s += $2 } END { print s + 0 }')
    # doc-snippets.py: "doc-snippets: N … block(s) checked (…), M failed", each block a test of the documentation.
    read -r dp df < <({ grep -Eo '^doc-snippets: [0-9]+ .* block\(s\) checked .*, [0-9]+ failed$' "$log" || true; } \
        | awk '{ n += $2; f += $(NF-1) } END { print n - f + 0, f + 0 }')
    total=$((n + tn + pp + pf + gp + gf + np + nf + jp + jf + dp + df))
    if [ "$total" -eq 0 ]; then echo "test-summary: no test ran in $log" >&2; exit 1; fi
    passed=$((passed + n - m + tn - ti + pp + gp + np + jp + dp)); failed=$((failed + m + ti + pf + gf + nf + jf + df))
done
echo "tests: $passed passed, $failed failed"
