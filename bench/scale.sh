#!/usr/bin/env bash
# Scale-out benchmark (issue 21): several mocks sharing one PostgreSQL store, as behind a TCP load balancer.
#
#   make bench-scale        env: PUSHES=300000 TOKENS=10000 INSTANCES=3 CONCURRENCY=300 MOCKAPNS=path
#
# A throwaway PostgreSQL cluster (Debian's server, initdb into a temporary folder, as the postgres user when run as
# root, on a free port), INSTANCES `mockapns serve --store` processes, and one `mockapns send` spreading PUSHES
# pushes over TOKENS device tokens across them (one --url per instance; each push numbered in its body with
# --payload-template). Then, the same run with `--record FILE` instead of `--store` (the embedded default), so the
# two are compared in one script on the same machine state. It checks that the store holds exactly PUSHES records,
# each (token, push number) once, and that `mockapns expect --store` agrees; it prints end-to-end pushes/s, server
# CPU per request for both (from /proc, every serve process), the database's CPU per record, and the time of a
# retention prune of half the records. Then (issue 37) three h2load senders at once, each with PUSHES / INSTANCES
# fan-out pushes over TLS to its own instance: the end-to-end rate counts until the store holds every record, with
# the database's CPU per record. Everything runs on this machine: sender, instances and database share its
# cores, so the figures are what one machine sustains, not what the mock alone would.
set -euo pipefail
cd "$(dirname "$0")/.."
PUSHES=${PUSHES:-300000}
TOKENS=${TOKENS:-10000}
INSTANCES=${INSTANCES:-3}
CONCURRENCY=${CONCURRENCY:-300}
source bench/lib.sh

use_mockapns
source bench/pg.sh

printf '%s' '{"aps":{"alert":{"title":"Your order has shipped","body":"Parcel {{n}} left our warehouse and arrives tomorrow."},"badge":1},"orderId":"{{n}}"}' > "$WORK/payload.json"
write_tokens $TOKENS "$WORK/tokens.txt"

# Starts INSTANCES servers with extra flags "$@"; sets SERVE_PIDS and URLS.
start_instances() {
    SERVE_PIDS=(); URLS=()
    local i port
    for i in $(seq 1 "$INSTANCES"); do
        port=$(free_port)
        "$BIN" serve --port "$port" --no-control --quiet --loops 1 "${@//\{i\}/$i}" \
            > "$WORK/serve.$i.log" 2>&1 &
        SERVE_PIDS+=($!); PIDS+=($!)
        URLS+=(--url "https://127.0.0.1:$port")
    done
    for i in $(seq 1 "$INSTANCES"); do wait_port "${URLS[$((2 * i - 1))]##*:}"; done
}

# Sum of the servers' CPU milliseconds so far.
servers_cpu_ms() {
    local total=0 pid
    for pid in "${SERVE_PIDS[@]}"; do
        read -r user sys < <(proc_cpu_ms "$pid")
        total=$(python3 -c "print($total + $user + $sys)")
    done
    echo "$total"
}

# Sum of the CPU milliseconds the servers' APNs event loops (threads named apns-loop-N) have used so far: the
# path every push waits on, apart from the writer threads that store or file records behind it.
loops_cpu_ms() {
    python3 - "${SERVE_PIDS[@]}" <<'PY'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
total = 0
for pid in sys.argv[1:]:
    for tid in os.listdir("/proc/%s/task" % pid):
        try:
            if not open("/proc/%s/task/%s/comm" % (pid, tid)).read().startswith("apns-loop"):
                continue
            f = open("/proc/%s/task/%s/stat" % (pid, tid)).read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(f[11]) + int(f[12])
print(total * 1000 // tick)
PY
}

stop_instances() {
    local pid
    for pid in "${SERVE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${SERVE_PIDS[@]}"; do wait "$pid" || { echo "a serve process exited $?" >&2; cat "$WORK"/serve.*.log >&2; exit 1; }; done
}

# One run: servers started with "$@", PUSHES pushes through them; prints "seconds server_cpu_ms db_cpu_ms loops_cpu_ms".
run() {
    start_instances "$@"
    local cpu0 db0 start end cpu1 db1 loops0 loops1
    cpu0=$(servers_cpu_ms); db0=$(pg_cpu_ms); loops0=$(loops_cpu_ms)
    start=$(date +%s.%N)
    "$BIN" send "$WORK/payload.json" --token-file "$WORK/tokens.txt" --payload-template --topic com.example.app \
        --push-type alert "${URLS[@]}" --count "$PUSHES" --concurrency "$CONCURRENCY" --connections 2 --json \
        > "$WORK/send.json" 2> "$WORK/send.err" || { echo "send failed" >&2; cat "$WORK/send.json" "$WORK/send.err" >&2; exit 1; }
    # The end to end time includes the store's commit of the last batch: wait until it holds every record.
    if [[ " $* " == *" --store "* ]]; then
        for _ in $(seq 1 600); do [ "$(sql "SELECT count(*) FROM mockapns_records WHERE namespace = '$NS'")" -ge "$PUSHES" ] && break; sleep 0.1; done
    fi
    end=$(date +%s.%N)
    cpu1=$(servers_cpu_ms); db1=$(pg_cpu_ms); loops1=$(loops_cpu_ms)
    stop_instances
    python3 -c "print('%.3f %.0f %.0f %.0f' % ($end - $start, $cpu1 - $cpu0, $db1 - $db0, $loops1 - $loops0))"
}

# Three (INSTANCES) h2load senders at once, each to its own instance, each push to its own device token; prints
# "seconds answered_seconds db_cpu_ms". The end is when the store holds every record.
run_h2load() {
    local ns=$1; shift
    start_instances --store "$STORE" --store-namespace "$ns" --instance-name "h2load-{i}" "$@"
    local per=$((PUSHES / INSTANCES)) token i db0 db1 start answered end pids=()
    token=$("$BIN" token)
    for i in $(seq 1 "$INSTANCES"); do
        sed "s|^|${URLS[$((2 * i - 1))]}/3/device/|" "$WORK/tokens.txt" > "$WORK/uris.$i"
    done
    db0=$(pg_cpu_ms); start=$(date +%s.%N)
    for i in $(seq 1 "$INSTANCES"); do
        h2load -n "$per" -c 2 -m 100 -i "$WORK/uris.$i" -d "$WORK/payload.json" -H "authorization: bearer $token" \
            -H "apns-topic: com.example.app" -H "apns-push-type: alert" > "$WORK/h2load.$i.out" 2>&1 &
        pids+=($!)
    done
    for i in $(seq 1 "$INSTANCES"); do
        wait "${pids[$((i - 1))]}" || true
        grep -q "status codes: $per 2xx" "$WORK/h2load.$i.out" || { echo "h2load $i had failures" >&2; cat "$WORK/h2load.$i.out" >&2; exit 1; }
    done
    answered=$(date +%s.%N)
    # Done when every instance's newest stored record is its last (seq $per): each instance's batches commit in order.
    # Read through the id index, so the wait itself costs the database next to nothing (a count(*) every 50 ms would
    # scan the growing table and be most of what the database did).
    local newest
    for _ in $(seq 1 2400); do
        newest=""
        for i in $(seq 1 "$INSTANCES"); do
            newest+="$(sql "SELECT seq FROM mockapns_records WHERE namespace = '$ns' AND instance = 'h2load-$i' ORDER BY id DESC LIMIT 1")"
        done
        [ "$newest" = "$(for i in $(seq 1 "$INSTANCES"); do printf '%s' "$per"; done)" ] && break
        sleep 0.05
    done
    end=$(date +%s.%N); db1=$(pg_cpu_ms)
    stop_instances
    python3 -c "print('%.3f %.3f %.0f' % ($end - $start, $answered - $start, $db1 - $db0))"
}

NS=scale
if [ "${H2LOAD_ONLY:-0}" != 1 ]; then
read -r store_s store_cpu store_db store_loops < <(run --store "$STORE" --store-namespace "$NS" --instance-name "scale-{i}")
accepted=$(python3 -c "import json; print(json.load(open('$WORK/send.json'))['accepted'])")
read -r file_s file_cpu file_db file_loops < <(run --record "$WORK/rec.{i}.jsonl")

# --- checks: exactly PUSHES records, each (token, push number) once, and expect agrees ---
stored=$(sql "SELECT count(*) FROM mockapns_records WHERE namespace = '$NS'")
distinct=$(sql "SELECT count(DISTINCT (token, substring(line from 'Parcel ([0-9]+) left'))) FROM mockapns_records WHERE namespace = '$NS'")
per_instance=$(sql "SELECT string_agg(instance || '=' || n, ' ' ORDER BY instance) FROM (SELECT instance, count(*) n FROM mockapns_records WHERE namespace = '$NS' GROUP BY 1) x")
per_token=$(sql "SELECT min(n) || '-' || max(n) FROM (SELECT token, count(*) n FROM mockapns_records WHERE namespace = '$NS' GROUP BY 1) x")
"$BIN" expect --store "$STORE" --store-namespace "$NS" --topic com.example.app --count "$PUSHES" > "$WORK/expect.out" 2>&1 \
    && expect_ok=yes || expect_ok="no ($(head -c 300 "$WORK/expect.out"))"
one_token=$(head -1 "$WORK/tokens.txt")
"$BIN" expect --store "$STORE" --store-namespace "$NS" --token "$one_token" --count $((PUSHES / TOKENS)) > "$WORK/expect1.out" 2>&1 \
    && expect_token=yes || expect_token="no ($(head -c 300 "$WORK/expect1.out"))"

# --- a retention prune of half the records, timed in the database (the pruner's own statements) ---
prune_start=$(date +%s.%N)
"$BIN" serve --port "$(free_port)" --no-control --quiet --store "$STORE" --store-namespace "$NS" \
    --retain-count $((PUSHES / 2)) --retain-interval 1 > "$WORK/prune.log" 2>&1 &
PRUNE_PID=$!; PIDS+=($PRUNE_PID)
for _ in $(seq 1 1200); do [ "$(sql "SELECT count(*) FROM mockapns_records WHERE namespace = '$NS'")" -le $((PUSHES / 2)) ] && break; sleep 0.1; done
prune_end=$(date +%s.%N)
kill -TERM "$PRUNE_PID"; wait "$PRUNE_PID" || true
left=$(sql "SELECT count(*) FROM mockapns_records WHERE namespace = '$NS'")

echo "scale-out: $INSTANCES instances, $PUSHES pushes to $TOKENS tokens, one sender (--concurrency $CONCURRENCY, 2 connections per instance), $(nproc) cores shared by all"
python3 - "$PUSHES" "$store_s" "$store_cpu" "$store_db" "$store_loops" "$file_s" "$file_cpu" "$file_loops" <<'EOF'
import sys
n = int(sys.argv[1]); ss, sc, sd, sl, fs, fc, fl = map(float, sys.argv[2:])
print("%-16s %10s %14s %14s %16s" % ("recording", "pushes/s", "server µs/req", "loops µs/req", "db µs/record"))
print("%-16s %10.0f %14.1f %14.1f %16.1f" % ("--store", n / ss, sc * 1000 / n, sl * 1000 / n, sd * 1000 / n))
print("%-16s %10.0f %14.1f %14.1f %16s" % ("--record FILE", n / fs, fc * 1000 / n, fl * 1000 / n, "-"))
print("server CPU per request, --store / --record FILE: %.2f× (the APNs loops alone: %.2f×)" % (sc / fc, sl / max(fl, 1)))
EOF
echo "sender: accepted $accepted of $PUSHES"
echo "store: $stored records ($per_instance); distinct (token, push number): $distinct; pushes per token: $per_token"
echo "expect --store --count $PUSHES: $expect_ok; expect --store --token <one> --count $((PUSHES / TOKENS)): $expect_token"
python3 -c "print('prune to --retain-count %d: %d records left after %.2f s (serve start and first prune pass included)' % ($PUSHES // 2, $left, $prune_end - $prune_start))"
[ "$stored" = "$PUSHES" ] && [ "$distinct" = "$PUSHES" ] && [ "$accepted" = "$PUSHES" ] && [ "$expect_ok" = yes ] \
    || { echo "scale.sh: CHECK FAILED" >&2; exit 1; }
fi

# --- three senders at once (issue 37): h2load per instance, in both --store-events modes ---
command -v h2load >/dev/null || { echo "scale.sh: h2load not found (apt-get install nghttp2-client)" >&2; exit 1; }
# MODES=notify compares with a mockapns from before --store-events (notify is its only way).
for mode in ${MODES:-notify poll}; do
    flags=(); [ "$mode" = notify ] || flags=(--store-events "$mode")
    read -r h_s h_answered h_db < <(run_h2load "h2load-$mode" "${flags[@]}")
    h_n=$(( (PUSHES / INSTANCES) * INSTANCES ))
    h_stored=$(sql "SELECT count(*) FROM mockapns_records WHERE namespace = 'h2load-$mode'")
    python3 -c "print('three h2load senders (--store-events %s): %d pushes answered in %.2f s (%.0f/s); all %d recorded after %.2f s: %.0f recorded pushes/s end to end; db %.1f µs/record' % ('$mode', $h_n, $h_answered, $h_n / $h_answered, $h_stored, $h_s, $h_stored / $h_s, $h_db * 1000 / $h_n))"
    [ "$h_stored" = "$h_n" ] || { echo "scale.sh: CHECK FAILED: the store holds $h_stored of $h_n records" >&2; exit 1; }
done
