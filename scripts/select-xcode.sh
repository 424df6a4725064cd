#!/usr/bin/env bash
# select-xcode.sh [MAJOR]: for the macOS jobs of .github/workflows, selects (xcode-select) the newest released
# /Applications/Xcode*.app whose version is MAJOR (default 26) or later. Package.swift says swift-tools-version 6.2,
# and Xcode 26 is the first to ship Swift 6.2: an older Xcode refuses the manifest. When the runner has no such Xcode,
# it fails, listing the ones it has. Prints the Swift it selected.
set -euo pipefail
WANT=${1:-26}
[ "$(uname -s)" = Darwin ] || { echo "select-xcode: this is for macOS runners (uname: $(uname -s))" >&2; exit 2; }

found=()
for app in /Applications/Xcode*.app; do
    [ -d "$app" ] || continue
    case "$app" in *[Bb]eta*|*Release_Candidate*) continue ;; esac
    version=$(/usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$app/Contents/Info.plist" 2>/dev/null || true)
    found+=("${version:-?} $app")
done

best= best_version=
for entry in "${found[@]+"${found[@]}"}"; do
    version=${entry%% *} app=${entry#* }
    major=${version%%.*}
    [[ "$major" =~ ^[0-9]+$ ]] && [ "$major" -ge "$WANT" ] || continue
    # The newest: compare major, minor and patch as numbers.
    if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best_version" "$version" | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)" = "$version" ]; then
        best=$app best_version=$version
    fi
done

if [ -z "$best" ]; then
    echo "select-xcode: no Xcode $WANT or later on this runner; the manifest (swift-tools-version 6.2) needs one." >&2
    echo "select-xcode: Xcodes here (version, path):" >&2
    if [ ${#found[@]} -eq 0 ]; then echo "  none in /Applications" >&2; else printf '  %s\n' "${found[@]}" >&2; fi
    echo "select-xcode: pick a runner image (runs-on) that has Xcode $WANT or later." >&2
    exit 1
fi
sudo xcode-select -s "$best/Contents/Developer"
echo "select-xcode: $best (Xcode $best_version)"
xcrun swift --version
