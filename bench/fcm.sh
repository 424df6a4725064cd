#!/usr/bin/env bash
# FCM front door benchmark: the server's CPU per iOS message through `serve --fcm` (messages:send → the APNs push FCM
# sends → the mock's pipeline → the answer mapped back), beside its CPU per direct APNs push, in the same run and the
# same process.
#
#   bench/fcm.sh        env: MOCKAPNS=path (default: the make dist build) REQUESTS=20000 ROUNDS=3 CG=0
#
# Both loads come from h2load over TLS, 4 connections of 100 streams: APNs pushes fan out to 10 000 device tokens
# (a URI file, one JWT); FCM messages go to one registration token with one bearer token, since h2load sends one body
# (each message still gets its own gcm.message_id, so every APNs push it makes is a new payload), and a third load
# measures the FCM listener alone (a 404 path). The figure is the serving process's user + system CPU (from /proc) per
# request, and the ratio FCM / APNs. PROFILE=file records perf samples of the FCM load instead. CG=1 runs the server
# under callgrind and counts its instructions per request for each load instead (stable on a busy machine; use a
# smaller REQUESTS, e.g. 2000).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${REQUESTS:-20000}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
if [ -z "${MOCKAPNS:-}" ]; then
    tarball=$(ls dist/mockapns-*-linux-*.tar.gz 2>/dev/null | head -1)
    [ -n "$tarball" ] || { echo "fcm.sh: no dist/ tarball: run make dist, or set MOCKAPNS" >&2; exit 1; }
    mkdir "$WORK/bin" && tar -xzf "$tarball" -C "$WORK/bin" --strip-components=1
    MOCKAPNS="$WORK/bin/mockapns"
fi
RUN=()
SERVER=$MOCKAPNS
if [ "${CG:-0}" = 1 ]; then
    # valgrind hands sigsuspend a read-only mask, which libdispatch writes to: a shim passes a writable copy.
    printf '%s\n' '#define _GNU_SOURCE' '#include <signal.h>' '#include <unistd.h>' '#include <sys/syscall.h>' \
        'int sigsuspend(const sigset_t *mask) { sigset_t copy = *mask; return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)8); }' \
        >"$WORK/sigsuspend.c"
    cc -shared -fPIC -O2 -o "$WORK/sigsuspend.so" "$WORK/sigsuspend.c"
    # valgrind 3.19 cannot read Swift 6's DWARF 5: the server runs as a copy without it.
    objcopy --strip-debug "$MOCKAPNS" "$WORK/mockapns.nodebug"
    SERVER="$WORK/mockapns.nodebug"
    RUN=(env LD_PRELOAD="$WORK/sigsuspend.so" valgrind --tool=callgrind --instr-atstart=no --dump-instr=no
         --callgrind-out-file="$WORK/cg.out")
fi
XDG_DATA_HOME="$WORK/data" "${RUN[@]}" "$SERVER" serve --port 0 --control-port 0 --fcm --fcm-port 0 --fcm-https-port 0 \
    --ca-dir "$WORK/ca" --quiet --memory-limit 1000 --ready-file "$WORK/ready.json" 2>"$WORK/serve.err" &
PID=$!
for _ in $(seq 3000); do [ -s "$WORK/ready.json" ] && break; sleep 0.1; done
[ -s "$WORK/ready.json" ] || { echo "fcm.sh: the mock never became ready" >&2; cat "$WORK/serve.err" >&2; exit 1; }
field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
READY=$(cat "$WORK/ready.json")
APNS=$(field apns_url <<<"$READY"); FCM=$(field fcm_url <<<"$READY"); CONTROL=$(field control_url <<<"$READY")
ACCOUNT=$(field fcm_service_account <<<"$READY")

# The FCM side: a registration and a bearer token from the OAuth grant, as google-auth makes it.
TOKEN=$(curl -fsS -H 'content-type: application/json' --data '{"project":"mockapns-test","platform":"ios","bundle_id":"com.example.app"}' \
    "$CONTROL/api/v1/fcm/registrations" | field token)
field private_key <"$ACCOUNT" >"$WORK/key.pem"
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
NOW=$(date +%s)
HEADER=$(printf '{"typ":"JWT","alg":"RS256","kid":"%s"}' "$(field private_key_id <"$ACCOUNT")" | b64url)
CLAIMS=$(printf '{"iss":"%s","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":%s,"exp":%s}' \
    "$(field client_email <"$ACCOUNT")" "$NOW" "$((NOW + 3600))" | b64url)
SIGNATURE=$(printf '%s.%s' "$HEADER" "$CLAIMS" | openssl dgst -sha256 -sign "$WORK/key.pem" | b64url)
BEARER=$(curl -fsS --cacert "$WORK/ca/ca.pem" --data "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$HEADER.$CLAIMS.$SIGNATURE" \
    "$FCM/token" | field access_token)
printf '{"message":{"token":"%s","notification":{"title":"Order 1234","body":"Your order has shipped"},"data":{"order":"1234"}}}' "$TOKEN" >"$WORK/fcm.json"

# The APNs side: 10 000 device tokens, one JWT, the same alert.
JWT=$("$MOCKAPNS" token --json | field token)
python3 -c 'import os, sys; [print(sys.argv[1] + "/3/device/" + os.urandom(32).hex()) for _ in range(10000)]' "$APNS" >"$WORK/uris"
printf '{"aps":{"alert":{"title":"Order 1234","body":"Your order has shipped"}},"order":"1234"}' >"$WORK/apns.json"

cpu() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
TICK=$(getconf CLK_TCK)
measure() {   # h2load arguments…: prints µs of server CPU per request (CG=1: instructions per request)
    local before after
    if [ "${CG:-0}" = 1 ]; then
        callgrind_control -z "$PID" >/dev/null 2>&1; callgrind_control -i on "$PID" >/dev/null 2>&1
        h2load -n "$REQUESTS" -c 4 -m 100 "$@" >"$WORK/h2load.out" 2>&1 || { cat "$WORK/h2load.out" >&2; exit 1; }
        callgrind_control -i off "$PID" >/dev/null 2>&1; rm -f "$WORK"/cg.out.*; callgrind_control -d "$PID" >/dev/null 2>&1
        for _ in $(seq 300); do grep -qs '^totals:' "$WORK"/cg.out.* && break; sleep 0.1; done   # the dump is written later
        awk '/^totals:/ { print int($2 / '"$REQUESTS"'); exit }' "$WORK"/cg.out.*
        if [ -n "${CG_KEEP:-}" ]; then   # CG_KEEP=folder keeps each load's profile, numbered in order
            mkdir -p "$CG_KEEP" && cp "$WORK"/cg.out.* "$CG_KEEP/fcm.$(($(ls "$CG_KEEP" | wc -l) + 1)).callgrind"
        fi
        return 0
    fi
    before=$(cpu)
    h2load -n "$REQUESTS" -c 4 -m 100 "$@" >"$WORK/h2load.out" 2>&1 || { cat "$WORK/h2load.out" >&2; exit 1; }
    grep -q "$REQUESTS done" "$WORK/h2load.out" || { grep -E "requests:" "$WORK/h2load.out" >&2; exit 1; }
    after=$(cpu)
    python3 -c "print(round(($after - $before) / $TICK * 1e6 / $REQUESTS, 1))"
}
apns_args=(-i "$WORK/uris" -d "$WORK/apns.json" -H "authorization: bearer $JWT" -H "apns-topic: com.example.app" -H "apns-push-type: alert")
fcm_args=(-d "$WORK/fcm.json" -H "authorization: Bearer $BEARER" -H "content-type: application/json" "$FCM/v1/projects/mockapns-test/messages:send")
measure "${apns_args[@]}" >/dev/null; measure "${fcm_args[@]}" >/dev/null   # warm-up
if [ -n "${PROFILE:-}" ]; then   # PROFILE=file: perf samples of the FCM load only, for `perf report -i file`
    perf record -F 2000 -g -o "$PROFILE" -p "$PID" -- sleep 6 >/dev/null 2>&1 &
    PERF=$!
    sleep 0.5; measure "${fcm_args[@]}" >/dev/null; measure "${fcm_args[@]}" >/dev/null
    wait "$PERF" || true
    exit 0
fi
# The FCM listener alone: a path none of Google's APIs has (404 at once), to tell the transport's cost from the rest.
bare_args=(-d "$WORK/fcm.json" -H "content-type: application/json" "$FCM/nowhere")
best_apns=""; best_fcm=""
for round in $(seq "$ROUNDS"); do
    a=$(measure "${apns_args[@]}"); f=$(measure "${fcm_args[@]}"); b=$(measure "${bare_args[@]}")
    unit=$([ "${CG:-0}" = 1 ] && echo "instructions" || echo "µs CPU")
    echo "round $round: APNs push $a $unit, FCM iOS message $f $unit, FCM listener alone (404) $b $unit"
    best_apns=$(python3 -c "print(min(x for x in [$a, ${best_apns:-1e9}]))"); best_fcm=$(python3 -c "print(min(x for x in [$f, ${best_fcm:-1e9}]))")
done
grep -E 'finished in|status codes' "$WORK/h2load.out" | sed 's/^/last FCM run: /'
python3 -c "print('best: APNs push $best_apns, FCM iOS message $best_fcm ($unit of the server per request); FCM / APNs = %.2f' % ($best_fcm / $best_apns))"
