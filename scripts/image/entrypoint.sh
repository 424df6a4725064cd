#!/bin/sh
# The image's entrypoint: runs `mockapns "$@"` (CMD is `serve`). The image's control plane listens on 0.0.0.0, where
# serve requires a token: when neither MOCKAPNS_CONTROL_TOKEN nor a control flag on the command line says otherwise,
# serve gets a random token, printed at start (set the variable to choose it; /healthz and /api/v1/ca.pem need none).
set -eu
needs_token() {
    [ "${1:-}" = serve ] && [ -z "${MOCKAPNS_CONTROL_TOKEN:-}" ] || return 1
    case " $* " in *" --control-token"* | *" --control-host"* | *" --no-control "*) return 1 ;; esac
    case "${MOCKAPNS_CONTROL_HOST:-127.0.0.1}/$(echo "${MOCKAPNS_NO_CONTROL:-}" | tr '[:upper:]' '[:lower:]')" in
        127.0.0.1/* | localhost/* | ::1/* | */1 | */true | */yes) return 1 ;;   # loopback, or no control plane
    esac
}
if needs_token "$@"; then
    MOCKAPNS_CONTROL_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    export MOCKAPNS_CONTROL_TOKEN
    echo "mockapns: control token (made at start; set MOCKAPNS_CONTROL_TOKEN to choose one): $MOCKAPNS_CONTROL_TOKEN" >&2
fi
exec mockapns "$@"
