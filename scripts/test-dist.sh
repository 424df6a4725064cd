#!/usr/bin/env bash
# make test-dist: the `make dist` archive works on a machine without Swift. Unpacks it into a temporary folder
# and, with a minimal environment (PATH = the archive and /usr/bin:/bin only, LD_LIBRARY_PATH empty, no
# MOCKAPNS_* variables), checks that:
#   - ldd lists no Swift runtime library (libswift*, Foundation, dispatch, BlocksRuntime, ICU) and no libcurl (the
#     binary's outbound HTTP is AsyncHTTPClient's, not URLSession's);
#   - `mockapns --version` matches the archive's name;
#   - `serve` uses the certs/ beside the binary: they are replaced by a fresh set (`mockapns certs --out`), so a
#     server or sender that read any other copy (the build checkout's) would fail the TLS handshake;
#   - serve --port 0 + wait + send + expect work, the ready file carries the version and is gone after exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE=$(ls -t dist/mockapns-*-linux-"$(uname -m)".tar.gz 2>/dev/null | head -1)
[ -n "$ARCHIVE" ] || { echo "test-dist: no dist/mockapns-*-linux-$(uname -m).tar.gz (run make dist)" >&2; exit 1; }
WORK=$(mktemp -d)
SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
fail() { echo "test-dist: FAIL: $*" >&2; exit 1; }

tar -C "$WORK" -xzf "$ARCHIVE"
NAME=$(basename "$ARCHIVE" .tar.gz)
DIR="$WORK/$NAME"
[ -x "$DIR/mockapns" ] || fail "$NAME/mockapns missing from the archive"
[ -f "$DIR/certs/keys.json" ] || fail "$NAME/certs/keys.json missing from the archive"

LIBS=$(ldd "$DIR/mockapns")
if grep -Ei 'libswift|Foundation|libdispatch|BlocksRuntime|libicu' <<<"$LIBS"; then
    fail "the binary links a Swift runtime library (above)"
fi
if grep -i 'libcurl' <<<"$LIBS"; then
    fail "the binary links libcurl (above): URLSession came back; outbound HTTP goes through AsyncHTTPClient"
fi
echo "test-dist: ldd: $(awk '{print $1}' <<<"$LIBS" | tr '\n' ' ')"

RUN=(env -i "PATH=$DIR:/usr/bin:/bin" LD_LIBRARY_PATH= "HOME=$WORK" LANG=C.UTF-8)
if "${RUN[@]}" bash -c 'command -v swift' >/dev/null; then fail "swift is on the test PATH"; fi
VERSION=$("${RUN[@]}" mockapns --version)
[ "$NAME" = "mockapns-$VERSION-linux-$(uname -m)" ] || fail "--version says '$VERSION' but the archive is $NAME"

# Fresh credentials beside the binary: only a binary that reads certs/ next to itself can use them.
rm -rf "$DIR/certs"
"${RUN[@]}" mockapns certs --out "$DIR/certs" >/dev/null

mkdir "$WORK/run" && cd "$WORK/run"
"${RUN[@]}" mockapns serve --port 0 --quiet --ready-file ready.json --record rec.jsonl 2>serve.log &
SERVER=$!
"${RUN[@]}" mockapns wait --ready-file ready.json --pid "$SERVER" --timeout 60 >/dev/null || { cat serve.log >&2; fail "not ready"; }
APNS_URL=$(python3 -c 'import json; print(json.load(open("ready.json"))["apns_url"])')
READY_VERSION=$(python3 -c 'import json; print(json.load(open("ready.json"))["version"])')
[ "$READY_VERSION" = "$VERSION" ] || fail "ready file version '$READY_VERSION', binary '$VERSION'"
echo '{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}' > push.json
# --ca names the fresh CA: the handshake succeeds only if serve presents the certificate from beside the binary.
"${RUN[@]}" mockapns send push.json --url "$APNS_URL" --ca "$DIR/certs/ca.pem" --topic com.example.app \
    --token 00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0 >send.log 2>&1 || { cat send.log >&2; fail "send"; }
"${RUN[@]}" mockapns expect --ready-file ready.json --status 200 --count 1 >/dev/null || fail "expect: the push was not recorded as accepted"
kill "$SERVER"; wait "$SERVER" || fail "serve exited with $? on SIGTERM"
SERVER=""
[ ! -e ready.json ] || fail "the ready file is still there after serve exited"
[ "$(wc -l < rec.jsonl)" -eq 1 ] || fail "rec.jsonl has $(wc -l < rec.jsonl) lines, expected 1"
echo "test-dist: ok ($NAME: runs without Swift, certs found beside the binary)"
