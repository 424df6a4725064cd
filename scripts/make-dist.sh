#!/usr/bin/env bash
# make dist: dist/mockapns-<version>-linux-<arch>.tar.gz — the mockapns binary built with the Swift runtime and
# Foundation linked in (--static-swift-stdlib), LICENSE, and the test certificates in certs/ beside the binary,
# where it finds them with no MOCKAPNS_CERTS_DIR. Needs at run time: glibc, libnghttp2, libssl3.
# The version comes from the built binary (`mockapns --version`), whose one source is MockAPNsVersion.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# Its own scratch folder: a static-stdlib link must not replace the objects `make run` builds in .build/release.
FLAGS=(-c release --product mockapns --static-swift-stdlib --scratch-path .build-dist)
"$SWIFT" build "${FLAGS[@]}"
BIN="$("$SWIFT" build "${FLAGS[@]}" --show-bin-path)/mockapns"
VERSION=$("$BIN" --version)
[[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]] || { echo "make-dist: unexpected version '$VERSION'" >&2; exit 1; }
NAME="mockapns-$VERSION-linux-$(uname -m)"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/$NAME/certs" dist
cp "$BIN" "$STAGE/$NAME/mockapns"
strip "$STAGE/$NAME/mockapns" 2>/dev/null || true
cp certs/*.pem certs/*.p8 certs/keys.json certs/README.md "$STAGE/$NAME/certs/"
cp LICENSE "$STAGE/$NAME/"
tar -C "$STAGE" -czf "dist/$NAME.tar.gz" "$NAME"
echo "make-dist: dist/$NAME.tar.gz ($(du -h "dist/$NAME.tar.gz" | cut -f1))"
