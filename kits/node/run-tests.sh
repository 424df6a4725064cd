#!/usr/bin/env bash
# The Node kit's suite (`node --test`, TAP reporter, Node 18+, no dependencies), in either mode:
#
#   kits/node/run-tests.sh binary [MOCKAPNS]   against a mockapns binary (default $MOCKAPNS_BIN, else .build/debug/mockapns)
#   kits/node/run-tests.sh container [IMAGE]   against the image (default $MOCKAPNS_IMAGE, else mockapns:latest) under
#                                              podman or docker ($MOCKAPNS_CONTAINER_ENGINE), with no mockapns on PATH
#
# NODE_TEST_FILES picks test files (default test/*.test.js).
set -euo pipefail
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$KIT/../.." && pwd)
die() { echo "kits/node/run-tests.sh: $*" >&2; exit 1; }
command -v node >/dev/null || die "no node on PATH: install Node 18 or later (Debian's nodejs)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' ||
    die "kits/node needs Node 18 or later, found $(node --version)"

case "${1:-}" in
binary)
    bin=${2:-${MOCKAPNS_BIN:-$ROOT/.build/debug/mockapns}}
    [ -x "$bin" ] || die "no executable mockapns at $bin: build it (swift build --product mockapns) or pass its path"
    export MOCKAPNS_BIN
    MOCKAPNS_BIN=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
    export MOCKAPNS_CERTS_DIR=$ROOT/certs
    unset MOCKAPNS_IMAGE
    ;;
container)
    export MOCKAPNS_IMAGE=${2:-${MOCKAPNS_IMAGE:-mockapns:latest}}
    # Podman here needs the project's settings (runc, cgroupfs); /etc is left alone.
    export CONTAINERS_CONF=${CONTAINERS_CONF:-$ROOT/scripts/image/containers.conf}
    engine=${MOCKAPNS_CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
    [ -n "$engine" ] || die "container mode needs podman or docker on PATH (or MOCKAPNS_CONTAINER_ENGINE)"
    "$engine" image inspect "$MOCKAPNS_IMAGE" >/dev/null 2>&1 || die "$engine has no image $MOCKAPNS_IMAGE: make image builds mockapns:latest"
    # The suite must need the image only: no binary, no credentials from the checkout.
    unset MOCKAPNS_BIN MOCKAPNS_CERTS_DIR
    path=
    IFS=: read -ra dirs <<< "$PATH"
    for dir in "${dirs[@]}"; do [ -x "$dir/mockapns" ] || path=${path:+$path:}$dir; done
    export PATH=$path
    ;;
*)
    die "usage: kits/node/run-tests.sh binary [MOCKAPNS] | container [IMAGE]"
    ;;
esac

cd "$KIT"
# shellcheck disable=SC2086 # NODE_TEST_FILES is a list of files
exec node --test --test-reporter=tap ${NODE_TEST_FILES:-test/*.test.js}
