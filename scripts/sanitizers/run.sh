#!/usr/bin/env bash
# `make test-sanitizers`: builds the test products under AddressSanitizer and ThreadSanitizer in their own
# scratch paths (so the normal .build stays untouched) and runs the server suites under each. Any sanitizer
# report fails the run: halt_on_error=1 plus a non-zero exitcode, so a report cannot be lost in test output.
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
HERE=$(pwd)/scripts/sanitizers
# Server-side suites. EndToEndTests is left out: it launches the separately built mockapns binary and
# real peers, which a sanitized test build does not cover (see CONTRIBUTING.md "Sanitizers").
SUITES=${SANITIZER_SUITES:-'HTTP2Tests|HTTP2WireTests|MockAPNsTests|MockAPNsWireTests|MockAPNsControlTests|MockAPNsHTTP1Tests|MockAPNsHTTP1WireTests|APNsClientTests|APNsTestingTests|MockAPNsRelayTests|MockAPNsRelayWireTests'}
FILTER="^($SUITES)\."
export MOCKAPNS_PYTHON=${MOCKAPNS_PYTHON:-$(pwd)/.venv/bin/python}

declare -A RESULT
run() { # $1 = address|thread, $2 = scratch path
  local kind=$1 scratch=$2 log="$2/sanitizer-test.log" t0=$SECONDS
  mkdir -p "$scratch"
  echo "== $kind: build ($scratch)"
  if ! $SWIFT build --build-tests --sanitize="$kind" --scratch-path "$scratch" >"$scratch/sanitizer-build.log" 2>&1; then
    tail -40 "$scratch/sanitizer-build.log"; RESULT[$kind]="BUILD FAILED"; return 1
  fi
  echo "== $kind: test (filter $FILTER)"
  $SWIFT test --skip-build --sanitize="$kind" --scratch-path "$scratch" --filter "$FILTER" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local reports; reports=$(grep -c -E '^(==[0-9]+==ERROR: |WARNING: ThreadSanitizer|SUMMARY: (Address|Thread|Leak)Sanitizer)' "$log")
  local passed; passed=$(grep -oE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" | tail -1)
  local swt; swt=$(grep -oE 'Test run with [0-9]+ tests?.*(passed|failed|issues?)' "$log" | tail -1)
  RESULT[$kind]="rc=$rc, sanitizer reports=$reports, XCTest: ${passed:-none}; swift-testing: ${swt:-none}; $((SECONDS - t0))s"
  [ "$rc" = 0 ] && [ "$reports" = 0 ]
}

# quarantine_size_mb=16: ASan keeps freed memory from reuse up to this much (256 MiB by default) to catch use after
# free; the attack suites bound peak resident memory (2 000 connections churned within 32 MiB), and the default
# quarantine alone grew it by 144 MiB there. 16 MiB still holds the last few thousand frees.
export ASAN_OPTIONS="halt_on_error=1:exitcode=86:detect_leaks=${SANITIZER_DETECT_LEAKS:-0}:quarantine_size_mb=16:suppressions=$HERE/asan.supp"
export LSAN_OPTIONS="suppressions=$HERE/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:suppressions=$HERE/tsan.supp:print_suppressions=0"
start=$SECONDS; status=0
run address .build-asan || status=1
run thread .build-tsan || status=1
echo "test-sanitizers: ASan: ${RESULT[address]}"
echo "test-sanitizers: TSan: ${RESULT[thread]}"
echo "test-sanitizers: $([ $status = 0 ] && echo CLEAN || echo FAILED) in $((SECONDS - start))s"
exit $status
