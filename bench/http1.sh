#!/usr/bin/env bash
# HTTP/1.1 benchmark: the mock's plain HTTP/1.1 APNs endpoint (`serve --http1-port`, SwiftNIO's HTTP/1.1 pipeline)
# against plain-SwiftNIO HTTP/1.1 servers on the same pipeline (`bench/NIOHTTP1BenchServer`, the stand-in for
# APNSwift's own test server: `trivial` answers 200 and does nothing else; `checks` makes the checks such a test server
# makes — token shape, headers, the body through Foundation's JSONSerialization, apns-id as a UUID, the push kept),
# and against the same mock's own HTTP/2 listener, all in the same run.
#
#   bench/http1.sh                     env: REQUESTS=100000 CG_REQUESTS=20000 ROUNDS=3 CG=1
#
# Load: fan-out (scenario a of server.sh): one payload to 10 000 device tokens, one JWT, no apns-id; h2load
# --h1 -c 4 -m 100 (pipelined) for HTTP/1.1, h2load -c 4 -m 100 over TLS for HTTP/2. Prints req/s, server CPU
# µs per request (perf stat task-clock, indicative) and callgrind instructions per request (stable), and the
# ratios: the HTTP/1.1 endpoint to each SwiftNIO server (target ≤ 1.0) and to our HTTP/2 path.
# Both servers run on LOOPS event-loop threads (default: one per core).
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-100000}
CG_REQUESTS=${CG_REQUESTS:-20000}
ROUNDS=${ROUNDS:-3}
CG=${CG:-1}
CORES=$(nproc)
LOOPS=${LOOPS:-$CORES}
source bench/lib.sh

for tool in h2load perf valgrind callgrind_control; do
    command -v "$tool" >/dev/null || { echo "http1.sh: $tool not found (make deps)" >&2; exit 1; }
done
if [ -z "${MOCKAPNS:-}" ]; then
    echo "building mockapns and NIOHTTP1BenchServer (release)…" >&2
    swift build -c release --product mockapns >&2
    MOCKAPNS=$(swift build -c release --show-bin-path)/mockapns
fi
swift build -c release --product NIOHTTP1BenchServer >&2
REF=$(swift build -c release --show-bin-path)/NIOHTTP1BenchServer
BIN=$MOCKAPNS
TOKEN=$("$BIN" token --key-file TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8)
printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel 4711 left our warehouse and arrives tomorrow between 9 and 12."},"badge":1,"sound":"default","thread-id":"orders"},"orderId":"4711","carrier":"DHL","tracking":"JJD0099999999","eta":"2026-11-24T09:00:00Z","items":3,"gift":false}' > "$WORK/payload.json"
write_tokens 10000 "$WORK/tokens.txt"
HEADERS=(-H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" -H "apns-push-type: alert" -H "apns-priority: 10")

# load KIND PORT N: KIND h1 (plain, pipelined) or h2 (TLS).
load() {
    local kind=$1 port=$2 n=$3
    if [ "$kind" = h1 ]; then
        sed "s|^|http://127.0.0.1:$port/3/device/|" "$WORK/tokens.txt" > "$WORK/uris.$port"
        h2load --h1 -n "$n" -c 4 -m 100 -i "$WORK/uris.$port" -d "$WORK/payload.json" "${HEADERS[@]}"
    else
        sed "s|^|https://127.0.0.1:$port/3/device/|" "$WORK/tokens.txt" > "$WORK/uris.$port"
        h2load -n "$n" -c 4 -m 100 -i "$WORK/uris.$port" -d "$WORK/payload.json" "${HEADERS[@]}"
    fi
}
check_rate() {
    local n=$1 out; out=$(cat "$WORK/load.out")
    if ! grep -q "requests: $n total, $n started, $n done, $n succeeded, 0 failed, 0 errored" <<<"$out" \
        || ! grep -q "status codes: $n 2xx" <<<"$out"; then
        echo "load had failures:" >&2; echo "$out" >&2; exit 1
    fi
    grep -E "^finished in" <<<"$out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/'
}

# The mock with both listeners (no --record: the comparison is the endpoint's own cost), and the reference.
H2_PORT=$(free_port); H1_PORT=$(free_port); REF_PORT=$(free_port); CHK_PORT=$(free_port)
"$BIN" serve --port "$H2_PORT" --http1-port "$H1_PORT" --no-control --loops "$LOOPS" > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!; PIDS+=($MOCK_PID)
"$REF" "$REF_PORT" "$LOOPS" > "$WORK/ref.log" 2>&1 &
REF_PID=$!; PIDS+=($REF_PID)
"$REF" "$CHK_PORT" "$LOOPS" checks > "$WORK/chk.log" 2>&1 &
CHK_PID=$!; PIDS+=($CHK_PID)
wait_port "$H2_PORT"; wait_port "$H1_PORT"; wait_port "$REF_PORT"; wait_port "$CHK_PORT"

declare -A RATE CPU IR
RUNS=("mock-h1 $MOCK_PID h1 $H1_PORT" "nio-trivial $REF_PID h1 $REF_PORT" "nio-checks $CHK_PID h1 $CHK_PORT"
      "mock-h2 $MOCK_PID h2 $H2_PORT")
for run in "${RUNS[@]}"; do read -r name _ _ _ <<<"$run"; RATE[$name]=0; CPU[$name]=999999; done
for round in $(seq 1 "$ROUNDS"); do
    line="round $round:"
    for run in "${RUNS[@]}"; do
        read -r name pid kind port <<<"$run"
        ms=$(perf_task_clock_ms "$pid" load "$kind" "$port" "$REQUESTS")
        rate=$(check_rate "$REQUESTS")
        us=$(python3 -c "print('%.2f' % ($ms * 1000 / $REQUESTS))")
        line="$line $name $rate req/s $us µs/req;"
        RATE[$name]=$(python3 -c "print(max(${RATE[$name]}, $rate))")
        CPU[$name]=$(python3 -c "print(min(${CPU[$name]}, $us))")
    done
    echo "$line" >&2
done
kill -TERM "$MOCK_PID" "$REF_PID" "$CHK_PID" 2>/dev/null || true; wait "$MOCK_PID" "$REF_PID" "$CHK_PID" 2>/dev/null || true

if [ "$CG" = 1 ]; then
    for run in "${RUNS[@]}"; do
        read -r name _ kind _ <<<"$run"
        CG_PORT=$(free_port); CG_NAME="http1.$name"
        if [ "$name" = nio-trivial ]; then
            cg_start "$REF" "$CG_PORT" "$LOOPS"
        elif [ "$name" = nio-checks ]; then
            cg_start "$REF" "$CG_PORT" "$LOOPS" checks
        elif [ "$kind" = h1 ]; then
            cg_start "$BIN" serve --port "$(free_port)" --http1-port "$CG_PORT" --no-control --loops "$LOOPS"
        else
            cg_start "$BIN" serve --port "$CG_PORT" --no-control --loops "$LOOPS"
        fi
        load "$kind" "$CG_PORT" 2000 > "$WORK/load.out" 2>&1 || { echo "warm-up failed" >&2; cat "$WORK/load.out" >&2; exit 1; }
        ir=$(cg_count load "$kind" "$CG_PORT" "$CG_REQUESTS")
        check_rate "$CG_REQUESTS" > /dev/null
        IR[$name]=$((ir / CG_REQUESTS))
        echo "callgrind: $name ${IR[$name]} instructions/request" >&2
    done
fi

echo "HTTP/1.1 endpoint; fan-out load, req/s best of $ROUNDS alternating rounds of $REQUESTS; perf µs = server task-clock per request (indicative); Ir = callgrind instructions/request over $CG_REQUESTS"
for run in "${RUNS[@]}"; do
    read -r name _ _ _ <<<"$run"
    printf '%-12s %10.0f req/s %8.2f µs %10s Ir\n' "$name" "${RATE[$name]}" "${CPU[$name]}" "${IR[$name]:-0}"
done
python3 - "${CPU[mock-h1]}" "${CPU[mock-h2]}" "${CPU[nio-trivial]}" "${CPU[nio-checks]}" \
    "${IR[mock-h1]:-0}" "${IR[mock-h2]:-0}" "${IR[nio-trivial]:-0}" "${IR[nio-checks]:-0}" <<'PY'
import sys
h1, h2, ref, chk, ih1, ih2, iref, ichk = map(float, sys.argv[1:])
r = lambda a, b: ("%.2f ×" % (a / b)) if b else "-"
print("mock HTTP/1.1 / SwiftNIO checks (APNSwift-like): perf %s, Ir %s (target ≤ 1.0)" % (r(h1, chk), r(ih1, ichk)))
print("mock HTTP/1.1 / SwiftNIO trivial:                perf %s, Ir %s" % (r(h1, ref), r(ih1, iref)))
print("mock HTTP/1.1 / mock HTTP/2:                     perf %s, Ir %s" % (r(h1, h2), r(ih1, ih2)))
PY
