#!/usr/bin/env bash
# run-container-tests.sh [PYTEST ARG…]: the Python kit's container-mode suite (container-tests/): MockAPNs.container
# with podman, and the Testcontainers module against podman's Docker-compatible API (each test starts and stops the
# service it needs). Needs podman and the image IMAGE (default mockapns:latest; `make image` builds it); no binary.
# PYTHON as for run-tests.sh; CONTAINERS_CONF defaults to scripts/image/containers.conf.
set -euo pipefail
KIT=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-$KIT/.venv/bin/python}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$(realpath "$KIT/../../scripts/image/containers.conf")}
export MOCKAPNS_IMAGE=${IMAGE:-mockapns:latest}
export MOCKAPNS_CERTS_DIR=${MOCKAPNS_CERTS_DIR:-$(realpath "$KIT/../../certs")}
[ -x "$PYTHON" ] || { echo "run-container-tests: no python at $PYTHON; set PYTHON to one with the kit installed" \
    "(python3 -m venv V && V/bin/pip install -e 'kits/python[test]')" >&2; exit 2; }
command -v podman >/dev/null || { echo "run-container-tests: needs podman (apt-get install podman runc)" >&2; exit 2; }
podman image exists "$MOCKAPNS_IMAGE" || {
    echo "run-container-tests: podman has no image $MOCKAPNS_IMAGE; build it first (make image)" >&2; exit 2; }
cd "$KIT"
exec "$PYTHON" -m pytest container-tests "$@"
