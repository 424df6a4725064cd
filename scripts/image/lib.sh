# shellcheck shell=bash
# Shared by the image scripts (sourced, not run): the container engine, the packages it needs, the dist tarball.
# ENGINE=podman|docker picks the engine; otherwise podman when installed, else a docker whose daemon answers, else
# podman is installed from apt. Podman reads this folder's containers.conf (runc, cgroupfs; /etc is left alone).

IMAGE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$IMAGE_DIR/../.." && pwd)
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

# die MESSAGE: the script's name, the message, exit 1.
die() { echo "$(basename "$0" .sh): $*" >&2; exit 1; }

# apt_install PACKAGE…: installs the ones that are missing (one apt-get update), nothing when all are there.
apt_install() {
    local missing=() p
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get here: install them with your package manager"
    echo "$(basename "$0" .sh): installing ${missing[*]}" >&2
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The packages podman needs here: runc (crun fails on hybrid cgroup v1 hosts), netavark + aardvark-dns (networks
# whose containers find each other by name; netavark sets up NAT with iptables).
PODMAN_PKGS=(podman runc netavark aardvark-dns iptables)

# pick_engine: sets ENGINE (podman or docker), installing podman when neither works.
pick_engine() {
    export CONTAINERS_CONF=${CONTAINERS_CONF:-$IMAGE_DIR/containers.conf}
    if [ -z "${ENGINE:-}" ]; then
        if command -v podman >/dev/null; then ENGINE=podman
        elif command -v docker >/dev/null && docker info >/dev/null 2>&1; then ENGINE=docker
        else ENGINE=podman
        fi
    fi
    case "$ENGINE" in
        podman) apt_install "${PODMAN_PKGS[@]}" ;;
        docker) docker info >/dev/null 2>&1 || die "ENGINE=docker but the Docker daemon does not answer (docker info)" ;;
        *) die "ENGINE must be podman or docker, got '$ENGINE'" ;;
    esac
}

# engine ARG…: $ENGINE ARG…, without the lines podman prints on every container start and stop where there is no
# systemd to schedule health checks or syslog to log to (the checks still run: `podman healthcheck run`).
engine() {
    "$ENGINE" "$@" 2> >(grep -v -e 'unable to get systemd connection' -e 'failed to connect to syslog' \
        -e 'Removing timer for container' >&2)
}

# dist_tarball: sets TARBALL (the newest dist/mockapns-*-linux-<this arch>.tar.gz) and VERSION (from its name).
dist_tarball() {
    TARBALL=$(ls -t "$REPO_ROOT"/dist/mockapns-*-linux-"$(uname -m)".tar.gz 2>/dev/null | head -1)
    [ -n "$TARBALL" ] || die "no dist/mockapns-*-linux-$(uname -m).tar.gz: run make dist first"
    VERSION=$(basename "$TARBALL" .tar.gz)
    VERSION=${VERSION#mockapns-}
    VERSION=${VERSION%-linux-*}
}
