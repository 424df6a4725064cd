#!/usr/bin/env bash
# FCM front door benchmark: the server's CPU per FCM message through `serve --fcm` (messages:send → for iOS the APNs
# push FCM sends and the mock's pipeline, for Android the virtual Android device → the answer mapped back), beside its
# CPU per direct APNs push, in the same run and the same process.
#
#   bench/fcm.sh        env: MOCKAPNS=path (default: the make dist build) REQUESTS=20000 ROUNDS=3 REGISTRATIONS=10000
#                            CG=0 CG_KEEP= PROFILE= ADMIN=0
#
# REGISTRATIONS app instances are registered through the control API, every other one iOS, the rest Android. Four
# loads a round, each REQUESTS requests over TLS, 4 connections of 100 streams:
#   - APNs push: h2load, fan-out to 10 000 device tokens (a URI file, one JWT, one alert): the reference;
#   - FCM iOS: bench/fcm-load (Go, standard library), each message to the next iOS registration in turn, its own body
#     (its number in the title, the body and the data), with the bearer token of the service account's OAuth grant;
#   - FCM mixed: the same over every registration, so half iOS, half Android;
#   - the FCM listener alone: the same client on a path none of Google's APIs has (404 at once).
# The figure is the serving process's user + system CPU (from /proc) per request, best of ROUNDS, and the ratios FCM iOS /
# APNs and FCM mixed / APNs. CG=1 runs the server under callgrind and counts its instructions per request for each load
# instead (stable on a busy machine; use a smaller REQUESTS, e.g. 2000; CG_KEEP=folder keeps each load's profile).
# PROFILE=file records perf samples of the FCM iOS load instead. ADMIN=1 then times firebase-admin's
# `send_each_async` of 500 messages (bench/fcm-load/admin.py, with the Python kit's venv, against a mock of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${REQUESTS:-20000}
ROUNDS=${ROUNDS:-3}
VENV=kits/python/.venv
if [ "${ADMIN:-0}" = 1 ] && ! { [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import firebase_admin, mockapns' 2>/dev/null; }; then
    echo "fcm.sh: ADMIN=1 runs firebase-admin from the Python kit's venv, and $VENV has none: run make kits/python/.venv/.installed" >&2
    exit 1
fi
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

# The FCM side: the registrations ("PLATFORM TOKEN" a line) and a bearer token from the OAuth grant, as google-auth
# makes it.
(cd bench/fcm-load && GOPROXY=off GOFLAGS=-mod=mod go build -o "$WORK/fcm-load" .)
python3 bench/fcm-load/register.py "$CONTROL" "${REGISTRATIONS:-10000}" >"$WORK/registrations"
field private_key <"$ACCOUNT" >"$WORK/key.pem"
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
NOW=$(date +%s)
HEADER=$(printf '{"typ":"JWT","alg":"RS256","kid":"%s"}' "$(field private_key_id <"$ACCOUNT")" | b64url)
CLAIMS=$(printf '{"iss":"%s","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":%s,"exp":%s}' \
    "$(field client_email <"$ACCOUNT")" "$NOW" "$((NOW + 3600))" | b64url)
SIGNATURE=$(printf '%s.%s' "$HEADER" "$CLAIMS" | openssl dgst -sha256 -sign "$WORK/key.pem" | b64url)
BEARER=$(curl -fsS --cacert "$WORK/ca/ca.pem" --data "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$HEADER.$CLAIMS.$SIGNATURE" \
    "$FCM/token" | field access_token)
printf '%s' "$BEARER" >"$WORK/bearer"

# The APNs side: 10 000 device tokens, one JWT, the same alert.
JWT=$("$MOCKAPNS" token --json | field token)
python3 -c 'import os, sys; [print(sys.argv[1] + "/3/device/" + os.urandom(32).hex()) for _ in range(10000)]' "$APNS" >"$WORK/uris"
printf '{"aps":{"alert":{"title":"Order 1234","body":"Your order has shipped"}},"order":"1234"}' >"$WORK/apns.json"

cpu() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
TICK=$(getconf CLK_TCK)
run_load() {   # h2load|fcm-load arguments…: REQUESTS requests, 4 connections of 100 streams; fails unless all answered
    local tool=$1; shift
    if [ "$tool" = h2load ]; then
        h2load -n "$REQUESTS" -c 4 -m 100 "$@" >"$WORK/load.out" 2>&1 || { cat "$WORK/load.out" >&2; exit 1; }
        grep -q "status codes: $REQUESTS 2xx" "$WORK/load.out" || { cat "$WORK/load.out" >&2; exit 1; }
        grep -E '^finished in' "$WORK/load.out" | sed 's/^/h2load: /' >>"$WORK/loads.log"
    else
        "$WORK/fcm-load" -n "$REQUESTS" -c 4 -m 100 "$@" >"$WORK/load.out" 2>&1 || { cat "$WORK/load.out" >&2; exit 1; }
        cat "$WORK/load.out" >>"$WORK/loads.log"
    fi
}
measure() {   # h2load|fcm-load arguments…: prints µs of server CPU per request (CG=1: instructions per request)
    local before after
    if [ "${CG:-0}" = 1 ]; then
        callgrind_control -z "$PID" >/dev/null 2>&1; callgrind_control -i on "$PID" >/dev/null 2>&1
        run_load "$@"
        callgrind_control -i off "$PID" >/dev/null 2>&1; rm -f "$WORK"/cg.out.*; callgrind_control -d "$PID" >/dev/null 2>&1
        for _ in $(seq 300); do grep -qs '^totals:' "$WORK"/cg.out.* && break; sleep 0.1; done   # the dump is written later
        awk '/^totals:/ { print int($2 / '"$REQUESTS"'); exit }' "$WORK"/cg.out.*
        if [ -n "${CG_KEEP:-}" ]; then   # CG_KEEP=folder keeps each load's profile, numbered in order
            mkdir -p "$CG_KEEP" && cp "$WORK"/cg.out.* "$CG_KEEP/fcm.$(($(ls "$CG_KEEP" | wc -l) + 1)).callgrind"
        fi
        return 0
    fi
    before=$(cpu)
    run_load "$@"
    after=$(cpu)
    python3 -c "print(round(($after - $before) / $TICK * 1e6 / $REQUESTS, 1))"
}
apns_args=(h2load -i "$WORK/uris" -d "$WORK/apns.json" -H "authorization: bearer $JWT" -H "apns-topic: com.example.app"
           -H "apns-push-type: alert")
fcm=(fcm-load -url "$FCM" -ca "$WORK/ca/ca.pem" -tokens "$WORK/registrations")
ios_args=("${fcm[@]}" -bearer-file "$WORK/bearer" -platform ios)
mixed_args=("${fcm[@]}" -bearer-file "$WORK/bearer")
# The FCM listener alone: a path none of Google's APIs has (404 at once), to tell the transport's cost from the rest.
bare_args=("${fcm[@]}" -path /nowhere -status 404)
# Warm-up: every device of the loads has had a message, the connections' code paths have run.
measure "${apns_args[@]}" >/dev/null; measure "${mixed_args[@]}" >/dev/null; measure "${ios_args[@]}" >/dev/null
if [ -n "${PROFILE:-}" ]; then   # PROFILE=file: perf samples of the FCM iOS load only, for `perf report -i file`
    perf record -F 2000 -g -o "$PROFILE" -p "$PID" -- sleep 6 >/dev/null 2>&1 &
    PERF=$!
    sleep 0.5; measure "${ios_args[@]}" >/dev/null; measure "${ios_args[@]}" >/dev/null
    wait "$PERF" || true
    exit 0
fi
unit=$([ "${CG:-0}" = 1 ] && echo "instructions" || echo "µs CPU")
best() { python3 -c "print(min(x for x in [$1, ${2:-1e18}]))"; }
best_apns=""; best_ios=""; best_mixed=""; best_bare=""
for round in $(seq "$ROUNDS"); do
    a=$(measure "${apns_args[@]}"); i=$(measure "${ios_args[@]}"); m=$(measure "${mixed_args[@]}"); b=$(measure "${bare_args[@]}")
    echo "round $round ($unit per request): APNs push $a, FCM iOS $i, FCM mixed $m, FCM listener alone (404) $b"
    best_apns=$(best "$a" "$best_apns"); best_ios=$(best "$i" "$best_ios"); best_mixed=$(best "$m" "$best_mixed")
    best_bare=$(best "$b" "$best_bare")
done
tail -4 "$WORK/loads.log" | sed 's/^/last round: /'
python3 -c "print('best ($unit of the server per request): APNs push $best_apns, FCM iOS $best_ios, FCM mixed $best_mixed, '
             'FCM listener alone $best_bare; FCM iOS / APNs = %.2f, FCM mixed / APNs = %.2f'
             % ($best_ios / $best_apns, $best_mixed / $best_apns))"

if [ "${ADMIN:-0}" = 1 ]; then   # firebase-admin's send_each_async of 500, against a mock the Python kit starts
    "$VENV/bin/python" bench/fcm-load/admin.py "$MOCKAPNS" "$ROUNDS"
fi
