#!/usr/bin/env bash
# Server benchmark: `mockapns serve` (full APNs pipeline) with and without `--record`, against nghttpd, on traffic
# shaped like real senders, all loaded by the same generator in the same run.
#
#   bench/server.sh [scenarios="a b c"]        env: REQUESTS=100000 CG_REQUESTS=20000 ROUNDS=3 CG=1 STREAMS=100 STRACE=1
#
# Scenarios:
#   a  fan-out: one payload to 10 000 distinct device tokens, no apns-id (the server generates one): h2load -i
#      with a URI file, TLS, -c 4 -m 100 (STREAMS sets -m: 1 is a sender that waits for each answer), one JWT;
#   b  per-push IDs: `mockapns send` (our APNsClient) sending REQUESTS pushes, each with its own apns-id, device
#      token (from the same 10 000) and payload (`--payload-template`), 4 connections, 400 in flight;
#   c  the same request REQUESTS times (one token, one body, one header list): the old benchmark, for comparison.
#
# For each scenario and server it prints req/s (best of ROUNDS alternating rounds) and the server's CPU per
# request: `perf stat -e task-clock` on the server process (µs; indicative, the machine is shared), and
# `valgrind --tool=callgrind` instructions per request on a CG_REQUESTS run after a warm-up (stable: the figure
# for A/B decisions), then the ratios to nghttpd. nghttpd serves empty files at the same paths (/3/device/<token>).
# With STRACE=1 (the default) each server also takes CG_REQUESTS pushes under `strace -c -f` after a warm-up: the
# system calls per request, in all and for the ones a runtime change moves (futex: hand-offs between threads; write,
# writev, sendmsg: output flushes; epoll_wait; mprotect and madvise: the allocator growing and trimming heaps).
# Both servers get one worker per core. MOCKAPNS=path runs another mockapns binary; MOCKAPNS_B=path with the server
# mockrecb runs a second one beside it, round for round (A/B of two builds in one run).
# SERVERS picks the servers (default "mock mockrec nghttpd").
set -euo pipefail
cd "$(dirname "$0")/.."

SCENARIOS=${1:-a b c}
REQUESTS=${REQUESTS:-100000}
CG_REQUESTS=${CG_REQUESTS:-20000}
ROUNDS=${ROUNDS:-3}
CG=${CG:-1}
STREAMS=${STREAMS:-100}
CORES=$(nproc)
source bench/lib.sh

STRACE=${STRACE:-1}
for tool in h2load nghttpd perf valgrind callgrind_control $([ "$STRACE" = 1 ] && echo strace); do
    command -v "$tool" >/dev/null || { echo "server.sh: $tool not found (make deps)" >&2; exit 1; }
done

if [ -z "${MOCKAPNS:-}" ]; then
    echo "building mockapns (release)…" >&2
    swift build -c release --product mockapns >&2
    MOCKAPNS=$(swift build -c release --show-bin-path)/mockapns
fi
BIN=$MOCKAPNS
CLIENT=${CLIENT:-$BIN}   # the `mockapns send` of scenario b
KEY=TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8
TOKEN=$("$BIN" token --key-file "$KEY")
DEVICE=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0

printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel 4711 left our warehouse and arrives tomorrow between 9 and 12."},"badge":1,"sound":"default","thread-id":"orders"},"orderId":"4711","carrier":"DHL","tracking":"JJD0099999999","eta":"2026-11-24T09:00:00Z","items":3,"gift":false}' > "$WORK/payload.json"
printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel {{n}} left our warehouse and arrives tomorrow between 9 and 12."},"badge":1,"sound":"default","thread-id":"orders"},"orderId":"{{n}}","carrier":"DHL","tracking":"JJD00{{n}}","eta":"2026-11-24T09:00:00Z","items":3,"gift":false}' > "$WORK/template.json"
write_tokens 10000 "$WORK/tokens.txt"
mkdir -p "$WORK/htdocs/3/device"
: > "$WORK/htdocs/index.html"
(cd "$WORK/htdocs/3/device" && xargs touch < "$WORK/tokens.txt" && touch "$DEVICE")

H2LOAD_HEADERS=(-H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" -H "apns-push-type: alert" -H "apns-priority: 10")

# The load of scenario $1 against port $2, N=$3 requests; sets up URI files as needed. Runs in the foreground.
load() {
    local scenario=$1 port=$2 n=$3
    case $scenario in
        a)  sed "s|^|https://127.0.0.1:$port/3/device/|" "$WORK/tokens.txt" > "$WORK/uris.$port"
            h2load -n "$n" -c 4 -m "$STREAMS" -i "$WORK/uris.$port" -d "$WORK/payload.json" "${H2LOAD_HEADERS[@]}" ;;
        b)  "$CLIENT" send "$WORK/template.json" --payload-template --token-file "$WORK/tokens.txt" --topic com.example.app \
                --push-type alert --priority 10 --key-file "$KEY" --ca certs/ca.pem --url "https://127.0.0.1:$port" \
                --count "$n" --concurrency 400 --connections 4 --timeout 600 --json ;;
        c)  h2load -n "$n" -c 4 -m "$STREAMS" -d "$WORK/payload.json" "${H2LOAD_HEADERS[@]}" "https://127.0.0.1:$port/3/device/$DEVICE" ;;
    esac
}

# Checks the load output in $WORK/load.out: every request answered 2xx / accepted. Prints req/s.
check_rate() {
    local n=$1 out; out=$(cat "$WORK/load.out")
    if grep -q '"accepted"' <<<"$out"; then
        python3 -c 'import json,sys
j=json.loads(sys.stdin.read().strip().splitlines()[-1]); assert j["accepted"]==j["sent"]==int(sys.argv[1]), j; print("%.0f" % j["rate"])' "$n" <<<"$out"
        return
    fi
    if ! grep -q "requests: $n total, $n started, $n done, $n succeeded, 0 failed, 0 errored" <<<"$out" \
        || ! grep -q "status codes: $n 2xx" <<<"$out"; then
        echo "load had failures:" >&2; echo "$out" >&2; exit 1
    fi
    grep -E "^finished in" <<<"$out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/'
}

read -r -a SERVERS <<<"${SERVERS:-mock mockrec nghttpd}"   # SERVERS="mock mockrec" skips nghttpd (its figures do not depend on our build)
server_cmd() {  # $1 = server name, $2 = port
    case $1 in
        mock)    echo "$BIN serve --port $2 --no-control --loops $CORES" ;;
        mockrec) echo "$BIN serve --port $2 --no-control --loops $CORES --record $WORK/rec.$2.jsonl" ;;
        # Another build with --record, in the same alternating rounds (SERVERS="mockrec mockrecb nghttpd"): an A/B.
        mockrecb) echo "${MOCKAPNS_B:?mockrecb needs MOCKAPNS_B=path} serve --port $2 --no-control --loops $CORES --record $WORK/rec.$2.jsonl" ;;
        # Out of the box: control plane, dashboard, /metrics and the request log on (SERVERS="... mockdefault").
        mockdefault) echo "$BIN serve --port $2 --control-port 0 --loops $CORES --record $WORK/rec.$2.jsonl" ;;
        nghttpd) echo "$(command -v nghttpd) -n $CORES -a 127.0.0.1 -d $WORK/htdocs $2 certs/server-key.pem certs/server.pem" ;;
    esac
}


declare -A RATE CPU IR SPLIT SYSCALLS
for scenario in $SCENARIOS; do
    # Fresh servers per scenario: the ring and the record file start empty.
    declare -A PORT PID
    for s in "${SERVERS[@]}"; do
        PORT[$s]=$(free_port)
        exec $(server_cmd "$s" "${PORT[$s]}") > "$WORK/$s.log" 2>&1 &
        PID[$s]=$!; PIDS+=(${PID[$s]})
    done
    for s in "${SERVERS[@]}"; do wait_port "${PORT[$s]}"; done
    for s in "${SERVERS[@]}"; do RATE[$scenario.$s]=0; CPU[$scenario.$s]=999999; done
    for round in $(seq 1 "$ROUNDS"); do
        line="scenario $scenario round $round:"
        for s in "${SERVERS[@]}"; do
            ms=$(perf_task_clock_ms "${PID[$s]}" load "$scenario" "${PORT[$s]}" "$REQUESTS")
            rate=$(check_rate "$REQUESTS")
            us=$(python3 -c "print('%.2f' % ($ms * 1000 / $REQUESTS))")
            split=$(python3 -c "import sys; u,k=map(float,open(sys.argv[1]).read().split()); print('%.2f %.2f' % (u*1000/$REQUESTS, k*1000/$REQUESTS))" "$WORK/split.${PID[$s]}")
            line="$line $s $rate req/s $us µs/req (user ${split% *}, kernel ${split#* });"
            RATE[$scenario.$s]=$(python3 -c "print(max(${RATE[$scenario.$s]}, $rate))")
            if python3 -c "import sys; sys.exit(0 if $us < ${CPU[$scenario.$s]} else 1)"; then
                CPU[$scenario.$s]=$us; SPLIT[$scenario.$s]=$split
            fi
        done
        echo "$line" >&2
    done
    for s in "${SERVERS[@]}"; do
        rec=$WORK/rec.${PORT[$s]}.jsonl
        if [[ $s == mockrec* || $s == mockdefault* ]]; then
            kill -TERM "${PID[$s]}"; wait "${PID[$s]}" || true
            lines=$(wc -l < "$rec"); [ "$lines" -eq $((REQUESTS * ROUNDS)) ] || { echo "record file has $lines lines, expected $((REQUESTS * ROUNDS))" >&2; exit 1; }
        fi
    done
    for s in "${SERVERS[@]}"; do kill -TERM "${PID[$s]}" 2>/dev/null || true; wait "${PID[$s]}" 2>/dev/null || true; done

    if [ "$CG" = 1 ]; then
        for s in "${SERVERS[@]}"; do
            CG_PORT=$(free_port); CG_NAME="$scenario.$s"
            cg_start $(server_cmd "$s" "$CG_PORT")
            load "$scenario" "$CG_PORT" 2000 > "$WORK/load.out" 2>&1 || { echo "warm-up failed" >&2; cat "$WORK/load.out" >&2; exit 1; }
            ir=$(cg_count load "$scenario" "$CG_PORT" "$CG_REQUESTS")
            check_rate "$CG_REQUESTS" > /dev/null
            IR[$scenario.$s]=$((ir / CG_REQUESTS))
            echo "scenario $scenario callgrind: $s ${IR[$scenario.$s]} instructions/request" >&2
        done
    fi
    if [ "$STRACE" = 1 ]; then
        for s in "${SERVERS[@]}"; do
            ST_PORT=$(free_port)
            exec $(server_cmd "$s" "$ST_PORT") > "$WORK/$s.strace-server.log" 2>&1 &
            ST_PID=$!; PIDS+=("$ST_PID")
            wait_port "$ST_PORT"
            load "$scenario" "$ST_PORT" 2000 > "$WORK/load.out" 2>&1 || { echo "warm-up failed" >&2; cat "$WORK/load.out" >&2; exit 1; }
            strace -c -f -q -o "$WORK/strace.$scenario.$s" -p "$ST_PID" & strace_pid=$!
            sleep 0.5   # attached to every thread before the load starts
            load "$scenario" "$ST_PORT" "$CG_REQUESTS" > "$WORK/load.out" 2>&1 || { echo "load failed under strace" >&2; cat "$WORK/load.out" >&2; exit 1; }
            check_rate "$CG_REQUESTS" > /dev/null
            kill -INT "$strace_pid"; wait "$strace_pid" || true
            kill -TERM "$ST_PID"; wait "$ST_PID" 2>/dev/null || true
            SYSCALLS[$scenario.$s]=$(python3 - "$WORK/strace.$scenario.$s" "$CG_REQUESTS" <<'PY'
import sys
calls = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1] != "total":
        calls[parts[-1]] = int(parts[3])
n = int(sys.argv[2])
total = sum(calls.values())
pick = lambda *names: sum(calls.get(name, 0) for name in names) / n
print("%.2f %.3f %.3f %.3f %.3f" % (total / n, pick("futex"), pick("write", "writev", "sendmsg", "sendto"),
                                    pick("epoll_wait", "epoll_pwait"), pick("mprotect", "madvise")))
PY
)
            echo "scenario $scenario strace: $s ${SYSCALLS[$scenario.$s]} (calls, futex, writes, epoll waits, mprotect+madvise per request)" >&2
        done
    fi
    unset PORT PID
done

echo "server CPU per request; req/s best of $ROUNDS alternating rounds of $REQUESTS; perf µs = task-clock (indicative), with its user and kernel halves (/proc, the same round); Ir = callgrind instructions/request over $CG_REQUESTS after a warm-up"
printf '%-9s %-11s %10s %9s %8s %8s %10s | %s\n' scenario server "req/s" "perf µs" "user µs" "kern µs" "Ir/req" "ratio to nghttpd (perf, user, Ir)"
for scenario in $SCENARIOS; do
    for s in "${SERVERS[@]}"; do
        python3 - "$scenario" "$s" "${RATE[$scenario.$s]}" "${CPU[$scenario.$s]}" "${IR[$scenario.$s]:-0}" "${CPU[$scenario.nghttpd]:-0}" "${IR[$scenario.nghttpd]:-0}" \
            "${SPLIT[$scenario.$s]:-0 0}" "${SPLIT[$scenario.nghttpd]:-0 0}" <<'PY'
import sys
sc, s, rate, us, ir, ref_us, ref_ir = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
user, kern = map(float, sys.argv[8].split()); ref_user = float(sys.argv[9].split()[0])
ratio_ir = ("%.2f ×" % (ir / ref_ir)) if ref_ir else "-"
ratio_us = ("%.2f ×" % (us / ref_us)) if ref_us else "-"
ratio_user = ("%.2f ×" % (user / ref_user)) if ref_user else "-"
print("%-9s %-11s %10.0f %9.2f %8.2f %8.2f %10d | %s, %s, %s" % (sc, s, rate, us, user, kern, ir, ratio_us, ratio_user, ratio_ir))
PY
    done
done
if [ "$STRACE" = 1 ]; then
    echo "system calls per request under strace -c -f ($CG_REQUESTS requests after a warm-up)"
    printf '%-9s %-11s %8s %8s %8s %8s %10s\n' scenario server calls futex writes epoll "mprot+madv"
    for scenario in $SCENARIOS; do
        for s in "${SERVERS[@]}"; do
            read -r calls futex writes epoll mem <<<"${SYSCALLS[$scenario.$s]:-0 0 0 0 0}"
            printf '%-9s %-11s %8s %8s %8s %8s %10s\n' "$scenario" "$s" "$calls" "$futex" "$writes" "$epoll" "$mem"
        done
    done
fi
