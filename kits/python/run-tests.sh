#!/usr/bin/env bash
# run-tests.sh [PYTEST ARG…]: the Python kit's suite in binary mode (tests/): every test starts the mockapns binary
# it needs ($MOCKAPNS_BIN) and real senders (aioapns, kalyke-apns, pyapns-client, h2; firebase-admin, pyfcm and
# async-firebase against serve --fcm); no container engine.
# PYTHON is a python with the kit installed and its test extra (pip install -e 'kits/python[test]'); default: the
# kit's .venv. MOCKAPNS_CERTS_DIR defaults to the repository's certs/.
set -euo pipefail
KIT=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-$KIT/.venv/bin/python}
[ -x "$PYTHON" ] || { echo "run-tests: no python at $PYTHON; set PYTHON to one with the kit installed" \
    "(python3 -m venv V && V/bin/pip install -e 'kits/python[test]')" >&2; exit 2; }
[ -n "${MOCKAPNS_BIN:-}" ] && [ -x "$MOCKAPNS_BIN" ] || {
    echo "run-tests: set MOCKAPNS_BIN to a built mockapns (got '${MOCKAPNS_BIN:-}')" >&2; exit 2; }
export MOCKAPNS_BIN=$(realpath "$MOCKAPNS_BIN")
export MOCKAPNS_CERTS_DIR=${MOCKAPNS_CERTS_DIR:-$(realpath "$KIT/../../certs")}
cd "$KIT"
exec "$PYTHON" -m pytest "$@"     # the tests/ of pyproject.toml unless paths are given
