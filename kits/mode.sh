# Sourced by kits/go/run-tests.sh and kits/node/run-tests.sh: sets up the environment of one of a kit's two modes,
# with ROOT (the checkout), die (the runner's error) and the runner's usage line already defined.
#   binary [MOCKAPNS]   the mockapns binary (default $MOCKAPNS_BIN, else the checkout's debug build) and certs/
#   container [IMAGE]   the image (default $MOCKAPNS_IMAGE, else mockapns:latest) and nothing else: no binary on PATH
kit_mode() {
    case "${1:-}" in
    binary)
        local bin=${2:-${MOCKAPNS_BIN:-$ROOT/.build/debug/mockapns}}
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
        # The engine the kits pick: podman or docker, and with both the one whose `info` answers, podman first.
        local engine=${MOCKAPNS_CONTAINER_ENGINE:-} podman docker
        if [ -z "$engine" ]; then
            podman=$(command -v podman || true)
            docker=$(command -v docker || true)
            engine=${podman:-$docker}
            if [ -n "$podman" ] && [ -n "$docker" ] && ! "$podman" info >/dev/null 2>&1 && "$docker" info >/dev/null 2>&1; then
                engine=$docker
            fi
        fi
        [ -n "$engine" ] || die "container mode needs podman or docker on PATH (or MOCKAPNS_CONTAINER_ENGINE)"
        "$engine" image inspect "$MOCKAPNS_IMAGE" >/dev/null 2>&1 || die "$engine has no image $MOCKAPNS_IMAGE: make image builds mockapns:latest"
        # The suite must need the image only: no binary, no credentials from the checkout.
        unset MOCKAPNS_BIN MOCKAPNS_CERTS_DIR
        local path= dir dirs
        IFS=: read -ra dirs <<< "$PATH"
        for dir in "${dirs[@]}"; do [ -x "$dir/mockapns" ] || path=${path:+$path:}$dir; done
        export PATH=$path
        ;;
    *)
        die "usage: $USAGE"
        ;;
    esac
}
