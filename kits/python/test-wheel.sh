#!/usr/bin/env bash
# test-wheel.sh [WHEEL]: installs the platform wheel (default: the newest dist/mockapns-*.whl) into a fresh venv and
# runs a pytest file that uses only the apns_mock fixture, in a bare environment: no MOCKAPNS_BIN or
# MOCKAPNS_CERTS_DIR, no mockapns on PATH, outside the repository. So the binary, its certificates and its shared
# libraries can only come from the wheel; ldd must find libnghttp2, libssl and the rest inside it.
set -euo pipefail
KIT=$(cd "$(dirname "$0")" && pwd)
WHEEL=${1:-$(ls -t "$KIT"/../../dist/mockapns-*.whl 2>/dev/null | head -1 || true)}
[ -n "$WHEEL" ] && [ -f "$WHEEL" ] || { echo "test-wheel: no wheel given and none in dist/; run make wheel" >&2; exit 2; }
WHEEL=$(realpath "$WHEEL")
PYTHON=${PYTHON:-python3}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q --disable-pip-version-check "$WHEEL" pytest
BIN=$("$WORK/venv/bin/python" -c 'import mockapns._backends as b; print(b.BUNDLED_DIR / "mockapns")')
# PEP 561: without py.typed in the installed package, type checkers ignore the kit's annotations.
[ -f "$(dirname "$BIN")/../py.typed" ] || { echo "test-wheel: the wheel has no mockapns/py.typed" >&2; exit 1; }

# Every library the bundled binary loads is found; the ones manylinux does not promise come from the wheel.
LIBS=$(ldd "$BIN")
if grep -q "not found" <<<"$LIBS"; then echo "test-wheel: $BIN misses libraries:" >&2; echo "$LIBS" >&2; exit 1; fi
for lib in libnghttp2 libssl libcrypto; do
    grep -E "^\s*$lib" <<<"$LIBS" | grep -q "/mockapns.libs/" || {
        echo "test-wheel: $lib does not come from the wheel's mockapns.libs:" >&2; echo "$LIBS" >&2; exit 1; }
done

mkdir "$WORK/project"
cat > "$WORK/project/test_with_the_wheel.py" <<'EOF'
import json
import os
import urllib.request

import mockapns

TOKEN = "ab" * 32


def test_a_push_is_recorded(apns_mock):
    body = json.dumps({"aps": {"alert": {"title": "Hello from the wheel"}}}).encode()
    request = urllib.request.Request(apns_mock.http1_url + "/3/device/" + TOKEN, data=body, method="POST",
                                     headers={"apns-topic": "com.example.app", "authorization": "bearer " + apns_mock.token()})
    assert urllib.request.urlopen(request, timeout=10).status == 200
    [push] = apns_mock.expect(count=1, token=TOKEN, topic="com.example.app", status=200)
    assert push.alert_title == "Hello from the wheel"


def test_the_binary_and_certificates_are_the_wheels(apns_mock):
    package = os.path.dirname(mockapns.__file__)
    # The signing key is the wheel's; the server certificate is signed by a CA of this mock's own (the session mock
    # serves Apple's names, which the bundled CA never signs), made in a folder of its own.
    assert apns_mock.key_file.startswith(package + os.sep), apns_mock.key_file
    assert not apns_mock.ca_file.startswith(package + os.sep), apns_mock.ca_file
    assert apns_mock.notifications() == []
EOF
cd "$WORK/project"
env -i HOME="$HOME" PATH="$WORK/venv/bin:/usr/bin:/bin" LANG=C.UTF-8 \
    "$WORK/venv/bin/python" -m pytest -p no:cacheprovider -q test_with_the_wheel.py
echo "test-wheel: $(basename "$WHEEL") installs and serves apns_mock on its own"
