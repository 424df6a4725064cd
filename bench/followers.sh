#!/usr/bin/env bash
# Followers benchmark (issue 24): what live followers cost the server, and how fast `mockapns tail` keeps up.
#
#   bench/followers.sh        env: REQUESTS=100000 ROUNDS=3 MOCKAPNS=path (default: a release build)
#                                  RECORD=1: every server also writes `--record FILE` (followers then share the
#                                  lines the file writer encodes instead of encoding them)
#
# Load: h2load fan-out (one payload to 10 000 device tokens, TLS, -c 4 -m 100), as bench/server.sh scenario a.
# Server: `mockapns serve` with its control plane (followers attach to /api/v1/stream), no request log.
# For 0, 1 and 10 followers of each kind, `mockapns tail --server … --json > file` and `curl -N …/api/v1/stream`,
# it prints req/s and the server's CPU per request (perf task-clock on the server process, best of ROUNDS
# alternating rounds) and the ratio to 0 followers; then whether each follower saw every record (gaps counted).
# Last, `tail --json > file` alone: how many records/s it writes while the load runs.
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${REQUESTS:-100000}
ROUNDS=${ROUNDS:-3}
CORES=$(nproc)
source bench/lib.sh

for tool in h2load perf curl; do
    command -v "$tool" >/dev/null || { echo "followers.sh: $tool not found (make deps)" >&2; exit 1; }
done
use_mockapns
KEY=TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8
TOKEN=$("$BIN" token --key-file "$KEY")
printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel 4711 left our warehouse and arrives tomorrow."},"badge":1,"sound":"default"},"orderId":"4711"}' > "$WORK/payload.json"
write_tokens 10000 "$WORK/tokens.txt"

run_case() {  # $1 = kind (none|tail|stream), $2 = followers; prints "rate us"
    local kind=$1 n=$2 port cport pid fpids=() i
    port=$(free_port); cport=$(free_port)
    local record=()
    [ "${RECORD:-0}" = 1 ] && { rm -f "$WORK/rec.jsonl"; record=(--record "$WORK/rec.jsonl"); }
    "$BIN" serve --port "$port" --control-port "$cport" --loops "$CORES" --quiet --memory-limit 200000 "${record[@]}" > "$WORK/serve.log" 2>&1 &
    pid=$!; PIDS+=($pid)
    wait_port "$port"; wait_port "$cport"
    for i in $(seq 1 "$n"); do
        case $kind in
            tail)   "$BIN" tail --server "http://127.0.0.1:$cport" --json > "$WORK/f.$i.out" 2> "$WORK/f.$i.err" & ;;
            stream) curl -sN "http://127.0.0.1:$cport/api/v1/stream" > "$WORK/f.$i.out" 2> "$WORK/f.$i.err" & ;;
        esac
        fpids+=($!); PIDS+=($!)
    done
    sleep 1
    sed "s|^|https://127.0.0.1:$port/3/device/|" "$WORK/tokens.txt" > "$WORK/uris"
    ms=$(perf_task_clock_ms "$pid" h2load -n "$REQUESTS" -c 4 -m 100 -i "$WORK/uris" -d "$WORK/payload.json" \
        -H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" -H "apns-push-type: alert")
    grep -q "status codes: $REQUESTS 2xx" "$WORK/load.out" || { echo "load failed" >&2; cat "$WORK/load.out" >&2; exit 1; }
    rate=$(grep -E "^finished in" "$WORK/load.out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/')
    # Let followers drain, then count what each saw.
    local seen
    for _ in $(seq 1 100); do
        seen=0
        for i in $(seq 1 "$n"); do
            case $kind in
                tail) c=$(wc -l < "$WORK/f.$i.out") ;;
                stream) c=$(grep -c '^id: ' "$WORK/f.$i.out" || true) ;;
            esac
            seen=$((seen + c))
        done
        [ "$seen" -ge $((REQUESTS * n)) ] && break
        sleep 0.2
    done
    for p in "${fpids[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    gaps=$(cat "$WORK"/f.*.err 2>/dev/null | grep -c "skipped" || true)
    [ "$n" -gt 0 ] && [ "$kind" = stream ] && gaps=$(cat "$WORK"/f.*.out | grep -c '^event: gap' || true)
    kill -TERM "$pid"; wait "$pid" || true
    rm -f "$WORK"/f.*.out "$WORK"/f.*.err
    read -r user_ms sys_ms < "$WORK/split.$pid"
    echo "$rate $(python3 -c "print('%.2f' % ($ms * 1000 / $REQUESTS))") $seen $gaps $(python3 -c "print('%.2f %.2f' % ($user_ms * 1000 / $REQUESTS, $sys_ms * 1000 / $REQUESTS))")"
}

declare -A RATE CPU SEEN GAPS USER SYS
CASES=("none 0" "tail 1" "tail 10" "stream 1" "stream 10")
for c in "${CASES[@]}"; do RATE[$c]=0; CPU[$c]=999999; done
for round in $(seq 1 "$ROUNDS"); do
    for c in "${CASES[@]}"; do
        read -r rate us seen gaps user sys < <(run_case $c)
        echo "round $round: $c followers: $rate req/s, $us µs/req (user $user, kernel $sys), seen $seen, gap events $gaps" >&2
        RATE[$c]=$(python3 -c "print(max(${RATE[$c]}, $rate))")
        if python3 -c "import sys; sys.exit(0 if $us < ${CPU[$c]} else 1)"; then USER[$c]=$user; SYS[$c]=$sys; fi
        CPU[$c]=$(python3 -c "print(min(${CPU[$c]}, $us))")
        SEEN[$c]=$seen; GAPS[$c]=$gaps
    done
done

echo "server CPU per push with live followers$([ "${RECORD:-0}" = 1 ] && echo ', every server with --record FILE'); best of $ROUNDS alternating rounds of $REQUESTS pushes (h2load fan-out, TLS, -c 4 -m 100)"
echo "(user and kernel: the same span from /proc, 10 ms resolution; the kernel half is mostly sending each record to each follower over loopback TCP)"
printf '%-10s %9s %10s %9s %8s %8s | %-12s %s\n' followers "req/s" "perf µs" "ratio" "user µs" "kern µs" "records seen" "gap events"
for c in "${CASES[@]}"; do
    python3 -c "import sys; print('%-10s %9.0f %10.2f %8.2f× %8s %8s | %-12s %s' % (sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[3]) / float(sys.argv[4]), sys.argv[7], sys.argv[8], sys.argv[5], sys.argv[6]))" \
        "$c" "${RATE[$c]}" "${CPU[$c]}" "${CPU[none 0]}" "${SEEN[$c]}/$((REQUESTS * ${c#* }))" "${GAPS[$c]}" "${USER[$c]}" "${SYS[$c]}"
done

# tail --json > file alone: a server holding REQUESTS records, then `tail --since 0 --json > file` replays them all
# (what a terminal that has fallen behind must read): records/s from its start to the last line written.
port=$(free_port); cport=$(free_port)
"$BIN" serve --port "$port" --control-port "$cport" --loops "$CORES" --quiet --memory-limit $((REQUESTS * 2)) > "$WORK/serve.log" 2>&1 &
spid=$!; PIDS+=($spid)
wait_port "$port"; wait_port "$cport"
sed "s|^|https://127.0.0.1:$port/3/device/|" "$WORK/tokens.txt" > "$WORK/uris"
h2load -n "$REQUESTS" -c 4 -m 100 -i "$WORK/uris" -d "$WORK/payload.json" -H "authorization: bearer $TOKEN" \
    -H "apns-topic: com.example.app" -H "apns-push-type: alert" > "$WORK/load.out" 2>&1
grep -q "status codes: $REQUESTS 2xx" "$WORK/load.out" || { echo "load failed" >&2; cat "$WORK/load.out" >&2; exit 1; }
start=$(date +%s.%N)
"$BIN" tail --server "http://127.0.0.1:$cport" --since 0 --json > "$WORK/tail.out" 2> "$WORK/tail.err" &
tpid=$!; PIDS+=($tpid)
for _ in $(seq 1 1200); do [ "$(wc -l < "$WORK/tail.out")" -ge "$REQUESTS" ] && break; sleep 0.05; done
end=$(date +%s.%N)
lines=$(wc -l < "$WORK/tail.out")
kill -TERM "$tpid" 2>/dev/null || true; wait "$tpid" 2>/dev/null || true
kill -TERM "$spid"; wait "$spid" || true
python3 -c "import sys; d=float(sys.argv[4])-float(sys.argv[3]); print('tail --since 0 --json > file: %d of %d records in %.2f s: %.0f records/s; gap lines: %s' % (int(sys.argv[1]), int(sys.argv[2]), d, int(sys.argv[1]) / d, sys.argv[5]))" \
    "$lines" "$REQUESTS" "$start" "$end" "$(grep -c skipped "$WORK/tail.err" || true)"
