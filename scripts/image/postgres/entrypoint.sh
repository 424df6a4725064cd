#!/bin/sh
# The test PostgreSQL image's entrypoint: on an empty $PGDATA, initdb with POSTGRES_USER (default postgres) and
# POSTGRES_PASSWORD (password logins over TCP) and a database POSTGRES_DB (default the user's name); then the command,
# `postgres` listening on every address.
set -eu
if [ "${1:-}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD (the password of POSTGRES_USER)}"
    user=${POSTGRES_USER:-postgres}
    database=${POSTGRES_DB:-$user}
    echo "$POSTGRES_PASSWORD" >/tmp/password
    initdb -D "$PGDATA" -U "$user" --pwfile=/tmp/password --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f /tmp/password
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$database" != postgres ]; then
        pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
        createdb -U "$user" "$database"
        pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "postgres-entrypoint: made $PGDATA (user $user, database $database)"
fi
if [ "${1:-}" = postgres ]; then
    shift
    exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
