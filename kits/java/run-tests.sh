#!/usr/bin/env bash
# Builds the Java kit and runs its tests with the JUnit console launcher, without Maven or Maven Central: javac
# --release 11 against Debian's junit5 jars (installed with apt-get when missing, as root). Everything it writes goes
# to kits/java/target/.
#
#   MOCKAPNS_BIN=/path/to/mockapns kits/java/run-tests.sh          # process mode: the binary (or mockapns on PATH)
#   MOCKAPNS_IMAGE=mockapns:latest kits/java/run-tests.sh          # container mode: the image, no binary
#
# Container mode runs the same suite against the image with docker or podman (MOCKAPNS_CONTAINER_ENGINE picks one),
# plus the tests of container errors (tag "container"); MOCKAPNS_BIN is ignored there. Podman reads the repository's
# scripts/image/containers.conf unless CONTAINERS_CONF says otherwise. Arguments select tests instead of the whole
# suite (console launcher selectors, e.g. --select-class dev.mockapns.JsonTest). Exits non-zero when a test fails.
set -euo pipefail

KIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$KIT_DIR/../.." && pwd)
TARGET=$KIT_DIR/target
JAVA_LIB=/usr/share/java
STANDALONE=$JAVA_LIB/junit-platform-console-standalone.jar
VERSION=0.1.0

die() { echo "run-tests.sh: $*" >&2; exit 1; }

command -v javac >/dev/null && command -v java >/dev/null \
    || die "no JDK: install one (Java 11 or newer), e.g. apt-get install -y default-jdk-headless"
if [ ! -f "$STANDALONE" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "run-tests.sh: installing junit5 (Debian's JUnit 5 jars)" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq junit5 >/dev/null
    fi
    [ -f "$STANDALONE" ] || die "no $STANDALONE: install Debian's junit5 package (apt-get install -y junit5, as root)"
fi

if [ -n "${MOCKAPNS_IMAGE:-}" ]; then
    MODE=container
    unset MOCKAPNS_BIN   # the suite must pass on the image alone
    export CONTAINERS_CONF=${CONTAINERS_CONF:-$REPO_ROOT/scripts/image/containers.conf}
    TAGS=(--exclude-tag fixture)
else
    MODE=process
    if [ -n "${MOCKAPNS_BIN:-}" ]; then
        [ -x "$MOCKAPNS_BIN" ] || die "MOCKAPNS_BIN=$MOCKAPNS_BIN is not an executable file"
    elif ! command -v mockapns >/dev/null; then
        die "no mockapns: set MOCKAPNS_BIN to the binary (or put it on PATH), or MOCKAPNS_IMAGE=mockapns:latest to test the image"
    fi
    # The bundled test keys: a debug build outside the repository does not find them by itself.
    export MOCKAPNS_CERTS_DIR=${MOCKAPNS_CERTS_DIR:-$REPO_ROOT/certs}
    TAGS=(--exclude-tag fixture --exclude-tag container)
fi

rm -rf "$TARGET"
mkdir -p "$TARGET/classes" "$TARGET/test-classes"
started=$(date +%s.%N)

# The extension compiles against the JUnit API only; the tests against everything the console launcher bundles.
API_CP=$JAVA_LIB/junit-jupiter-api.jar:$JAVA_LIB/junit-platform-commons.jar:$JAVA_LIB/opentest4j.jar:$JAVA_LIB/apiguardian-api.jar
find "$KIT_DIR/src/main/java" -name '*.java' > "$TARGET/main-sources.txt"
javac --release 11 -Xlint:all -Werror -encoding UTF-8 -cp "$API_CP" -d "$TARGET/classes" @"$TARGET/main-sources.txt"
printf 'Automatic-Module-Name: dev.mockapns\nImplementation-Title: mockapns\nImplementation-Version: %s\n' "$VERSION" \
    > "$TARGET/MANIFEST.MF"
jar --create --file "$TARGET/mockapns-$VERSION.jar" --manifest "$TARGET/MANIFEST.MF" -C "$TARGET/classes" .

find "$KIT_DIR/src/test/java" -name '*.java' > "$TARGET/test-sources.txt"
javac --release 11 -Xlint:all -Xlint:-try -Werror -encoding UTF-8 -cp "$TARGET/classes:$STANDALONE" \
    -d "$TARGET/test-classes" @"$TARGET/test-sources.txt"
built=$(date +%s.%N)

echo "run-tests.sh: $MODE mode${MOCKAPNS_IMAGE:+ (image $MOCKAPNS_IMAGE)}${MOCKAPNS_BIN:+ (binary $MOCKAPNS_BIN)}"
SELECT=(--scan-class-path "$TARGET/test-classes")
[ $# -eq 0 ] || SELECT=("$@")
status=0
java -Dmockapns.test.timings="$TARGET/startup-times.txt" -Dmockapns.test.repo="$REPO_ROOT" \
    -Dmockapns.test.classpath="$TARGET/classes:$TARGET/test-classes" \
    -jar "$STANDALONE" --disable-banner --disable-ansi-colors --details=tree --details-theme=ascii \
    --class-path "$TARGET/classes:$TARGET/test-classes" --reports-dir "$TARGET/test-reports" "${TAGS[@]}" \
    "${SELECT[@]}" || status=$?
finished=$(date +%s.%N)

if [ -s "$TARGET/startup-times.txt" ]; then
    sort -n "$TARGET/startup-times.txt" | awk -v mode="$MODE" '
        { ms[NR] = $1; sum += $1 }
        END { printf "run-tests.sh: %s mode, %d mock start-ups: min %d ms, median %d ms, max %d ms, mean %d ms\n",
              mode, NR, ms[1], ms[int((NR + 1) / 2)], ms[NR], sum / NR }'
fi
awk -v b="$started" -v c="$built" -v f="$finished" -v mode="$MODE" \
    'BEGIN { printf "run-tests.sh: %s mode: build %.1f s, tests %.1f s\n", mode, c - b, f - c }'
exit $status
