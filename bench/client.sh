#!/usr/bin/env bash
# Client benchmark: our APNsClient (through `mockapns send --count`) against aioapns (Python), both sending the
# same N alert pushes to the same `mockapns serve` (TLS, token auth, records every push), in the same run.
#
#   bench/client.sh [count=50000] [concurrency=100] [connections=4]
#
# Fairness choices:
#   - the same server process, payload shape (~100 B alert), token key and device token for both;
#   - both keep `concurrency` pushes in flight over 4 connections (aioapns: max_connections=4, a semaphore);
#   - both are timed as whole processes (start-up and connection set-up included); every push must be accepted;
#   - rounds alternate (ours, then aioapns) and each side's best round counts, as in the other benchmarks
#     (ROUNDS=N, default 3): on a small shared machine a single round swings by ±20 %;
#   - the server's record count is checked: every push of every round recorded;
#   - the server keeps 10 000 records in memory (every push carries its own apns-id, so each record owns its
#     header list: a bigger ring adds cache misses to a server that shares the 2 cores with both clients).
# Prints both rates and the ratio ours/aioapns (target: ≥ 20), plus h2load's rate against the same server as the
# ceiling: on a small shared machine the server can limit the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${1:-50000}
CONCURRENCY=${2:-100}
CONNECTIONS=${3:-4}
ROUNDS=${ROUNDS:-3}
PYTHON=${PYTHON:-.venv/bin/python}
source bench/lib.sh

[ -x "$PYTHON" ] || { echo "client.sh: $PYTHON not found (make deps)" >&2; exit 1; }
"$PYTHON" -c 'import aioapns' || { echo "client.sh: aioapns not installed in $PYTHON (make deps)" >&2; exit 1; }

echo "building mockapns (release)…" >&2
swift build -c release --product mockapns >&2
BIN=$(swift build -c release --show-bin-path)/mockapns
DEVICE=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0
printf '%s' '{"aps":{"alert":{"title":"Order shipped","body":"Parcel 4711"}},"orderId":4711}' > "$WORK/payload.json"


PORT=$(free_port)
"$BIN" serve --port "$PORT" --no-control --quiet --record "$WORK/rec.jsonl" --memory-limit 10000 > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!
PIDS+=($MOCK_PID)
wait_port "$PORT"

# Ours: mockapns send (APNsClient), JSON summary; both clients are timed as whole processes.
send_ours() {
    local start end json
    start=$(date +%s.%N)
    json=$("$BIN" send "$WORK/payload.json" --token "$DEVICE" --topic com.example.app --push-type alert \
        --key-file TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8 --ca certs/ca.pem --url "https://127.0.0.1:$PORT" \
        --count "$COUNT" --concurrency "$CONCURRENCY" --connections "$CONNECTIONS" --json) \
        || { echo "mockapns send failed: $json" >&2; exit 1; }
    end=$(date +%s.%N)
    python3 -c 'import json,sys; j=json.loads(sys.argv[1]); assert j["accepted"]==j["sent"], j; print("%.0f" % (j["sent"]/(float(sys.argv[3])-float(sys.argv[2]))))' "$json" "$start" "$end"
}

# aioapns: Tests/Peers/aioapns_send.py (4 connections, a semaphore of `concurrency`), timed the same way.
send_theirs() {
    local start end json
    start=$(date +%s.%N)
    json=$("$PYTHON" Tests/Peers/aioapns_send.py --port "$PORT" --ca certs/ca.pem --key certs/AuthKey_TESTKEY001.p8 \
        --key-id TESTKEY001 --team-id TESTTEAM01 --topic com.example.app --token "$DEVICE" \
        --count "$COUNT" --concurrency "$CONCURRENCY")
    end=$(date +%s.%N)
    python3 -c 'import json,sys; j=json.loads(sys.argv[1]); n=j["results"].get("200",0); assert n==j["sent"], j; print("%.0f" % (n/(float(sys.argv[3])-float(sys.argv[2]))))' "$json" "$start" "$end"
}

ours=0; theirs=0
for round in $(seq 1 "$ROUNDS"); do
    a=$(send_ours); b=$(send_theirs)
    echo "round $round: ours $a pushes/s, aioapns $b pushes/s" >&2
    ours=$(( a > ours ? a : ours )); theirs=$(( b > theirs ? b : theirs ))
done

# Reference ceiling: h2load (C, nghttp2) sending the same pushes: how fast this server answers on this machine.
ceiling=n/a
if command -v h2load >/dev/null; then
    JWT=$("$BIN" token --key-file TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8)
    out=$(h2load -n "$COUNT" -c "$CONNECTIONS" -m $(( (CONCURRENCY + CONNECTIONS - 1) / CONNECTIONS )) -d "$WORK/payload.json" \
        -H "authorization: bearer $JWT" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        "https://127.0.0.1:$PORT/3/device/$DEVICE")
    grep -q "status codes: $COUNT 2xx" <<<"$out" || { echo "h2load had failures: $out" >&2; exit 1; }
    ceiling=$(grep -E "^finished in" <<<"$out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/')
fi
expected=$((COUNT * 2 * ROUNDS)); [ "$ceiling" = n/a ] || expected=$((expected + COUNT))

kill -TERM "$MOCK_PID"; wait "$MOCK_PID" || true
lines=$(wc -l < "$WORK/rec.jsonl")
[ "$lines" -eq "$expected" ] || { echo "record file has $lines lines, expected $expected" >&2; exit 1; }

echo "$COUNT alert pushes each, $CONCURRENCY in flight, $CONNECTIONS connections, TLS + JWT, to one mockapns serve --record ($(nproc) cores, best of $ROUNDS)"
echo "ours (APNsClient via mockapns send): $ours pushes/s"
echo "aioapns 4.0 (Python):                $theirs pushes/s"
echo "h2load (server ceiling, reference):  $ceiling req/s"
python3 -c "print('ratio ours/aioapns: %.1f' % ($ours / $theirs))"
