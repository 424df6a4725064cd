#!/usr/bin/env bash
# make dist: dist/mockapns-<version>-linux-<arch>.tar.gz — the mockapns binary built with the Swift runtime and
# Foundation linked in (--static-swift-stdlib), LICENSE, and the test certificates in certs/ beside the binary,
# where it finds them with no MOCKAPNS_CERTS_DIR. Needs at run time: glibc, libnghttp2, libssl3, libcurl4.
# The version comes from the built binary (`mockapns --version`), whose one source is MockAPNsVersion.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# Its own scratch folder: a static-stdlib link must not replace the objects `make run` builds in .build/release.
# The static FoundationNetworking (URLSession, used by list/show/tail/expect) links libcurl (-lcurl). Without the
# -dev package there is no libcurl.so to find, so one is made in a scratch folder pointing at the runtime library
# (libcurl4 is on Debian/Ubuntu machines and CI runners).
LINKDIR=$(mktemp -d)
trap 'rm -rf "$LINKDIR"' EXIT
CURL=$(ldconfig -p | awk '$1 == "libcurl.so.4" && $NF ~ /^\// { print $NF; exit }')
[ -n "$CURL" ] || { echo "make-dist: libcurl.so.4 not found (apt-get install libcurl4)" >&2; exit 1; }
ln -s "$CURL" "$LINKDIR/libcurl.so"
FLAGS=(-c release --product mockapns --static-swift-stdlib --scratch-path .build-dist -Xlinker -L"$LINKDIR")
"$SWIFT" build "${FLAGS[@]}"
BIN="$("$SWIFT" build "${FLAGS[@]}" --show-bin-path)/mockapns"
VERSION=$("$BIN" --version)
[[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]] || { echo "make-dist: unexpected version '$VERSION'" >&2; exit 1; }
NAME="mockapns-$VERSION-linux-$(uname -m)"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE" "$LINKDIR"' EXIT
mkdir -p "$STAGE/$NAME/certs" dist
cp "$BIN" "$STAGE/$NAME/mockapns"
strip "$STAGE/$NAME/mockapns" 2>/dev/null || true
cp certs/*.pem certs/*.p8 certs/keys.json certs/README.md "$STAGE/$NAME/certs/"
cp LICENSE "$STAGE/$NAME/"
tar -C "$STAGE" -czf "dist/$NAME.tar.gz" "$NAME"
echo "make-dist: dist/$NAME.tar.gz ($(du -h "dist/$NAME.tar.gz" | cut -f1))"
