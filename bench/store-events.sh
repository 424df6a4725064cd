#!/usr/bin/env bash
# How soon a shared-state change made through one instance is seen by another (issue 37): `make bench-store-events`.
#
#   env: ROUNDS=30 MOCKAPNS=path
#
# A throwaway PostgreSQL cluster (bench/pg.sh) and, for each --store-events mode, two `mockapns serve --store`
# instances with control planes (the periodic re-read put off with --store-resync 3600, so only the mode's own path
# can carry the change). ROUNDS times: a device state PUT through A's control API, then B's device list polled every
# 5 ms until it holds the device; prints the median and worst delay from the PUT's answer to B's list showing it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-30}
source bench/lib.sh
use_mockapns
source bench/pg.sh

for mode in ${MODES:-notify poll}; do
    controls=()
    for name in A B; do
        port=$(free_port); control=$(free_port)
        "$BIN" serve --port "$port" --control-port "$control" --quiet --store "$STORE" --store-namespace "events-$mode" \
            --instance-name "$name" --store-events "$mode" --store-resync 3600 > "$WORK/serve.$mode.$name.log" 2>&1 &
        PIDS+=($!)
        wait_port "$port"; wait_port "$control"
        controls+=("http://127.0.0.1:$control")
    done
    python3 - "$mode" "$ROUNDS" "${controls[@]}" <<'PY'
import json, statistics, sys, time, urllib.request
mode, rounds, a, b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
delays = []
for i in range(rounds):
    token = "%064x" % (0xe0000 + i)
    body = json.dumps({"state": "unregistered"}).encode()
    request = urllib.request.Request(a + "/api/v1/devices/" + token, data=body, method="PUT",
                                     headers={"content-type": "application/json"})
    urllib.request.urlopen(request, timeout=10).read()
    done = time.monotonic()
    while True:
        if token in json.load(urllib.request.urlopen(b + "/api/v1/devices", timeout=10))["devices"]:
            break
        if time.monotonic() - done > 30:
            sys.exit("%s: B never saw %s" % (mode, token))
        time.sleep(0.005)
    delays.append((time.monotonic() - done) * 1000)
print("--store-events %-6s change seen by the other instance after: median %.0f ms, worst %.0f ms (%d changes)"
      % (mode, statistics.median(delays), max(delays), rounds))
PY
done
