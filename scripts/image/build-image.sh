#!/usr/bin/env bash
# make image: builds the Containerfile from the newest dist/mockapns-<version>-linux-<arch>.tar.gz (make dist) with
# podman or docker, whichever is there (lib.sh), and tags it mockapns:<version> and mockapns:latest. With podman
# and no debian:bookworm-slim in its storage, the base is made first with debootstrap (base-image.sh): no registry
# is needed.
#   IMAGE  the repository name to tag (default mockapns)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pick_engine
dist_tarball
IMAGE=${IMAGE:-mockapns}
if ! engine image inspect docker.io/library/debian:bookworm-slim >/dev/null 2>&1; then
    # The official base when a registry answers; else (a CI sandbox that reaches only a Debian mirror) a local one.
    if ! timeout 120 "$ENGINE" pull -q docker.io/library/debian:bookworm-slim >/dev/null 2>&1; then
        bash "$IMAGE_DIR/base-image.sh"
    fi
fi
ARGS=(--build-arg "VERSION=$VERSION" --build-arg "CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
      -t "$IMAGE:$VERSION" -t "$IMAGE:latest" -f "$REPO_ROOT/Containerfile")
REVISION=$(git -C "$REPO_ROOT" rev-parse HEAD 2>/dev/null || true)
[ -n "$REVISION" ] && ARGS+=(--build-arg "REVISION=$REVISION")
# podman: the docker format keeps the HEALTHCHECK (OCI has no field for it); the base is local, never pulled.
[ "$ENGINE" = podman ] && ARGS+=(--format docker --pull=never)
echo "build-image: $ENGINE build $IMAGE:$VERSION from $(basename "$TARBALL")"
LOG=$(mktemp)
if ! engine build "${ARGS[@]}" "$REPO_ROOT" >"$LOG" 2>&1; then
    tail -40 "$LOG" >&2
    die "$ENGINE build failed (the end of its output is above; all of it is in $LOG)"
fi
rm -f "$LOG"
echo "build-image: $IMAGE:$VERSION and $IMAGE:latest ($(engine image inspect --format '{{.Size}}' "$IMAGE:$VERSION" | awk '{printf "%.1f MB", $1/1e6}'))"
