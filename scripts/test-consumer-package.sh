#!/usr/bin/env bash
# The Swift kit's surface as a user meets it: Tests/ConsumerPackage is a package of its own that depends on this
# repository (by path) and on its product APNsTesting alone, and its one test target holds every Swift block of
# docs/swift-test-kit.md with nothing but `import APNsTesting` (+ XCTest / Swift Testing). This checks that those
# files are still the document's (scripts/doc-snippets.py swift-consumer --check), then builds the package, tests
# included; it fails when either fails, e.g. when the kit stops re-exporting a type its documentation uses.
# Its own scratch folder (.build-consumer, git-ignored), so it never touches the root build's objects; the root's
# Package.resolved, when there is one, is copied in (git-ignored there too) so both builds use the same versions.
# Extra arguments go to `swift build` (e.g. -c release). SWIFT names the toolchain's swift, as in the Makefile.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
PACKAGE=Tests/ConsumerPackage
python3 scripts/doc-snippets.py swift-consumer --check
if [ -f Package.resolved ]; then
    cp Package.resolved "$PACKAGE/Package.resolved"
fi
if ! "$SWIFT" build --build-tests --package-path "$PACKAGE" --scratch-path "$PWD/.build-consumer" "$@"; then
    echo "test-consumer-package: FAIL: $PACKAGE does not compile with \`import APNsTesting\` alone" >&2
    exit 1
fi
echo "test-consumer-package: $PACKAGE (docs/swift-test-kit.md's Swift blocks) compiles with \`import APNsTesting\` alone"
