#!/usr/bin/env bash
# Outbound benchmark (issue 22): what `serve --relay` and `serve --webhook` cost.
#
#   bench/outbound.sh        env: PUSHES=20000 SERIAL=2000 ROUNDS=2 MOCKAPNS=path (default: a release build)
#
# Relay: `mockapns send` to an upstream mock directly, then through a relaying mock in front of it (re-signing with
# the bundled key); server CPU per push of the relay and of the upstream (from /proc), and the latency one push
# adds (SERIAL pushes one at a time, wall time per push). Webhook: the same load to a mock with and without
# `--webhook` to a local receiver (Tests/Peers/webhook_receiver.py); server CPU per push, alternating ROUNDS times.
# Everything shares this machine's cores, so the figures are ratios within one run, not absolutes.
set -euo pipefail
cd "$(dirname "$0")/.."
PUSHES=${PUSHES:-20000}
SERIAL=${SERIAL:-2000}
ROUNDS=${ROUNDS:-2}
source bench/lib.sh
PYTHON=${PYTHON:-$(pwd)/.venv/bin/python3}
use_mockapns
KEY="TESTTEAM01:TESTKEY001:$(pwd)/certs/AuthKey_TESTKEY001.p8"
printf '%s' '{"aps":{"alert":{"title":"Order {{n}}","body":"Your parcel left our warehouse."}}}' > "$WORK/payload.json"
python3 -c 'import hashlib
for i in range(10000): print(hashlib.sha256(str(i).encode()).hexdigest())' > "$WORK/tokens.txt"

# Starts `serve` with "$@" and sets SERVE_PID and SERVE_URL.
start_serve() {
    local ready="$WORK/ready.$RANDOM.json"
    "$BIN" serve --port 0 --no-control --quiet --ready-file "$ready" "$@" > "$WORK/serve.$RANDOM.log" 2>&1 &
    SERVE_PID=$!; PIDS+=($SERVE_PID)
    "$BIN" wait --ready-file "$ready" --pid "$SERVE_PID" --timeout 30 --silent
    SERVE_URL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["apns_url"])' "$ready")
}
cpu_ms() { read -r u s < <(proc_cpu_ms "$1"); python3 -c "print($u + $s)"; }
send() {  # $1 = url, $2 = count, $3 = concurrency; prints wall seconds
    local start end
    start=$(date +%s.%N)
    "$BIN" send "$WORK/payload.json" --token-file "$WORK/tokens.txt" --payload-template --topic com.example.app \
        --push-type alert --url "$1" --count "$2" --concurrency "$3" --json > "$WORK/send.json" 2>&1 \
        || { echo "send failed" >&2; cat "$WORK/send.json" >&2; exit 1; }
    end=$(date +%s.%N)
    python3 -c "print($end - $start)"
}
per_push() { python3 -c "print('%.1f' % ($1 * 1000 / $2))"; }   # ms → µs per push

echo "relay: $PUSHES pushes (--concurrency 100), then $SERIAL one at a time"
start_serve; UP_PID=$SERVE_PID; UP_URL=$SERVE_URL
start_serve --relay "$UP_URL" --relay-ca certs/ca.pem --relay-key-file "$KEY"; RELAY_PID=$SERVE_PID; RELAY_URL=$SERVE_URL
send "$UP_URL" 200 10 > /dev/null; send "$RELAY_URL" 200 10 > /dev/null   # connections and tokens warm
u0=$(cpu_ms "$UP_PID"); send "$UP_URL" "$PUSHES" 100 > /dev/null; u1=$(cpu_ms "$UP_PID")
direct_up=$(python3 -c "print($u1 - $u0)")
u0=$(cpu_ms "$UP_PID"); r0=$(cpu_ms "$RELAY_PID"); send "$RELAY_URL" "$PUSHES" 100 > /dev/null; u1=$(cpu_ms "$UP_PID"); r1=$(cpu_ms "$RELAY_PID")
relayed_up=$(python3 -c "print($u1 - $u0)"); relay=$(python3 -c "print($r1 - $r0)")
serial_direct=$(send "$UP_URL" "$SERIAL" 1); serial_relayed=$(send "$RELAY_URL" "$SERIAL" 1)
echo "  upstream alone:        $(per_push "$direct_up" "$PUSHES") µs CPU per push"
echo "  through the relay:     relay $(per_push "$relay" "$PUSHES") µs + upstream $(per_push "$relayed_up" "$PUSHES") µs CPU per push"
python3 -c "print('  latency, one at a time: %.0f µs direct, %.0f µs relayed: +%.0f µs per push' % ($serial_direct * 1e6 / $SERIAL, $serial_relayed * 1e6 / $SERIAL, ($serial_relayed - $serial_direct) * 1e6 / $SERIAL))"
kill -TERM "$RELAY_PID" "$UP_PID"; wait "$RELAY_PID" "$UP_PID" 2>/dev/null || true

echo "webhook: $PUSHES pushes (--concurrency 100) with and without --webhook to a local receiver, best of $ROUNDS"
HOOK_PORT=$(free_port)
"$PYTHON" -u Tests/Peers/webhook_receiver.py "$HOOK_PORT" "$WORK/hook.jsonl" --secret s3cret > "$WORK/receiver.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q listening "$WORK/receiver.log" && break; sleep 0.1; done
best_plain=999999; best_hook=999999
for round in $(seq 1 "$ROUNDS"); do
    for kind in plain hook; do
        if [ "$kind" = hook ]; then
            start_serve --webhook "http://127.0.0.1:$HOOK_PORT/hook" --webhook-secret s3cret
        else
            start_serve
        fi
        send "$SERVE_URL" 200 10 > /dev/null
        c0=$(cpu_ms "$SERVE_PID"); send "$SERVE_URL" "$PUSHES" 100 > /dev/null
        # The webhook's deliveries are part of the cost: wait until the receiver has them all.
        if [ "$kind" = hook ]; then
            for _ in $(seq 1 600); do [ "$(wc -l < "$WORK/hook.jsonl")" -ge $(( (PUSHES + 200) * round )) ] && break; sleep 0.1; done
        fi
        c1=$(cpu_ms "$SERVE_PID")
        us=$(per_push "$(python3 -c "print($c1 - $c0)")" "$PUSHES")
        echo "  round $round $kind: $us µs CPU per push" >&2
        if [ "$kind" = hook ]; then best_hook=$(python3 -c "print(min($best_hook, $us))"); else best_plain=$(python3 -c "print(min($best_plain, $us))"); fi
        kill -TERM "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null || true
    done
done
python3 -c "print('  without: %.1f µs, with a webhook (its deliveries included): %.1f µs CPU per push: %.2f×' % ($best_plain, $best_hook, $best_hook / $best_plain))"
echo "  receiver got $(wc -l < "$WORK/hook.jsonl") deliveries"

# The issue's case: a receiver that never answers (timeouts, drops): the APNs path must not pay for it.
HANG_PORT=$(free_port)
"$PYTHON" -u Tests/Peers/webhook_receiver.py "$HANG_PORT" "$WORK/hang.jsonl" --hang > "$WORK/hang.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q listening "$WORK/hang.log" && break; sleep 0.1; done
best_plain=999999; best_hang=999999
for round in $(seq 1 "$ROUNDS"); do
    for kind in plain hang; do
        if [ "$kind" = hang ]; then
            start_serve --webhook "http://127.0.0.1:$HANG_PORT/hook" --webhook-timeout 1 --webhook-queue 1000
        else
            start_serve
        fi
        send "$SERVE_URL" 200 10 > /dev/null
        c0=$(cpu_ms "$SERVE_PID"); send "$SERVE_URL" "$PUSHES" 100 > /dev/null; c1=$(cpu_ms "$SERVE_PID")
        us=$(per_push "$(python3 -c "print($c1 - $c0)")" "$PUSHES")
        echo "  round $round $kind: $us µs CPU per push" >&2
        if [ "$kind" = hang ]; then best_hang=$(python3 -c "print(min($best_hang, $us))"); else best_plain=$(python3 -c "print(min($best_plain, $us))"); fi
        kill -TERM "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null || true
    done
done
python3 -c "print('  receiver that never answers: without %.1f µs, with %.1f µs CPU per push: %.2f×' % ($best_plain, $best_hang, $best_hang / $best_plain))"
