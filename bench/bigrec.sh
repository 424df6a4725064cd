#!/usr/bin/env bash
# Big recordings (issue 26): time and peak RSS of the inspection commands on a RECORDS-record `--record` file,
# for the binary under test (AFTER) and, when BEFORE is set, a binary to compare with (e.g. one built from an older
# commit). The file is made from a real recording: `mockapns serve --record` takes a few pushes from `mockapns send`,
# and the last line is replicated with rising seq, apns-id, device token and payload counter `k`.
# Targets: every command < 100 MB peak RSS; `list --limit 5` and `show SEQ` < 0.5 s; `stats`, `expect` >= 100 MB/s.
#
#   bench/bigrec.sh            env: RECORDS=1000000  AFTER=path/to/mockapns (default: release build)  BEFORE=path
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-1000000}
source bench/lib.sh
if [ -z "${AFTER:-}" ]; then
    swift build -c release --product mockapns >&2
    AFTER=$(swift build -c release --show-bin-path)/mockapns
fi

# 1. A real recording to copy: three pushes through `mockapns serve --record`.
PORT=$(free_port)
"$AFTER" serve --port "$PORT" --no-control --quiet --record "$WORK/real.jsonl" > "$WORK/serve.log" 2>&1 &
PID=$!; PIDS+=($PID)
wait_port "$PORT"
printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel 4711 left our warehouse and arrives tomorrow."},"badge":1,"sound":"default"},"orderId":"4711","k":0}' > "$WORK/payload.json"
"$AFTER" send "$WORK/payload.json" --token 00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0 \
    --topic com.example.app --push-type alert --ca certs/ca.pem --url "https://127.0.0.1:$PORT" --count 3 > /dev/null
kill -TERM "$PID"; wait "$PID" || true

# 2. RECORDS lines like its last one.
python3 - "$WORK/real.jsonl" "$WORK/rec.jsonl" "$RECORDS" <<'PY'
import json, sys
line = open(sys.argv[1]).read().splitlines()[-1]
record = json.loads(line)
token, apns_id, seq = record["device_token"], record["response"]["apns_id"], record["seq"]
assert line.startswith('{"seq":%d,' % seq) and '"k":0}' in line and token in line and apns_id in line
template = line.replace("%", "%%").replace('{"seq":%d,' % seq, '{"seq":%(seq)d,', 1)
template = template.replace(token, "%(token)s").replace(apns_id, "%(id)s").replace('"k":0}', '"k":%(k)d}')
with open(sys.argv[2], "w") as out:
    for n in range(1, int(sys.argv[3]) + 1):
        out.write(template % {"seq": n, "token": "%064x" % n, "id": "00000000-0000-4000-8000-%012d" % n, "k": n - 1} + "\n")
PY
SIZE=$(stat -c %s "$WORK/rec.jsonl")
echo "recording: $RECORDS records, $((SIZE / 1000000)) MB ($((SIZE / RECORDS)) bytes a line)"

# 3. Each command, each binary: wall time and peak RSS (GNU time), output to a file.
measure() {   # label binary args...
    local label=$1 bin=$2; shift 2
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$bin" "$@" > "$WORK/out" 2> "$WORK/err" || [ $? -eq 1 ] || { cat "$WORK/err" >&2; exit 1; }
    read -r seconds kb < "$WORK/time"
    python3 -c "import sys; s=float(sys.argv[1]); kb=int(sys.argv[2]); size=int(sys.argv[3])
rate = '  %6.0f MB/s' % (size/1e6/s) if sys.argv[5] == 'rate' and s > 0 else ''
print('%-7s %-44s %7.2f s  %7.1f MB peak RSS%s' % (sys.argv[4], sys.argv[6], s, kb/1024, rate))" \
        "$seconds" "$kb" "$SIZE" "$label" "${RATE:-}" "$*"
}
for side in BEFORE AFTER; do
    bin=${!side:-}
    [ -n "$bin" ] || continue
    measure "$side" "$bin" list --file "$WORK/rec.jsonl" --limit 5
    measure "$side" "$bin" show --file "$WORK/rec.jsonl" "$((RECORDS / 2 + 1))"
    RATE=rate measure "$side" "$bin" stats --file "$WORK/rec.jsonl" --json
    RATE=rate measure "$side" "$bin" expect --file "$WORK/rec.jsonl" --where "k=$((RECORDS - 1))" --count 1
    measure "$side" "$bin" export --file "$WORK/rec.jsonl" -o "$WORK/export.jsonl"
done
