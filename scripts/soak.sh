#!/usr/bin/env bash
# Soak (`make soak`, issue #12): 1 000 000 pushes over TLS to one `mockapns serve --record FILE --faults …`, from
# h2load and from our own client (`mockapns send`) at the same time, then checks that
#   - the record file holds exactly one valid JSON line per push, with unique seqs;
#   - the server's RSS at the end is within 10 % of its RSS after the first 100 000 records;
#   - its open descriptors went back to what they were before the load (no leak per connection or push).
# Faults are on throughout: h2load's topic gets 1 % each of 500, 429 and 410 plus 1 % delayed 5 ms; the client's
# topic only 410s and delays, which the client does not retry (a retried 500/429 would be a second record).
# Each h2load push goes to its own device token (one URI file per h2load process, -c 1: h2load cycles its URI
# list per client); our client's `send` takes one --token, so its pushes share one.
# Not part of `make test`: it takes minutes. Settings (environment): SOAK_TOTAL (1000000), SOAK_H2LOAD (pushes
# from h2load, default half), SOAK_H2LOAD_PROCS (2), SOAK_LOOPS (server loops, default one per core).
set -euo pipefail
cd "$(dirname "$0")/.."

TOTAL=${SOAK_TOTAL:-1000000}
H2LOAD_TOTAL=${SOAK_H2LOAD:-$((TOTAL / 2))}
PROCS=${SOAK_H2LOAD_PROCS:-2}
CLIENT_TOTAL=$((TOTAL - H2LOAD_TOTAL))
LOOPS=${SOAK_LOOPS:-$(nproc)}
source bench/lib.sh

command -v h2load >/dev/null || { echo "soak.sh: h2load not found (make deps)" >&2; exit 1; }
echo "building mockapns (release)…" >&2
swift build -c release --product mockapns >&2
BIN=$(swift build -c release --show-bin-path)/mockapns
TOKEN=$("$BIN" token --key-file TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8)

printf '%s' '{"aps":{"alert":{"title":"Soak","body":"One of a million."},"badge":1,"sound":"default"},"n":1}' > "$WORK/payload.json"
cat > "$WORK/faults.json" <<'JSON'
{"seed": 12, "rules": [
  {"name": "soak-500", "match": {"topic": "com.example.soak.h2load"}, "probability": 0.01,
   "action": {"type": "status", "status": 500, "reason": "InternalServerError"}},
  {"name": "soak-429", "match": {"topic": "com.example.soak.h2load"}, "probability": 0.01,
   "action": {"type": "status", "status": 429, "reason": "TooManyRequests"}},
  {"name": "soak-410", "probability": 0.01, "action": {"type": "status", "status": 410, "reason": "Unregistered"}},
  {"name": "soak-delay", "probability": 0.01, "action": {"type": "delay", "ms": 5}}
]}
JSON

PORT=$(free_port)
"$BIN" serve --port "$PORT" --no-control --loops "$LOOPS" --faults "$WORK/faults.json" --record "$WORK/records.jsonl" \
    --log-level warning > "$WORK/serve.log" 2>&1 &
SERVER=$!
PIDS+=("$SERVER")
wait_port "$PORT"

# One URI file per h2load process, each URI with its own device token.
python3 - "$WORK" "$PORT" "$H2LOAD_TOTAL" "$PROCS" <<'PY'
import sys
work, port, total, procs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for p in range(procs):
    share = total // procs + (1 if p < total % procs else 0)
    with open(f"{work}/uris-{p}.txt", "w") as f:
        base = p * (total // procs + 1)
        for i in range(share):
            f.write(f"https://127.0.0.1:{port}/3/device/{base + i:064x}\n")
PY

python3 scripts/soak-watch.py --pid "$SERVER" --records "$WORK/records.jsonl" --total "$TOTAL" \
    --state "$WORK/watch.json" &
WATCH=$!
PIDS+=("$WATCH")

start=$(date +%s.%N)
H2PIDS=()
for p in $(seq 0 $((PROCS - 1))); do
    n=$(wc -l < "$WORK/uris-$p.txt")
    h2load -n "$n" -c 1 -m 64 -i "$WORK/uris-$p.txt" -d "$WORK/payload.json" \
        -H "authorization: bearer $TOKEN" -H "apns-topic: com.example.soak.h2load" -H "apns-push-type: alert" \
        > "$WORK/h2load-$p.log" 2>&1 &
    H2PIDS+=($!)
done
"$BIN" send "$WORK/payload.json" --url "https://127.0.0.1:$PORT" --token "$(printf 'c%063x' 1)" \
    --topic com.example.soak.client --push-type alert --count "$CLIENT_TOTAL" --concurrency 200 --connections 2 \
    --json > "$WORK/send.json" 2> "$WORK/send.log" || true   # exit 1: some pushes were (deliberately) refused
for pid in "${H2PIDS[@]}"; do wait "$pid" || { echo "h2load failed:" >&2; cat "$WORK"/h2load-*.log >&2; exit 1; }; done
end=$(date +%s.%N)

for p in $(seq 0 $((PROCS - 1))); do grep -E "^requests:|^status codes:" "$WORK/h2load-$p.log" | sed "s/^/h2load $p: /"; done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("mockapns send:", {k: v for k, v in d.items() if not isinstance(v, (dict, list))})' "$WORK/send.json" \
    || cat "$WORK/send.json"

wait "$WATCH"   # samples RSS and descriptors until every record is written and the connections are gone
kill -TERM "$SERVER"
status=0; wait "$SERVER" || status=$?
[ "$status" -eq 0 ] || { echo "soak: mockapns serve exited with $status" >&2; cat "$WORK/serve.log" >&2; }
python3 scripts/soak-watch.py --verify --records "$WORK/records.jsonl" --total "$TOTAL" --state "$WORK/watch.json" \
    --seconds "$(python3 -c "print($end - $start)")"
[ "$status" -eq 0 ]
