#!/usr/bin/env bash
# Transport benchmark: our HTTP2 module (bench/HTTP2BenchServer, trivial 200 handler) against nghttpd,
# both on TLS with the same certificate, both loaded by the same h2load command in the same run.
#
#   bench/transport.sh [requests=200000] [clients=4] [streams=100]
#
# Fairness choices:
#   - both servers get one worker per core: our --threads $(nproc), nghttpd -n $(nproc);
#   - nghttpd serves an empty file (200, no body; it adds date/content-length/last-modified headers),
#     ours answers 200 with no body;
#   - h2load: TLS, -c clients -m streams, POST of a 300-byte body (-d), same flags for both;
#   - h2load runs on the same machine, so it competes for the same cores in both runs.
# Prints both rates and the ratio ours/nghttpd. Environment: CERT, KEY (default certs/server*.pem, or a
# throwaway pair made with openssl), ROUNDS (default 3: best of N for each server), HTTP2BENCH (a built
# HTTP2BenchServer to run instead of building one), CG=1 (then also callgrind instructions per request of ours,
# over CG_REQUESTS=20000 after a warm-up).
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${1:-200000}
CLIENTS=${2:-4}
STREAMS=${3:-100}
ROUNDS=${ROUNDS:-3}
CORES=$(nproc)
source bench/lib.sh

for tool in h2load nghttpd openssl; do
    command -v "$tool" >/dev/null || { echo "transport.sh: $tool not found (apt-get install nghttp2-client nghttp2-server openssl)" >&2; exit 1; }
done

CERT=${CERT:-certs/server.pem}
KEY=${KEY:-certs/server-key.pem}
if [ ! -f "$CERT" ] || [ ! -f "$KEY" ]; then
    CERT=$WORK/server.pem; KEY=$WORK/server-key.pem
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$KEY" -out "$CERT" \
        -days 1 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
fi

if [ -n "${HTTP2BENCH:-}" ]; then
    BIN=$HTTP2BENCH
else
    echo "building HTTP2BenchServer (release)…" >&2
    swift build -c release --product HTTP2BenchServer >&2
    BIN=$(swift build -c release --show-bin-path)/HTTP2BenchServer
fi

head -c 300 /dev/urandom | base64 -w0 | head -c 300 > "$WORK/body"
mkdir -p "$WORK/htdocs"
: > "$WORK/htdocs/index.html"


OURS_PORT=$(free_port)
"$BIN" --cert "$CERT" --key "$KEY" --port "$OURS_PORT" --threads "$CORES" > "$WORK/ours.log" 2>&1 &
PIDS+=($!)
NGHTTPD_PORT=$(free_port)
nghttpd -n "$CORES" -a 127.0.0.1 -d "$WORK/htdocs" "$NGHTTPD_PORT" "$KEY" "$CERT" > "$WORK/nghttpd.log" 2>&1 &
PIDS+=($!)

wait_port "$OURS_PORT"
wait_port "$NGHTTPD_PORT"

run() {  # $1 = port → prints req/s; fails unless every request succeeded
    local out
    out=$(h2load -n "$REQUESTS" -c "$CLIENTS" -m "$STREAMS" -d "$WORK/body" "https://127.0.0.1:$1/index.html")
    if ! grep -q "requests: $REQUESTS total, $REQUESTS started, $REQUESTS done, $REQUESTS succeeded, 0 failed, 0 errored" <<<"$out"; then
        echo "h2load against port $1 had failures:" >&2; echo "$out" >&2; exit 1
    fi
    if ! grep -q "status codes: $REQUESTS 2xx" <<<"$out"; then
        echo "h2load against port $1 got non-2xx answers:" >&2; echo "$out" >&2; exit 1
    fi
    grep -E "^finished in" <<<"$out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/'
}

# Rounds alternate between the servers so that background load hits both alike.
OURS_RATES=(); NGHTTPD_RATES=()
for round in $(seq 1 "$ROUNDS"); do
    ours=$(run "$OURS_PORT")
    theirs=$(run "$NGHTTPD_PORT")
    echo "round $round: ours $ours req/s, nghttpd $theirs req/s" >&2
    OURS_RATES+=("$ours"); NGHTTPD_RATES+=("$theirs")
done

echo "h2load -n $REQUESTS -c $CLIENTS -m $STREAMS, POST 300 B, TLS, $CORES cores, $ROUNDS rounds"
python3 - "${OURS_RATES[*]}" "${NGHTTPD_RATES[*]}" "$CORES" <<'PY'
import statistics, sys
ours = [float(x) for x in sys.argv[1].split()]
theirs = [float(x) for x in sys.argv[2].split()]
cores = sys.argv[3]
print("ours (HTTP2BenchServer, %s loops): best %.0f req/s, median %.0f req/s" % (cores, max(ours), statistics.median(ours)))
print("nghttpd (-n %s):                   best %.0f req/s, median %.0f req/s" % (cores, max(theirs), statistics.median(theirs)))
print("ratio ours/nghttpd: %.2f (best), %.2f (median)" % (max(ours) / max(theirs), statistics.median(ours) / statistics.median(theirs)))
PY

if [ "${CG:-0}" = 1 ]; then
    CG_REQUESTS=${CG_REQUESTS:-20000}
    for name in ours; do
        CG_PORT=$(free_port); CG_NAME=transport.$name
        cg_start "$BIN" --cert "$CERT" --key "$KEY" --port "$CG_PORT" --threads "$CORES"
        h2load -n 2000 -c "$CLIENTS" -m "$STREAMS" -d "$WORK/body" "https://127.0.0.1:$CG_PORT/index.html" > /dev/null
        ir=$(cg_count h2load -n "$CG_REQUESTS" -c "$CLIENTS" -m "$STREAMS" -d "$WORK/body" "https://127.0.0.1:$CG_PORT/index.html")
        grep -q "$CG_REQUESTS succeeded, 0 failed" "$WORK/load.out" || { echo "callgrind load had failures" >&2; cat "$WORK/load.out" >&2; exit 1; }
        echo "callgrind: $name $((ir / CG_REQUESTS)) instructions/request (h2load -c $CLIENTS -m $STREAMS)"
    done
fi
