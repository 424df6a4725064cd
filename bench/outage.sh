#!/usr/bin/env bash
# Outage benchmark (issue 27): `mockapns send --count 100000 --concurrency 100` against `mockapns serve`, which is
# killed with SIGKILL 0.8 s into the run. Reports how long the sender takes to exit after the kill, the CPU
# seconds it used in all (/usr/bin/time, user + system), and how many TCP connection attempts it made to the dead
# port after the kill (strace, connect calls only). The send command line has no --give-up-after, so an older
# sender without the flag runs the same command (SENDER_BIN).
#
#   bench/outage.sh [count=100000] [concurrency=100]
#
#   BIN=path/to/mockapns  the server (and by default the sender); default: a release build of this checkout
#   SENDER_BIN=path       another sender binary, e.g. one built from an older commit (the "before" figure)
#   KILL_AFTER=0.8        seconds after the sender starts at which the server is killed
#   CAP=120               seconds after the kill at which a sender still running is stopped (SIGTERM) and
#                         reported as "still running"; its CPU and connection counts are then those of the CAP s
#   RESTART_AFTER=2       (optional) start the server again on the same port this many seconds after the kill:
#                         within the sender's --give-up-after window (10 s) the run should finish, every push accepted
#
# Targets (issue 27): exit within 30 s of the kill, under 10 s of CPU, fewer than 50 connection attempts after it.
# strace uses --seccomp-bpf, so only connect calls stop the sender: its cost on the other system calls is small.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${1:-100000}
CONCURRENCY=${2:-100}
KILL_AFTER=${KILL_AFTER:-0.8}
CAP=${CAP:-120}
source bench/lib.sh

for tool in strace /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "outage.sh: $tool not found (apt-get install strace time)" >&2; exit 1; }
done
if [ -z "${BIN:-}" ]; then
    echo "building mockapns (release)…" >&2
    swift build -c release --product mockapns >&2
    BIN=$(swift build -c release --show-bin-path)/mockapns
fi
SENDER_BIN=${SENDER_BIN:-$BIN}
DEVICE=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0
printf '%s' '{"aps":{"alert":{"title":"Order shipped","body":"Parcel 4711"}},"orderId":4711}' > "$WORK/payload.json"

PORT=$(free_port)
"$BIN" serve --port "$PORT" --no-control --quiet > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!
PIDS+=($MOCK_PID)
wait_port "$PORT"

strace -f --seccomp-bpf -e trace=connect -ttt -o "$WORK/connect.trace" \
    /usr/bin/time -f "%U %S" -o "$WORK/time.out" \
    "$SENDER_BIN" send "$WORK/payload.json" --token "$DEVICE" --topic com.example.app --url "https://127.0.0.1:$PORT" \
    --count "$COUNT" --concurrency "$CONCURRENCY" --json > "$WORK/send.json" 2> "$WORK/send.err" &
TRACER_PID=$!
PIDS+=($TRACER_PID)

sleep "$KILL_AFTER"
KILL_AT=$(date +%s.%N)
{ kill -9 "$MOCK_PID"; wait "$MOCK_PID"; } 2> /dev/null || true
if [ -n "${RESTART_AFTER:-}" ]; then
    sleep "$RESTART_AFTER"
    "$BIN" serve --port "$PORT" --no-control --quiet > "$WORK/mock2.log" 2>&1 &
    PIDS+=($!)
fi

STATE="exited"
while kill -0 "$TRACER_PID" 2> /dev/null; do
    if python3 -c 'import sys,time; sys.exit(0 if time.time() - float(sys.argv[1]) > float(sys.argv[2]) else 1)' "$KILL_AT" "$CAP"; then
        STATE="still running after $CAP s: stopped"
        # strace → /usr/bin/time → mockapns send: stop the sender itself, so that time reports its CPU.
        TIME_PID=$(pgrep -P "$TRACER_PID" | head -1)
        SENDER_PID=$(pgrep -P "$TIME_PID" | head -1)
        kill -TERM "$SENDER_PID"
        break
    fi
    sleep 0.05
done
END_AT=$(date +%s.%N)
wait "$TRACER_PID" 2> /dev/null || true
SENDER_STATUS=$(tail -1 "$WORK/send.json" 2> /dev/null || true)

python3 - "$KILL_AT" "$END_AT" "$PORT" "$WORK/time.out" "$WORK/connect.trace" "$STATE" "$SENDER_STATUS" <<'PY'
import json, sys
kill_at, end_at, port, time_file, trace_file, state, summary = sys.argv[1:8]
kill_at, end_at = float(kill_at), float(end_at)
user, system = (float(x) for x in open(time_file).read().strip().splitlines()[-1].split())
before = after = 0
for line in open(trace_file):
    fields = line.split(None, 2)
    if len(fields) < 3 or not fields[2].startswith("connect(") or f"htons({port})" not in fields[2]:
        continue
    if float(fields[1]) > kill_at:
        after += 1
    else:
        before += 1
print(f"sender {state} {end_at - kill_at:.1f} s after the kill")
print(f"sender CPU: {user + system:.2f} s (user {user:.2f} s, system {system:.2f} s), whole run")
print(f"connection attempts to the killed port: {after} after the kill ({before} before it)")
try:
    j = json.loads(summary)
    print(f"summary: sent {j.get('sent')}, accepted {j.get('accepted')}, failed {j.get('failed_total', sum(j.get('failed', {}).values()))}, "
          f"not attempted {j.get('not_attempted', '?')}" + (f"; gave up: {j['gave_up']}" if "gave_up" in j else ""))
except ValueError:
    print("summary: none (the sender printed no JSON)")
PY
