# Shared by the bench scripts that need PostgreSQL (sourced after lib.sh, with $BIN set to the mockapns binary): a
# throwaway cluster from Debian's server (initdb into a temporary folder, as the postgres user when run as root, on a
# free port), migrated by `mockapns store migrate`; sets STORE, PGPORT, PGDIR and the helpers sql, as_pg and pg_cpu_ms,
# and stops the cluster on exit.
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$PG_BIN/initdb" ] || { echo "${0##*/}: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
command -v psql >/dev/null || { echo "${0##*/}: psql not found (apt-get install postgresql-client)" >&2; exit 1; }

# --- the database: as postgres when root (PostgreSQL refuses to run as root) ---
PGDIR=$(mktemp -d /tmp/mockapns-scale-pg.XXXXXX)
chmod 755 "$PGDIR"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$PGDIR"
PGPORT=$(free_port)
as_pg "$PG_BIN/initdb" -D "$PGDIR/data" -U mockapns --auth=trust --no-sync -E UTF8 > "$WORK/initdb.log" 2>&1 \
    || { cat "$WORK/initdb.log" >&2; exit 1; }
as_pg "$PG_BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w \
    -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1" start > /dev/null
stop_pg() { as_pg "$PG_BIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop > /dev/null 2>&1 || true; rm -rf "$PGDIR"; }
trap 'cleanup; stop_pg' EXIT
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U mockapns mockapns
STORE="postgres://mockapns@127.0.0.1:$PGPORT/mockapns?sslmode=disable"
sql() { psql -X -q -A -t -h 127.0.0.1 -p "$PGPORT" -U mockapns -d mockapns -c "$1"; }
"$BIN" store migrate --store "$STORE" > /dev/null

# CPU milliseconds (user + system) every PostgreSQL process has used, including exited backends (the
# postmaster's children's time).
pg_cpu_ms() {
    python3 - "$PGDIR/data/postmaster.pid" <<'EOF'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
master = int(open(sys.argv[1]).readline())
def fields(pid):
    return open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
total = 0
f = fields(master)
total += int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])   # its own and its reaped children's
for entry in os.listdir("/proc"):
    if not entry.isdigit() or int(entry) == master:
        continue
    try:
        f = fields(int(entry))
    except OSError:
        continue
    if int(f[1]) == master:   # a live child: a backend, the writer, the checkpointer…
        total += int(f[11]) + int(f[12])
print(total * 1000 // tick)
EOF
}
