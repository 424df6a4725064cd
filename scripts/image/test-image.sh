#!/usr/bin/env bash
# make test-image: builds the image (build-image.sh; SKIP_BUILD=1 takes the one already tagged mockapns:<version>),
# starts it with a volume on a network of its own, and checks that
#   - the image carries its OCI labels and a HEALTHCHECK, and serve runs as an unprivileged user (PID 1's uid);
#   - the health check passes once the mock is up;
#   - a push from the host with curl is accepted over TLS verified against the CA the container exported
#     (GET /api/v1/ca.pem, the same file as the ready file's ca_file), and the repository's bundled CA is refused:
#     the container signs with a CA of its own;
#   - a second container on the network reaches the mock by its service name (https://mockapns:2197) and verifies
#     TLS against that CA (`mockapns send --ca`); it is refused with another CA, and by another name of the container
#     (a network alias the certificate does not carry);
#   - the control plane answers 401 without the token, and `podman exec <mock> mockapns stats` reads it with the
#     token given at `run`; started without one, the entrypoint makes a token, prints it, and only it is taken;
#   - SIGTERM (podman stop) exits 0 with every record in /data/records.jsonl;
#   - after a restart the CA is the same (kept in the volume), a push verified with the CA fetched before is accepted,
#     and the recording holds the earlier records and the new one.
#   - with MOCKAPNS_FCM=1 Google's names are served on 443 and an OAuth grant and an iOS message sent to them become
#     the APNs push FCM sends;
#   - with MOCKAPNS_APPLE_HOSTS=1 the unprivileged user binds Apple's 443, 2195 and 2196, and a second container reaches
#     https://api.push.apple.com by a network alias, verifying the CA the control plane serves;
#   - the README's image quick start, run as written (ports 2197 and 2198, a container named mockapns), accepts its
#     push and lists it.
# Host ports are picked by the engine except for the README's quick start. It prints the time from `run` to the first
# accepted push.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pick_engine
apt_install curl
[ "${SKIP_BUILD:-0}" = 1 ] || bash "$IMAGE_DIR/build-image.sh"
dist_tarball
IMAGE=${IMAGE:-mockapns}:$VERSION
engine image inspect "$IMAGE" >/dev/null 2>&1 || die "no image $IMAGE: run make image"

RUN_ID=mockapns-test-$$
MOCK=$RUN_ID NET=$RUN_ID VOLUME=$RUN_ID
WORK=$(mktemp -d)
chmod 755 "$WORK"   # the containers' unprivileged user reads the payload and the CA from it
cleanup() {
    if [ "$ENGINE" = podman ]; then engine rm -f -v -t 0 "$MOCK"; else engine rm -f -v "$MOCK"; fi >/dev/null 2>&1 || true
    engine network rm -f "$NET" >/dev/null 2>&1 || true
    engine volume rm -f "$VOLUME" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
PASSED=0
ok() { PASSED=$((PASSED + 1)); echo "test-image: ok: $*"; }
fail() {
    echo "test-image: FAIL: $*" >&2
    if engine inspect "$MOCK" >/dev/null 2>&1; then
        echo "--- the mock's last log lines:" >&2
        engine logs --tail 20 "$MOCK" >&2 || true
    fi
    exit 1
}

DEVICE=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0
CONTROL_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
echo '{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}' > "$WORK/push.json"
chmod 644 "$WORK/push.json"

# --- the image itself
LABEL_VERSION=$(engine image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}' "$IMAGE")
[ "$LABEL_VERSION" = "$VERSION" ] || fail "label org.opencontainers.image.version is '$LABEL_VERSION', expected $VERSION"
HEALTH_CMD=$(engine image inspect --format '{{.Config.Healthcheck}}' "$IMAGE")
[[ "$HEALTH_CMD" == *mockapns* ]] || fail "the image has no HEALTHCHECK running mockapns (got '$HEALTH_CMD'; podman drops it unless built with --format docker)"
SIZE=$(engine image inspect --format '{{.Size}}' "$IMAGE")
ok "labels and HEALTHCHECK ($IMAGE, $((SIZE / 1000000)) MB)"

# --- start: a network with DNS (the mock answers to the alias mockapns there), a volume for /data
engine network create "$NET" >/dev/null
engine volume create "$VOLUME" >/dev/null
host_port() { engine port "$MOCK" "$1/tcp" | head -1 | sed 's/.*://'; }
# wait_up: /healthz answers (the control plane starts after the APNs listener); gives up after 60 s or when
# the container has stopped.
wait_up() {
    local deadline=$((SECONDS + 60))
    CONTROL_PORT=$(host_port 2198)
    APNS_PORT=$(host_port 2197)
    until curl -fsS -o /dev/null "http://127.0.0.1:$CONTROL_PORT/healthz" 2>/dev/null; do
        [ "$(engine inspect --format '{{.State.Running}}' "$MOCK")" = true ] || fail "the container stopped before /healthz answered"
        [ $SECONDS -lt $deadline ] || fail "/healthz did not answer within 60 s"
        sleep 0.1
    done
}
# push_from_host CA: the HTTP status of one push over TLS verified with CA, or curl's error.
push_from_host() {
    curl -sS --http2 --cacert "$1" -o "$WORK/answer" -w '%{http_code}' -H "authorization: bearer $JWT" \
        -H "apns-topic: com.example.app" -H "apns-push-type: alert" --data-binary @"$WORK/push.json" \
        "https://localhost:$APNS_PORT/3/device/$DEVICE" 2>&1 || true
}
# records: the lines of /data/records.jsonl, read from the volume by a throwaway container.
records() { engine run --rm -v "$VOLUME:/data" --entrypoint cat "$IMAGE" /data/records.jsonl; }

STARTED=$(date +%s%N)
engine run -d --name "$MOCK" --network "$NET" --network-alias mockapns --network-alias other-name -p 127.0.0.1::2197 -p 127.0.0.1::2198 \
    -v "$VOLUME:/data" -e MOCKAPNS_CONTROL_TOKEN="$CONTROL_TOKEN" "$IMAGE" >/dev/null
wait_up
curl -fsS -o "$WORK/ca.pem" "http://127.0.0.1:$CONTROL_PORT/api/v1/ca.pem" || fail "GET /api/v1/ca.pem (no token) failed"
chmod 644 "$WORK/ca.pem"
# A provider token from the bundled test key inside the image (valid for an hour).
JWT=$(engine exec "$MOCK" mockapns token)
[ -n "$JWT" ] || fail "mockapns token printed nothing"
STATUS=$(push_from_host "$WORK/ca.pem")
FIRST_200_MS=$(( ($(date +%s%N) - STARTED) / 1000000 ))
[ "$STATUS" = 200 ] || fail "push from the host: expected 200, got $STATUS $(cat "$WORK/answer" 2>/dev/null)"
ok "push from the host with curl, TLS verified with the exported CA (first 200 ${FIRST_200_MS} ms after run)"

READY=$(engine exec "$MOCK" cat /tmp/mockapns-ready.json)
[[ "$READY" == *'"ca_file":"/data/ca/ca.pem"'* ]] || fail "the ready file's ca_file is not /data/ca/ca.pem: $READY"
engine exec "$MOCK" cat /data/ca/ca.pem | cmp -s - "$WORK/ca.pem" || fail "/api/v1/ca.pem differs from the ready file's ca_file"
STATUS=$(push_from_host "$REPO_ROOT/certs/ca.pem")
[[ "$STATUS" == *"SSL certificate problem"* ]] \
    || fail "a push verified with the repository's bundled CA should fail the TLS check (the image signs with its own CA); got $STATUS"
ok "ready file's ca_file is the exported CA; the bundled test CA is refused"

UID_LINE=$(engine exec "$MOCK" grep '^Uid:' /proc/1/status)
COMM=$(engine exec "$MOCK" cat /proc/1/comm)
read -r _ RUID EUID_ _ <<<"$UID_LINE"
[ "$COMM" = mockapns ] || fail "PID 1 is '$COMM', expected mockapns"
{ [ "$RUID" != 0 ] && [ "$EUID_" != 0 ]; } || fail "serve runs as root ($UID_LINE)"
ok "serve is PID 1 and runs as uid $RUID"

if [ "$ENGINE" = podman ]; then
    # Podman runs health checks from systemd timers; without systemd (CI) it runs them when asked.
    engine healthcheck run "$MOCK" >/dev/null || fail "podman healthcheck run: the image's health check failed"
else
    deadline=$((SECONDS + 90))
    until [ "$(engine inspect --format '{{.State.Health.Status}}' "$MOCK")" = healthy ]; do
        [ $SECONDS -lt $deadline ] || fail "the health status did not turn healthy within 90 s"
        sleep 1
    done
fi
HEALTH=$(engine inspect --format '{{.State.Health.Status}}' "$MOCK")
[ "$HEALTH" = healthy ] || fail "health status '$HEALTH', expected healthy"
ok "health status healthy"

# --- a second container reaches the mock by its service name and verifies TLS
# send_by_name HOST CA: one push from a throwaway container on the network to https://HOST:2197, trusting CA.
send_by_name() {
    engine run --rm --network "$NET" -v "$WORK:/work:ro" "$IMAGE" send /work/push.json --url "https://$1:2197" \
        --ca "$2" --key-file TESTTEAM01:TESTKEY001:/opt/mockapns/certs/AuthKey_TESTKEY001.p8 \
        --topic com.example.app --token "$DEVICE" --give-up-after 5
}
send_by_name mockapns /work/ca.pem >"$WORK/send.out" 2>&1 || { cat "$WORK/send.out" >&2; fail "send to https://mockapns:2197 from a second container"; }
ok "second container: send to https://mockapns:2197 verified with the exported CA"
# refused_by_tls HOST CA WHY: the send fails its TLS check.
refused_by_tls() {
    if send_by_name "$1" "$2" >"$WORK/refused.out" 2>&1; then
        fail "send to https://$1:2197 trusting $2 was accepted, but $3: TLS is not verified"
    fi
    grep -q "certificate verification failed" "$WORK/refused.out" || { cat "$WORK/refused.out" >&2; fail "send to https://$1:2197 failed, but not its TLS check"; }
}
refused_by_tls mockapns /opt/mockapns/certs/ca.pem "the bundled CA did not sign the certificate"
refused_by_tls other-name /work/ca.pem "the certificate names the host name and mockapns only"
ok "second container: refused when trusting another CA, and by a name the certificate does not carry"

STATUS=$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$CONTROL_PORT/api/v1/stats")
[ "$STATUS" = 401 ] || fail "GET /api/v1/stats without the control token: expected 401, got $STATUS"
STATS=$(engine exec "$MOCK" mockapns stats --json)
[[ "$(tr -d ' \n' <<<"$STATS")" == *'"total":2'* ]] || fail "mockapns stats in the container: expected total 2, got $STATS"
ok "the control plane needs the token (401 without); podman exec mockapns stats: total 2 (token from the run's environment)"

# --- SIGTERM flushes the recording; the volume keeps it and the CA across a restart
engine stop -t 30 "$MOCK" >/dev/null
EXIT=$(engine inspect --format '{{.State.ExitCode}}' "$MOCK")
[ "$EXIT" = 0 ] || fail "serve exited with $EXIT on SIGTERM, expected 0"
engine logs "$MOCK" 2>&1 | grep -q 'stopped after 2 request(s)' || fail "the log has no 'stopped after 2 request(s)'"
records >"$WORK/before.jsonl"
[ "$(grep -c "$DEVICE" "$WORK/before.jsonl")" = 2 ] || fail "/data/records.jsonl after SIGTERM: expected 2 records, got $(wc -l <"$WORK/before.jsonl") lines"
ok "SIGTERM: exit 0, both records in /data/records.jsonl"

engine start "$MOCK" >/dev/null
wait_up
curl -fsS "http://127.0.0.1:$CONTROL_PORT/api/v1/ca.pem" | cmp -s - "$WORK/ca.pem" || fail "the CA changed across the restart (MOCKAPNS_CA_DIR=/data/ca should keep it)"
STATUS=$(push_from_host "$WORK/ca.pem")
[ "$STATUS" = 200 ] || fail "push after the restart with the CA fetched before: expected 200, got $STATUS"
engine stop -t 30 "$MOCK" >/dev/null
records >"$WORK/after.jsonl"
[ "$(wc -l <"$WORK/after.jsonl")" = 3 ] || fail "after the restart: expected 3 records, got $(wc -l <"$WORK/after.jsonl")"
head -2 "$WORK/after.jsonl" | cmp -s - "$WORK/before.jsonl" || fail "the first two records changed across the restart"
ok "restart: same CA from the volume, the recording kept and appended to"

# --- without MOCKAPNS_CONTROL_TOKEN the entrypoint makes one, prints it, and the control plane takes only it
engine rm -f -v "$MOCK" >/dev/null 2>&1
engine run -d --name "$MOCK" -p 127.0.0.1::2197 -p 127.0.0.1::2198 "$IMAGE" >/dev/null
wait_up
MADE=$(engine logs "$MOCK" 2>&1 | sed -n 's/^mockapns: control token (made at start.*: \([0-9a-f]*\)$/\1/p')
[ ${#MADE} = 32 ] || fail "no control token in the log of a container started without MOCKAPNS_CONTROL_TOKEN"
STATUS=$(curl -sS -o /dev/null -w '%{http_code}' -H "authorization: bearer $MADE" "http://127.0.0.1:$CONTROL_PORT/api/v1/stats")
[ "$STATUS" = 200 ] || fail "GET /api/v1/stats with the printed token: expected 200, got $STATUS"
STATUS=$(curl -sS -o /dev/null -w '%{http_code}' -H "authorization: bearer $CONTROL_TOKEN" "http://127.0.0.1:$CONTROL_PORT/api/v1/stats")
[ "$STATUS" = 401 ] || fail "GET /api/v1/stats with another token: expected 401, got $STATUS"
ok "no MOCKAPNS_CONTROL_TOKEN: a token is made and printed at start, and only it opens the control plane"

# --- MOCKAPNS_APPLE_HOSTS=1: Apple's own names on Apple's ports, bound by the unprivileged user through the binary's
#     file capability (podman leaves net.ipv4.ip_unprivileged_port_start at 1024), reached by name from a second
#     container (network aliases, port 443 as an unmodified sender dials it) and from the host (published ports)
engine rm -f -v "$MOCK" >/dev/null 2>&1
engine run -d --name "$MOCK" --network "$NET" --network-alias api.push.apple.com \
    --network-alias api-manage-broadcast.sandbox.push.apple.com -p 127.0.0.1::443 -p 127.0.0.1::2195 \
    -p 127.0.0.1::2197 -p 127.0.0.1::2198 -e MOCKAPNS_APPLE_HOSTS=1 -e MOCKAPNS_CONTROL_TOKEN="$CONTROL_TOKEN" \
    -v "$VOLUME:/data" "$IMAGE" >/dev/null
wait_up
UNPRIVILEGED_START=$(engine exec "$MOCK" cat /proc/sys/net/ipv4/ip_unprivileged_port_start)
read -r _ RUID _ <<<"$(engine exec "$MOCK" grep '^Uid:' /proc/1/status)"
[ "$RUID" != 0 ] || fail "with MOCKAPNS_APPLE_HOSTS=1 serve runs as root"
curl -fsS -o "$WORK/apple-ca.pem" "http://127.0.0.1:$CONTROL_PORT/api/v1/ca.pem" || fail "GET /api/v1/ca.pem"
chmod 644 "$WORK/apple-ca.pem"
READY=$(engine exec "$MOCK" cat /tmp/mockapns-ready.json)
[[ "$READY" == *'"apple_ports":{"2195":2195,"2196":2196,"2197":2197,"443":443}'* ]] || fail "the ready file's apple_ports: $READY"
engine run --rm --network "$NET" -v "$WORK:/work:ro" "$IMAGE" send /work/push.json --url "https://api.push.apple.com" \
    --ca /work/apple-ca.pem --key-file TESTTEAM01:TESTKEY001:/opt/mockapns/certs/AuthKey_TESTKEY001.p8 \
    --topic com.example.app --token "$DEVICE" --give-up-after 5 >"$WORK/apple.out" 2>&1 \
    || { cat "$WORK/apple.out" >&2; fail "send to https://api.push.apple.com (443) from a second container"; }
HTTPS_PORT=$(host_port 443)
STATUS=$(curl -sS --http2 --cacert "$WORK/apple-ca.pem" --resolve "api-manage-broadcast.sandbox.push.apple.com:$(host_port 2195):127.0.0.1" \
    -o /dev/null -w '%{http_code}' -H "authorization: bearer $JWT" \
    --data '{"message-storage-policy":0,"push-type":"LiveActivity"}' \
    "https://api-manage-broadcast.sandbox.push.apple.com:$(host_port 2195)/1/apps/com.example.app/channels" 2>&1 || true)
[ "$STATUS" = 201 ] || fail "channel creation on Apple's 2195 from the host: expected 201, got $STATUS"
STATUS=$(curl -sS --http2 --cacert "$WORK/apple-ca.pem" --resolve "api.push.apple.com:$HTTPS_PORT:127.0.0.1" \
    -o /dev/null -w '%{http_code}' "https://api.push.apple.com:$HTTPS_PORT/3/device/$DEVICE" \
    -H "authorization: bearer $JWT" -H "apns-topic: com.example.app" --data-binary @"$WORK/push.json" 2>&1 || true)
[ "$STATUS" = 200 ] || fail "push to api.push.apple.com through the published 443: expected 200, got $STATUS"
ENVIRONMENTS=$(engine exec "$MOCK" mockapns list --json 2>/dev/null | tr -d ' \n' | grep -o '"environment":"[a-z]*"' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
[ "$ENVIRONMENTS" = ' 1 "environment":"development"; 2 "environment":"production";' ] \
    || fail "records' environments: expected one development (2195) and two production (api.push.apple.com), got '$ENVIRONMENTS'"
ok "MOCKAPNS_APPLE_HOSTS=1: uid $RUID binds 443, 2195, 2196 (ip_unprivileged_port_start $UNPRIVILEGED_START); https://api.push.apple.com from a second container and the host, channels on 2195"

# --- MOCKAPNS_FCM=1: the FCM front door on Google's 443 (bound by the unprivileged user) beside the mock's own 2199;
#     from the host, the default project's service account (the ready file's fcm_service_account) signs the OAuth grant
#     with openssl as google-auth would, trades it for a bearer token and sends an iOS message under Google's name,
#     over HTTP/2 and over HTTP/1.1; the APNs recording shows the push FCM would make
engine rm -f -v "$MOCK" >/dev/null 2>&1
engine run -d --name "$MOCK" --network "$NET" -p 127.0.0.1::443 -p 127.0.0.1::2197 -p 127.0.0.1::2198 -p 127.0.0.1::2199 \
    -e MOCKAPNS_FCM=1 -e MOCKAPNS_CONTROL_TOKEN="$CONTROL_TOKEN" -v "$VOLUME:/data" "$IMAGE" >/dev/null
wait_up
READY=$(engine exec "$MOCK" cat /tmp/mockapns-ready.json)
[[ "$READY" == *'"fcm_ports":{"443":443}'* ]] || fail "the ready file's fcm_ports: $READY"
field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
engine exec "$MOCK" cat "$(field fcm_service_account <<<"$READY")" >"$WORK/service-account.json" || fail "read the service account"
engine exec "$MOCK" cat "$(field fcm_ca_file <<<"$READY")" >"$WORK/fcm-ca.pem" || fail "read the FCM CA"
field private_key <"$WORK/service-account.json" >"$WORK/service-account-key.pem"
REGISTRATION=$(curl -fsS -H "authorization: bearer $CONTROL_TOKEN" -H 'content-type: application/json' \
    --data '{"project":"mockapns-test","platform":"ios","bundle_id":"com.example.app"}' \
    "http://127.0.0.1:$CONTROL_PORT/api/v1/fcm/registrations") || fail "POST /api/v1/fcm/registrations"
FCM_TOKEN=$(field token <<<"$REGISTRATION"); FCM_APNS=$(field apns_token <<<"$REGISTRATION")
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
NOW=$(date +%s)
HEADER=$(printf '{"typ":"JWT","alg":"RS256","kid":"%s"}' "$(field private_key_id <"$WORK/service-account.json")" | b64url)
CLAIMS=$(printf '{"iss":"%s","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":%s,"exp":%s}' \
    "$(field client_email <"$WORK/service-account.json")" "$NOW" "$((NOW + 3600))" | b64url)
SIGNATURE=$(printf '%s.%s' "$HEADER" "$CLAIMS" | openssl dgst -sha256 -sign "$WORK/service-account-key.pem" | b64url)
GOOGLE="$(host_port 443)"
GRANT=$(curl -fsS --cacert "$WORK/fcm-ca.pem" --resolve "oauth2.googleapis.com:$GOOGLE:127.0.0.1" \
    --data "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$HEADER.$CLAIMS.$SIGNATURE" \
    "https://oauth2.googleapis.com:$GOOGLE/token") || fail "the OAuth grant at oauth2.googleapis.com (443)"
BEARER=$(field access_token <<<"$GRANT")
for HTTP in --http2 --http1.1; do
    STATUS=$(curl -sS "$HTTP" --cacert "$WORK/fcm-ca.pem" --resolve "fcm.googleapis.com:$GOOGLE:127.0.0.1" -o "$WORK/fcm.out" \
        -w '%{http_code}' -H "authorization: Bearer $BEARER" -H 'content-type: application/json' \
        --data "{\"message\":{\"token\":\"$FCM_TOKEN\",\"notification\":{\"title\":\"From FCM\"}}}" \
        "https://fcm.googleapis.com:$GOOGLE/v1/projects/mockapns-test/messages:send" 2>&1 || true)
    [ "$STATUS" = 200 ] || { cat "$WORK/fcm.out" >&2; fail "messages:send at fcm.googleapis.com ($HTTP): expected 200, got $STATUS"; }
done
PUSHES=$(engine exec "$MOCK" mockapns list --json --token "$FCM_APNS" 2>/dev/null | tr -d ' \n')
[[ "$PUSHES" == *'"gcm.message_id"'* && "$PUSHES" == *'"title":"FromFCM"'* ]] \
    || fail "the APNs record of the FCM message: expected aps.alert.title and gcm.message_id, got $PUSHES"
ok "MOCKAPNS_FCM=1: Google's 443 bound by the unprivileged user; a service-account grant and an iOS message under Google's names over HTTP/2 and HTTP/1.1 became the APNs push FCM sends"

# --- the README's quick start, as written (the block after the marker naming make test-image)
engine rm -f -v "$MOCK" >/dev/null 2>&1
QUICK=$(awk '/<!-- snippet: skip run by make test-image/ { marked = 1; next } marked && /^```/ { if (inside) exit; inside = 1; next } inside' "$REPO_ROOT/README.md")
[ -n "$QUICK" ] || fail "README.md has no block marked 'snippet: skip run by make test-image'"
if engine container inspect mockapns >/dev/null 2>&1; then
    fail "a container named mockapns already exists here: the README's quick start would clash with it (remove it first)"
fi
quick_cleanup() { engine rm -f -v -t 0 mockapns >/dev/null 2>&1 || true; engine volume rm -f mockapns-data >/dev/null 2>&1 || true; cleanup; }
trap quick_cleanup EXIT
[ "$ENGINE" = podman ] || QUICK=$(sed 's/^podman /docker /; s/\$(podman /$(docker /g' <<<"$QUICK")
(cd "$WORK" && bash -euo pipefail -c "$QUICK") >"$WORK/quick.out" 2>&1 \
    || { cat "$WORK/quick.out" >&2; fail "the README's image quick start"; }
grep -q "${DEVICE:0:8}" "$WORK/quick.out" || { cat "$WORK/quick.out" >&2; fail "the README's quick start did not list its push"; }
ok "the README's image quick start: push accepted over TLS with the exported CA, listed by mockapns list"

echo "test-image: $PASSED passed, 0 failed ($IMAGE, $((SIZE / 1000000)) MB; first 200 ${FIRST_200_MS} ms after run)"
