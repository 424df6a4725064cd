#!/usr/bin/env bash
# make test-compose: runs compose.yaml with podman-compose (PyPI, in a venv of its own) and checks that
#   - the sender (mockapns send to https://mockapns-a:2197 and https://mockapns-b:2197, trusting the shared CA) has
#     every push accepted;
#   - both mocks' control planes count every push (they read the shared PostgreSQL store), the published one through
#     its host port with the control token;
#   - each mock's own /data/records.jsonl holds part of them (the sender used both) and together all of them, once
#     `podman-compose stop` (SIGTERM) has flushed them;
#   - docs/unmodified-senders.md's compose file, as written, gets a push to https://api.push.apple.com accepted.
# The postgres service takes docker.io/library/postgres:16-bookworm when it can be pulled; where no registry answers,
# a stand-in built from Debian's postgresql-15 on the local base (scripts/image/postgres/). SKIP_BUILD=1 takes the
# mockapns:<version> image already built.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ENGINE=podman
pick_engine
apt_install curl python3-venv
dist_tarball
[ "${SKIP_BUILD:-0}" = 1 ] || bash "$IMAGE_DIR/build-image.sh"

VENV=${XDG_CACHE_HOME:-$HOME/.cache}/mockapns-image/venv
COMPOSE_VERSION=1.6.0
if [ "$("$VENV/bin/podman-compose" --version 2>/dev/null | sed -n 's/^podman-compose version //p')" != "$COMPOSE_VERSION" ]; then
    echo "test-compose: installing podman-compose $COMPOSE_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check "podman-compose==$COMPOSE_VERSION"
fi

export POSTGRES_IMAGE=docker.io/library/postgres:16-bookworm
if ! engine image inspect "$POSTGRES_IMAGE" >/dev/null 2>&1 && ! timeout 120 podman pull -q "$POSTGRES_IMAGE" >/dev/null 2>&1; then
    POSTGRES_IMAGE=localhost/mockapns-test-postgres:15
    if ! engine image inspect "$POSTGRES_IMAGE" >/dev/null 2>&1; then
        echo "test-compose: no registry: building $POSTGRES_IMAGE from Debian's postgresql-15"
        engine build -q --format docker --pull=never -t "$POSTGRES_IMAGE" -f "$IMAGE_DIR/postgres/Containerfile" "$IMAGE_DIR/postgres" >/dev/null
    fi
fi

PROJECT=mockapns-compose-test-$$
export MOCKAPNS_IMAGE=mockapns:$VERSION
export MOCKAPNS_CONTROL_TOKEN
MOCKAPNS_CONTROL_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export MOCKAPNS_APNS_PORT="" MOCKAPNS_CONTROL_PORT=""   # the engine picks free host ports
export PUSH_COUNT=20
COMPOSE=("$VENV/bin/podman-compose" -p "$PROJECT" -f "$REPO_ROOT/compose.yaml")
WORK=$(mktemp -d)
cleanup() {
    # down -v removes the named volumes; the anonymous ones (the image's VOLUME /data in the sender) go by name.
    local anonymous=()
    mapfile -t anonymous < <(engine ps -a --filter "label=io.podman.compose.project=$PROJECT" --format '{{.ID}}' 2>/dev/null \
        | xargs -r podman inspect --format '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' 2>/dev/null \
        | tr ' ' '\n' | grep -E '^[0-9a-f]{64}$')
    "${COMPOSE[@]}" down -v -t 0 >/dev/null 2>&1 || true
    [ ${#anonymous[@]} -eq 0 ] || engine volume rm -f "${anonymous[@]}" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
PASSED=0
ok() { PASSED=$((PASSED + 1)); echo "test-compose: ok: $*"; }
fail() {
    echo "test-compose: FAIL: $*" >&2
    "${COMPOSE[@]}" logs >&2 2>&1 | grep -v -e 'systemd connection' -e 'syslog' | tail -40 >&2 || true
    exit 1
}
container() { echo "${PROJECT}_$1_1"; }

# up SERVICE…: starts them once what they depend on is healthy. docker compose waits for `condition: service_healthy`
# itself; podman-compose cannot before podman 4.6 (and podman without systemd runs health checks only when asked), so
# the services are started in that order here, each group once `podman healthcheck run` passes.
up() {
    "${COMPOSE[@]}" up -d --no-deps "$@" >>"$WORK/up.log" 2>&1 || { cat "$WORK/up.log" >&2; fail "podman-compose up $*"; }
}
wait_healthy() {
    local service deadline=$((SECONDS + 120))
    for service in "$@"; do
        until engine healthcheck run "$(container "$service")" >/dev/null 2>&1; do
            [ $SECONDS -lt $deadline ] || fail "$service did not turn healthy within 120 s"
            sleep 0.5
        done
    done
}
STARTED=$SECONDS
up postgres
wait_healthy postgres
up mockapns-a mockapns-b
wait_healthy mockapns-a mockapns-b
up sender
SENDER_EXIT=$(timeout 300 podman wait "$(container sender)" 2>/dev/null) || fail "the sender did not finish within 300 s"
engine logs "$(container sender)" >"$WORK/sender.log" 2>&1
[ "$SENDER_EXIT" = 0 ] || { cat "$WORK/sender.log" >&2; fail "the sender exited with $SENDER_EXIT"; }
grep -q "accepted $PUSH_COUNT," "$WORK/sender.log" || { cat "$WORK/sender.log" >&2; fail "the sender's summary does not say accepted $PUSH_COUNT"; }
ok "sender: $PUSH_COUNT pushes over https://mockapns-a:2197 and https://mockapns-b:2197 accepted, TLS verified with the shared CA ($((SECONDS - STARTED)) s after the first up)"

# total SERVICE: the total its control plane reports; the published one through its host port, the other from inside.
total() {
    local json
    if [ "$1" = mockapns-a ]; then
        json=$(curl -fsS -H "authorization: bearer $MOCKAPNS_CONTROL_TOKEN" \
            "http://127.0.0.1:$(engine port "$(container mockapns-a)" 2198/tcp | sed 's/.*://')/api/v1/stats")
    else
        json=$(engine exec "$(container "$1")" mockapns stats --json)
    fi
    tr -d ' \n' <<<"$json" | sed -n 's/.*"total":\([0-9]*\).*/\1/p'
}
for service in mockapns-a mockapns-b; do
    # The store is written behind the answers: wait until the count settles at every push (60 s at most).
    deadline=$((SECONDS + 60))
    until [ "$(total "$service")" = "$PUSH_COUNT" ]; do
        [ $SECONDS -lt $deadline ] || fail "$service's control plane counts $(total "$service") pushes, expected $PUSH_COUNT (the shared store)"
        sleep 0.5
    done
done
ok "both control planes count all $PUSH_COUNT pushes (shared store); mockapns-a's through its published port with the token"

"${COMPOSE[@]}" stop -t 30 mockapns-a mockapns-b >/dev/null 2>&1
A=$(engine run --rm -v "${PROJECT}_data-a:/data" --entrypoint cat "$MOCKAPNS_IMAGE" /data/records.jsonl | wc -l)
B=$(engine run --rm -v "${PROJECT}_data-b:/data" --entrypoint cat "$MOCKAPNS_IMAGE" /data/records.jsonl | wc -l)
{ [ "$A" -gt 0 ] && [ "$B" -gt 0 ]; } || fail "records per mock: a $A, b $B: the sender should have used both"
[ $((A + B)) = "$PUSH_COUNT" ] || fail "records per mock: a $A + b $B != $PUSH_COUNT"
ok "each mock's /data/records.jsonl holds its share (a $A, b $B) after SIGTERM"

# --- docs/unmodified-senders.md's compose file, as written: Apple's names as network aliases of the mock, the sender
#     naming only https://api.push.apple.com and trusting the CA through a shared volume
APPLE_FILE="$WORK/apple-hosts.yaml"
awk '/<!-- snippet: skip run by make test-compose/ { marked = 1; next } marked && /^```/ { if (inside) exit; inside = 1; next } inside' \
    "$REPO_ROOT/docs/unmodified-senders.md" | sed "s|image: mockapns:latest|image: $MOCKAPNS_IMAGE|" > "$APPLE_FILE"
[ -s "$APPLE_FILE" ] || fail "docs/unmodified-senders.md has no block marked 'snippet: skip run by make test-compose'"
APPLE=("$VENV/bin/podman-compose" -p "$PROJECT-apple" -f "$APPLE_FILE")
apple_cleanup() { "${APPLE[@]}" down -v -t 0 >/dev/null 2>&1 || true; cleanup; }
trap apple_cleanup EXIT
"${APPLE[@]}" up -d mockapns >"$WORK/apple-up.log" 2>&1 || { cat "$WORK/apple-up.log" >&2; fail "podman-compose up (the Apple-hosts file)"; }
"${APPLE[@]}" run --rm sender >"$WORK/apple-sender.log" 2>&1 \
    || { cat "$WORK/apple-sender.log" >&2; "${APPLE[@]}" logs mockapns >&2 2>&1 | tail -20 >&2; fail "the sender to https://api.push.apple.com"; }
RECORD=$(engine exec "${PROJECT}-apple_mockapns_1" cat /data/records.jsonl)
[[ "$RECORD" == *'"status":200'* && "$RECORD" == *'"environment":"production"'* ]] \
    || fail "the mock's record of the push to api.push.apple.com: $RECORD"
ok "docs/unmodified-senders.md's compose file: mockapns send to https://api.push.apple.com (443, a network alias) accepted and recorded as production"

echo "test-compose: $PASSED passed, 0 failed (podman-compose $COMPOSE_VERSION, postgres $POSTGRES_IMAGE)"
