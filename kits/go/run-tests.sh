#!/usr/bin/env bash
# The Go kit's suite (`go test -v`, Debian's Go 1.19+, standard library only: GOPROXY=off), in either mode:
#
#   kits/go/run-tests.sh binary [MOCKAPNS]   against a mockapns binary (default $MOCKAPNS_BIN, else .build/debug/mockapns)
#   kits/go/run-tests.sh container [IMAGE]   against the image (default $MOCKAPNS_IMAGE, else mockapns:latest) under
#                                            podman or docker ($MOCKAPNS_CONTAINER_ENGINE), with no mockapns on PATH
#
# GO_TEST_FLAGS adds `go test` flags, e.g. GO_TEST_FLAGS='-run Apple'.
set -euo pipefail
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$KIT/../.." && pwd)
die() { echo "kits/go/run-tests.sh: $*" >&2; exit 1; }
command -v go >/dev/null || die "no go on PATH: install Go 1.19 or later (Debian's golang-go)"

USAGE="kits/go/run-tests.sh binary [MOCKAPNS] | container [IMAGE]"
# shellcheck source=../mode.sh
source "$ROOT/kits/mode.sh"
kit_mode "$@"

cd "$KIT"
# shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags
GOFLAGS=-mod=mod GOPROXY=off exec go test -v -count=1 ${GO_TEST_FLAGS:-} ./...
