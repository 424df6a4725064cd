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

USAGE="kits/node/run-tests.sh binary [MOCKAPNS] | container [IMAGE]"
# shellcheck source=../mode.sh
source "$ROOT/kits/mode.sh"
kit_mode "$@"

cd "$KIT"
# shellcheck disable=SC2086 # NODE_TEST_FILES is a list of files
exec node --test --test-reporter=tap ${NODE_TEST_FILES:-test/*.test.js}
