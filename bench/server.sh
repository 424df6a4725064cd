#!/usr/bin/env bash
# Server benchmark: `mockapns serve` (full APNs pipeline: JWT check, validation, recording to a JSON Lines
# file) against nghttpd serving a small file, both on TLS with the same certificate, both loaded by the
# same h2load command in the same run.
#
#   bench/server.sh [requests=200000] [clients=4] [streams=100]
#
# Fairness choices:
#   - both get one worker per core: mockapns --loops $(nproc), nghttpd -n $(nproc);
#   - nghttpd serves a 0-byte file; mockapns validates a ~300-byte alert payload, checks one valid JWT
#     (the same token on every request, verified once and cached, as APNs asks senders to do) and appends
#     every record to a file, with its default memory ring (50 000 records);
#   - h2load: TLS, -c clients -m streams, POST of the same payload (-d), same headers for both.
# Prints both rates and the ratio mockapns/nghttpd, and checks the record file has one line per request.
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${1:-200000}
CLIENTS=${2:-4}
STREAMS=${3:-100}
ROUNDS=${ROUNDS:-3}
CORES=$(nproc)
source bench/lib.sh

for tool in h2load nghttpd; do
    command -v "$tool" >/dev/null || { echo "server.sh: $tool not found (make deps)" >&2; exit 1; }
done

echo "building mockapns (release)…" >&2
swift build -c release --product mockapns >&2
BIN=$(swift build -c release --show-bin-path)/mockapns
TOKEN=$("$BIN" token --key-file TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8)
DEVICE=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0

printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel 4711 left our warehouse and arrives tomorrow between 9 and 12."},"badge":1,"sound":"default","thread-id":"orders"},"orderId":"4711","carrier":"DHL","tracking":"JJD0099999999","eta":"2026-11-24T09:00:00Z","items":3,"gift":false}' > "$WORK/payload.json"
mkdir -p "$WORK/htdocs"
: > "$WORK/htdocs/index.html"


MOCK_PORT=$(free_port)
"$BIN" serve --port "$MOCK_PORT" --no-control --quiet --loops "$CORES" --record "$WORK/rec.jsonl" > "$WORK/mock.log" 2>&1 &
MOCK_PID=$!
PIDS+=($MOCK_PID)
NGHTTPD_PORT=$(free_port)
nghttpd -n "$CORES" -a 127.0.0.1 -d "$WORK/htdocs" "$NGHTTPD_PORT" certs/server-key.pem certs/server.pem > "$WORK/nghttpd.log" 2>&1 &
PIDS+=($!)
wait_port "$MOCK_PORT"
wait_port "$NGHTTPD_PORT"

run() {  # $1 = URL → prints req/s; fails unless every request succeeded with a 2xx
    local out
    out=$(h2load -n "$REQUESTS" -c "$CLIENTS" -m "$STREAMS" -d "$WORK/payload.json" \
        -H "authorization: bearer $TOKEN" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        -H "apns-priority: 10" "$1")
    if ! grep -q "requests: $REQUESTS total, $REQUESTS started, $REQUESTS done, $REQUESTS succeeded, 0 failed, 0 errored" <<<"$out" \
        || ! grep -q "status codes: $REQUESTS 2xx" <<<"$out"; then
        echo "h2load against $1 had failures:" >&2; echo "$out" >&2; exit 1
    fi
    grep -E "^finished in" <<<"$out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/'
}

best_mock=0; best_nghttpd=0
for round in $(seq 1 "$ROUNDS"); do
    mock=$(run "https://127.0.0.1:$MOCK_PORT/3/device/$DEVICE")
    theirs=$(run "https://127.0.0.1:$NGHTTPD_PORT/index.html")
    echo "round $round: mockapns $mock req/s, nghttpd $theirs req/s" >&2
    best_mock=$(python3 -c "print(max($best_mock, $mock))")
    best_nghttpd=$(python3 -c "print(max($best_nghttpd, $theirs))")
done

kill -TERM "$MOCK_PID"; wait "$MOCK_PID" || true
lines=$(wc -l < "$WORK/rec.jsonl")
expected=$((REQUESTS * ROUNDS))
[ "$lines" -eq "$expected" ] || { echo "record file has $lines lines, expected $expected" >&2; exit 1; }

echo "h2load -n $REQUESTS -c $CLIENTS -m $STREAMS, POST $(wc -c < "$WORK/payload.json") B + JWT, TLS, $CORES cores, best of $ROUNDS"
echo "mockapns serve --record (all $expected requests recorded): $best_mock req/s"
echo "nghttpd -n $CORES (0-byte file):                             $best_nghttpd req/s"
python3 -c "print('ratio mockapns/nghttpd: %.2f' % ($best_mock / $best_nghttpd))"
