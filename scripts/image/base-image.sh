#!/usr/bin/env bash
# The Containerfile's base, debian:bookworm-slim, made locally with debootstrap --variant=minbase from Debian's own
# packages (for machines that reach a Debian mirror but no container registry), then slimmed as the official image
# is (no docs, man pages or locales) and imported under the name the Containerfile uses. It is made once: an image
# of that name already in the engine's storage is kept, and the root file system is kept as a tarball in the cache
# folder, imported again in seconds when the engine's storage was emptied (REBUILD_BASE=1 makes both again).
#   DEBIAN_MIRROR  the mirror to bootstrap from (default http://deb.debian.org/debian)
#   MOCKAPNS_IMAGE_CACHE  the cache folder (default ~/.cache/mockapns-image)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pick_engine
BASE=docker.io/library/debian:bookworm-slim
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${MOCKAPNS_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mockapns-image}
ROOTFS="$CACHE/debian-bookworm-slim-$(dpkg --print-architecture).tar"

if [ "${REBUILD_BASE:-0}" != 1 ] && engine image inspect "$BASE" >/dev/null 2>&1; then
    echo "base-image: $BASE is there ($(engine image inspect --format '{{.Created}}' "$BASE"))"
    exit 0
fi
# import_rootfs: the tarball at $ROOTFS becomes $BASE.
import_rootfs() {
    "$ENGINE" import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' \
        --message "debootstrap --variant=minbase bookworm ($MIRROR), slimmed" "$ROOTFS" "$BASE" >"$ROOTFS.log" 2>&1 \
        || { cat "$ROOTFS.log" >&2; rm -f "$ROOTFS.log"; die "$ENGINE import $ROOTFS failed (above)"; }
    rm -f "$ROOTFS.log"
    echo "base-image: $BASE made from $ROOTFS ($(engine image inspect --format '{{.Size}}' "$BASE" | awk '{printf "%.1f MB", $1/1e6}'))"
}
if [ "${REBUILD_BASE:-0}" != 1 ] && [ -s "$ROOTFS" ]; then
    import_rootfs
    exit 0
fi
apt_install debootstrap
ROOT=$(mktemp -d)
trap '$SUDO rm -rf "$ROOT"' EXIT
echo "base-image: debootstrap --variant=minbase bookworm from $MIRROR"
$SUDO debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$ROOT.log" 2>&1 \
    || { tail -20 "$ROOT.log" >&2; rm -f "$ROOT.log"; die "debootstrap failed (log above): is $MIRROR reachable? (set DEBIAN_MIRROR)"; }
rm -f "$ROOT.log"

# What the official slim image does (debuerreotype-slimify): dpkg leaves docs, man pages and locales out of every
# package installed later, and the ones there now go.
$SUDO tee "$ROOT/etc/dpkg/dpkg.cfg.d/docker" >/dev/null <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/man/*
CFG
$SUDO tee "$ROOT/etc/apt/apt.conf.d/docker-clean" >/dev/null <<'CFG'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
Acquire::Languages "none";
CFG
$SUDO rm -f "$ROOT/etc/apt/sources.list"
$SUDO tee "$ROOT/etc/apt/sources.list.d/debian.sources" >/dev/null <<CFG
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${MIRROR%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
CFG
$SUDO find "$ROOT/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
$SUDO find "$ROOT/usr/share/doc" -mindepth 1 -type d -empty -delete
$SUDO rm -rf "$ROOT"/usr/share/{man,info,groff,lintian,linda}/* "$ROOT"/var/cache/apt/* "$ROOT"/var/lib/apt/lists/* \
    "$ROOT"/var/log/* "$ROOT"/tmp/* "$ROOT"/dev/*
$SUDO find "$ROOT/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
# /etc/hostname and /etc/resolv.conf are the engine's to provide.
$SUDO rm -f "$ROOT/etc/hostname" "$ROOT/etc/resolv.conf"

mkdir -p "$CACHE"
$SUDO tar --numeric-owner -C "$ROOT" -cf "$ROOTFS.tmp" . && mv "$ROOTFS.tmp" "$ROOTFS"
import_rootfs
