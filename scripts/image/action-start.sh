#!/usr/bin/env bash
# The GitHub Action's one step (action.yml): installs a MockAPNs release tarball, starts `mockapns serve --port 0`,
# waits for its ready file and hands the job what it needs to send to it. Runs anywhere bash, curl and tar are
# (scripts/image/test-action.sh runs it with temporary files for GitHub's).
#
# In (environment, from the action's inputs):
#   INPUT_VERSION    release version, e.g. 0.1.0 (needed unless INPUT_URL names no {version})
#   INPUT_URL        tarball URL; {version} and {arch} (x86_64, aarch64) are filled in; file:// works.
#                    Default: https://github.com/<action repository>/releases/download/v{version}/mockapns-{version}-linux-{arch}.tar.gz
#   INPUT_CHECKSUMS  URL of a SHA256SUMS file the tarball must match. Default: the release's SHA256SUMS when
#                    INPUT_URL is empty; nothing is checked when a URL is given without it.
#   INPUT_ARGS       more `serve` arguments, split at white space (e.g. --record apns.jsonl)
#   INPUT_TIMEOUT    seconds to wait for the ready file (default 60)
#   ACTION_REPOSITORY  owner/name of the action (github.action_repository; else $GITHUB_REPOSITORY)
#   RUNNER_TEMP      where the tarball is unpacked and serve's ready file and log go (default: a new temporary folder)
# Out:
#   $GITHUB_ENV      APNS_URL, APNS_CA, MOCKAPNS_CONTROL_URL
#   $GITHUB_OUTPUT   apns-url, apns-ca, control-url, pid, log
#   $GITHUB_PATH     the folder holding the mockapns binary
set -euo pipefail
die() { echo "::error title=MockAPNs::$*" >&2; exit 1; }

case "$(uname -s)/$(uname -m)" in
    Linux/x86_64 | Linux/amd64) ARCH=x86_64 ;;
    Linux/aarch64 | Linux/arm64) ARCH=aarch64 ;;
    *) die "MockAPNs releases have Linux x86_64 and aarch64 tarballs; this runner is $(uname -s) $(uname -m) (use a Linux runner, or the container image)" ;;
esac
VERSION=${INPUT_VERSION:-}
VERSION=${VERSION#v}
REPOSITORY=${ACTION_REPOSITORY:-${GITHUB_REPOSITORY:-}}
if [ -n "${INPUT_URL:-}" ]; then
    URL=$INPUT_URL
    CHECKSUMS=${INPUT_CHECKSUMS:-}
else
    [ -n "$REPOSITORY" ] || die "no repository to download the release from: give the url input"
    RELEASE="https://github.com/$REPOSITORY/releases/download/v{version}"
    URL="$RELEASE/mockapns-{version}-linux-{arch}.tar.gz"
    CHECKSUMS=${INPUT_CHECKSUMS:-$RELEASE/SHA256SUMS}
fi
if [[ "$URL$CHECKSUMS" == *"{version}"* ]]; then
    [[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]] || die "the version input must be a release version such as 0.1.0 (got '${INPUT_VERSION:-}')"
fi
fill() { local text=${1//\{version\}/$VERSION}; echo "${text//\{arch\}/$ARCH}"; }
URL=$(fill "$URL")
CHECKSUMS=$(fill "$CHECKSUMS")

ROOT=${RUNNER_TEMP:-$(mktemp -d)}/mockapns
mkdir -p "$ROOT"
TARBALL="$ROOT/$(basename "$URL")"
curl -fsSL --retry 3 -o "$TARBALL" "$URL" || die "could not download $URL (is there a release v$VERSION with a linux-$ARCH tarball?)"
if [ -n "$CHECKSUMS" ]; then
    curl -fsSL --retry 3 -o "$ROOT/SHA256SUMS" "$CHECKSUMS" || die "could not download the checksums $CHECKSUMS"
    EXPECTED=$(awk -v name="$(basename "$TARBALL")" '$2 == name || $2 == "*" name { print $1 }' "$ROOT/SHA256SUMS")
    [ -n "$EXPECTED" ] || die "$CHECKSUMS lists no $(basename "$TARBALL")"
    ACTUAL=$(sha256sum "$TARBALL" | cut -d' ' -f1)
    [ "$ACTUAL" = "$EXPECTED" ] || die "$(basename "$TARBALL") has SHA-256 $ACTUAL, but $CHECKSUMS says $EXPECTED"
fi
INSTALL="$ROOT/$(basename "$TARBALL" .tar.gz)"
rm -rf "$INSTALL" && mkdir -p "$INSTALL"
tar -xzf "$TARBALL" -C "$INSTALL" --strip-components=1 || die "$URL is not a gzip tarball"
BIN="$INSTALL/mockapns"
[ -x "$BIN" ] || die "$URL holds no mockapns binary at its top folder"
if MISSING=$(ldd "$BIN" 2>/dev/null | grep 'not found'); then
    die "mockapns needs libraries this runner lacks: $(awk '{print $1}' <<<"$MISSING" | tr '\n' ' ')(sudo apt-get install libnghttp2-14 libssl3)"
fi

READY="$ROOT/ready.json"
LOG="$ROOT/serve.log"
read -r -a ARGS <<<"${INPUT_ARGS:-}"
# Its own session and no tie to the step's output: the step ends, the mock keeps running for the job.
nohup setsid "$BIN" serve --port 0 --ready-file "$READY" "${ARGS[@]}" >"$LOG" 2>&1 </dev/null &
PID=$!
if ! CONTENTS=$("$BIN" wait --ready-file "$READY" --pid "$PID" --timeout "${INPUT_TIMEOUT:-60}"); then
    cat "$LOG" >&2
    die "mockapns serve did not become ready (its log is above)"
fi
field() { sed -n 's/.*"'"$1"'":"\([^"]*\)".*/\1/p' <<<"$CONTENTS"; }
APNS_URL=$(field apns_url)
CONTROL_URL=$(field control_url)
# ca_file is in the ready file of releases that issue their own certificate; older ones use the bundled test CA.
CA=$(field ca_file)
CA=${CA:-$INSTALL/certs/ca.pem}
[ -n "$APNS_URL" ] || die "the ready file has no apns_url: $CONTENTS"

{
    echo "APNS_URL=$APNS_URL"
    echo "APNS_CA=$CA"
    echo "MOCKAPNS_CONTROL_URL=$CONTROL_URL"
} >>"${GITHUB_ENV:-/dev/null}"
{
    echo "apns-url=$APNS_URL"
    echo "apns-ca=$CA"
    echo "control-url=$CONTROL_URL"
    echo "pid=$PID"
    echo "log=$LOG"
} >>"${GITHUB_OUTPUT:-/dev/null}"
echo "$INSTALL" >>"${GITHUB_PATH:-/dev/null}"
echo "MockAPNs $("$BIN" --version): APNs $APNS_URL (CA $CA), control plane ${CONTROL_URL:-off}, pid $PID, log $LOG"
