#!/usr/bin/env bash
# Memory per record held in the ring: `mockapns serve` (default ring, 50 000 records) is filled with RECORDS
# requests and its resident set size is read before and after (/proc/PID/status VmRSS), for the fan-out load
# (h2load, scenario a of server.sh) and the per-push-ID load (`mockapns send`, scenario b). Target: ≤ 2 KB.
#
#   bench/memory.sh            env: RECORDS=50000
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-50000}
source bench/lib.sh
use_mockapns
KEY=TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8
TOKEN=$("$BIN" token --key-file "$KEY")
printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel 4711 left our warehouse and arrives tomorrow between 9 and 12."},"badge":1,"sound":"default","thread-id":"orders"},"orderId":"4711","carrier":"DHL","tracking":"JJD0099999999","eta":"2026-11-24T09:00:00Z","items":3,"gift":false}' > "$WORK/payload.json"
sed 's/4711/{{n}}/g' "$WORK/payload.json" > "$WORK/template.json"
python3 -c 'import hashlib
for i in range(10000): print(hashlib.sha256(str(i).encode()).hexdigest())' > "$WORK/tokens.txt"
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

for scenario in a b; do
    PORT=$(free_port)
    "$BIN" serve --port "$PORT" --no-control --loops "$(nproc)" > "$WORK/mock.log" 2>&1 &
    PID=$!; PIDS+=($PID)
    wait_port "$PORT"
    # Warm up with a few requests (connections, TLS, first allocations), then count from there.
    sed "s|^|https://127.0.0.1:$PORT/3/device/|" "$WORK/tokens.txt" > "$WORK/uris"
    h2load -n 400 -c 4 -m 100 -i "$WORK/uris" -d "$WORK/payload.json" -H "authorization: bearer $TOKEN" \
        -H "apns-topic: com.example.app" -H "apns-push-type: alert" > /dev/null
    before=$(rss_kb "$PID")
    if [ "$scenario" = a ]; then
        h2load -n "$RECORDS" -c 4 -m 100 -i "$WORK/uris" -d "$WORK/payload.json" -H "authorization: bearer $TOKEN" \
            -H "apns-topic: com.example.app" -H "apns-push-type: alert" > /dev/null
    else
        "$BIN" send "$WORK/template.json" --payload-template --token-file "$WORK/tokens.txt" --topic com.example.app \
            --push-type alert --key-file "$KEY" --ca certs/ca.pem --url "https://127.0.0.1:$PORT" \
            --count "$RECORDS" --concurrency 400 --connections 4 --json > /dev/null
    fi
    after=$(rss_kb "$PID")
    kill -TERM "$PID"; wait "$PID" || true
    python3 -c "import sys; b,a,n=map(int,sys.argv[1:]); print('scenario %s: RSS %d KB -> %d KB over %d records: %.0f bytes per record (target <= 2048)' % ('$scenario', b, a, n, (a-b)*1024/n))" "$before" "$after" "$RECORDS"
done
