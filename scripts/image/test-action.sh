#!/usr/bin/env bash
# make test-action: runs the GitHub Action's script (action-start.sh, what action.yml runs) against the newest
# dist/mockapns-<version>-linux-<arch>.tar.gz (make dist) as a file:// URL, with temporary files for GITHUB_ENV,
# GITHUB_OUTPUT and GITHUB_PATH and a clean environment, and checks that
#   - a SHA256SUMS that does not match the tarball stops it before anything runs;
#   - with the right SHA256SUMS it starts the mock and exports APNS_URL, APNS_CA and MOCKAPNS_CONTROL_URL (env and
#     outputs) and the binary's folder (path);
#   - a push with curl to $APNS_URL verified with --cacert "$APNS_CA" is accepted, and the control plane at
#     $MOCKAPNS_CONTROL_URL counts it;
#   - SIGTERM to the pid output stops the mock with the push in its --record file (given through the args input).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
apt_install curl
dist_tarball
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
PASSED=0
ok() { PASSED=$((PASSED + 1)); echo "test-action: ok: $*"; }
fail() { echo "test-action: FAIL: $*" >&2; exit 1; }

# The tarball under a release-like folder; the URL template gets {version} and {arch} filled in by the script.
mkdir "$WORK/release"
cp "$TARBALL" "$WORK/release/"
NAME=$(basename "$TARBALL")
URL="file://$WORK/release/mockapns-{version}-linux-{arch}.tar.gz"
echo "0000000000000000000000000000000000000000000000000000000000000000  $NAME" >"$WORK/release/BAD-SHA256SUMS"
(cd "$WORK/release" && sha256sum "$NAME" >SHA256SUMS)

# run_action NAME [VAR=VALUE…]: action-start.sh in a clean environment, as the runner would start it.
run_action() {
    local dir="$WORK/$1"
    mkdir -p "$dir/temp"
    : >"$dir/env"; : >"$dir/output"; : >"$dir/path"
    env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$dir" RUNNER_TEMP="$dir/temp" GITHUB_ENV="$dir/env" \
        GITHUB_OUTPUT="$dir/output" GITHUB_PATH="$dir/path" INPUT_VERSION="$VERSION" INPUT_URL="$URL" "${@:2}" \
        bash "$IMAGE_DIR/action-start.sh" >"$dir/log" 2>&1
}
# value FILE KEY: KEY's value in a KEY=VALUE file.
value() { sed -n "s/^$2=//p" "$1"; }

if run_action bad INPUT_CHECKSUMS="file://$WORK/release/BAD-SHA256SUMS"; then
    fail "a tarball that does not match its SHA256SUMS was installed"
fi
grep -q "has SHA-256" "$WORK/bad/log" || fail "the checksum mismatch was not reported: $(cat "$WORK/bad/log")"
[ ! -s "$WORK/bad/env" ] || fail "a failed install exported variables: $(cat "$WORK/bad/env")"
ok "a SHA256SUMS mismatch stops the action before serve starts"

run_action good INPUT_CHECKSUMS="file://$WORK/release/SHA256SUMS" INPUT_ARGS="--record $WORK/good/rec.jsonl --quiet" \
    || { cat "$WORK/good/log" >&2; fail "action-start.sh failed (its output is above)"; }
APNS_URL=$(value "$WORK/good/env" APNS_URL)
APNS_CA=$(value "$WORK/good/env" APNS_CA)
MOCKAPNS_CONTROL_URL=$(value "$WORK/good/env" MOCKAPNS_CONTROL_URL)
PID=$(value "$WORK/good/output" pid)
BIN_DIR=$(cat "$WORK/good/path")
[[ "$APNS_URL" =~ ^https://127\.0\.0\.1:[0-9]+$ ]] || fail "APNS_URL is '$APNS_URL'"
[ -s "$APNS_CA" ] || fail "APNS_CA '$APNS_CA' is not a file"
[[ "$MOCKAPNS_CONTROL_URL" =~ ^http://127\.0\.0\.1:[0-9]+$ ]] || fail "MOCKAPNS_CONTROL_URL is '$MOCKAPNS_CONTROL_URL'"
[ "$(value "$WORK/good/output" apns-url)" = "$APNS_URL" ] || fail "output apns-url differs from APNS_URL"
[ "$(value "$WORK/good/output" apns-ca)" = "$APNS_CA" ] || fail "output apns-ca differs from APNS_CA"
[ "$(value "$WORK/good/output" control-url)" = "$MOCKAPNS_CONTROL_URL" ] || fail "output control-url differs"
[ -x "$BIN_DIR/mockapns" ] || fail "GITHUB_PATH has '$BIN_DIR', which holds no mockapns"
[ "$(cat "/proc/$PID/comm" 2>/dev/null)" = mockapns ] || fail "pid output $PID is not a running mockapns"
ok "exports APNS_URL=$APNS_URL APNS_CA=$APNS_CA MOCKAPNS_CONTROL_URL=$MOCKAPNS_CONTROL_URL; outputs and path agree"

DEVICE=00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0
JWT=$("$BIN_DIR/mockapns" token)
STATUS=$(curl -sS --http2 --cacert "$APNS_CA" -o "$WORK/answer" -w '%{http_code}' -H "authorization: bearer $JWT" \
    -H "apns-topic: com.example.app" -H "apns-push-type: alert" -d '{"aps":{"alert":"from the action test"}}' \
    "$APNS_URL/3/device/$DEVICE") || fail "curl to $APNS_URL with --cacert $APNS_CA failed"
[ "$STATUS" = 200 ] || fail "push: expected 200, got $STATUS $(cat "$WORK/answer")"
STATS=$(curl -fsS "$MOCKAPNS_CONTROL_URL/api/v1/stats") || fail "GET $MOCKAPNS_CONTROL_URL/api/v1/stats failed"
[[ "$(tr -d ' \n' <<<"$STATS")" == *'"total":1'* ]] || fail "the control plane counts no push: $STATS"
ok "curl --cacert \"\$APNS_CA\" push accepted; \$MOCKAPNS_CONTROL_URL/api/v1/stats counts it"

kill -TERM "$PID"
for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$PID" 2>/dev/null || fail "the mock still runs 10 s after SIGTERM"
PID=""
[ "$(grep -c "$DEVICE" "$WORK/good/rec.jsonl" 2>/dev/null)" = 1 ] || fail "--record file (args input) does not hold the push"
ok "SIGTERM to the pid output stops the mock; the --record file holds the push"

echo "test-action: $PASSED passed, 0 failed ($NAME)"
