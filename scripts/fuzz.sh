#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer executables of Fuzz/ (a separate package: libFuzzer + AddressSanitizer) and runs
# each for FUZZ_SECONDS (default 60), starting from the committed seeds (Fuzz/Seeds/<target>) plus what earlier runs
# kept (Fuzz/.corpus/<target>, not in git). A crashing input is saved to Fuzz/.crashes/<target>/; the script prints
# one line per target (execs, execs/s, coverage, crashes) and fails if any target crashed. A crash, once fixed,
# belongs in Fuzz/Regressions/<target>/ so `make test` replays it (Tests/FuzzRegressionTests).
# Settings: FUZZ_SECONDS, FUZZ_TARGETS (default: all), FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail
# Swift's own crash backtracer symbolicates for minutes under load; libFuzzer reports and saves the input itself.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."

SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-JSON JWT Decider Lint Simulator HTTP2}
FLAGS=(--package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
echo "building the fuzz targets (libFuzzer + ASan)…" >&2
swift build "${FLAGS[@]}" >&2
BIN=$(swift build "${FLAGS[@]}" --show-bin-path)
mkdir -p Fuzz/.out

crashed=0
summary=()
for target in $TARGETS; do
    name=$(tr '[:upper:]' '[:lower:]' <<<"$target")
    corpus=Fuzz/.corpus/$name crashes=Fuzz/.crashes/$name log=Fuzz/.out/$name.log
    mkdir -p "$corpus" "$crashes"
    echo "fuzzing $target for ${SECONDS_EACH}s…" >&2
    status=0
    # -timeout: one input taking 10 s is a finding (a hang); -rss_limit_mb: growth past 3 GB is one too.
    "$BIN/Fuzz$target" -max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 -rss_limit_mb=3072 \
        -artifact_prefix="$crashes/" ${FUZZ_ARGS:-} "$corpus" "Fuzz/Seeds/$name" > "$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$line")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$line")
    found=$(find "$crashes" -type f | wc -l)
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        crashed=1
        echo "FUZZ $target: exit $status, $found input(s) in $crashes; log $log:" >&2
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|precondition|fault' "$log" | head -20 >&2 || true
    fi
    summary+=("$(printf '%-10s execs %-10s execs/s %-7s cov %-6s ft %-7s crashes %s' "$target" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$found")")
done
printf '%s\n' "${summary[@]}"
exit "$crashed"
