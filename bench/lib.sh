# Shared by the bench/*.sh scripts (sourced, not run): a scratch folder and background servers cleaned up on
# exit, and helpers to pick a free loopback port and wait for a server to listen on it.
WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# The mockapns binary a script runs: $MOCKAPNS when set, else a release build made now. Sets BIN.
use_mockapns() {
    if [ -z "${MOCKAPNS:-}" ]; then
        echo "building mockapns (release)…" >&2
        swift build -c release --product mockapns >&2
        MOCKAPNS=$(swift build -c release --show-bin-path)/mockapns
    fi
    BIN=$MOCKAPNS
}

# write_tokens COUNT FILE: COUNT distinct 64-hex-digit device tokens (sha256 of 0, 1, …), the same in every script.
write_tokens() { python3 -c "import hashlib
for i in range($1): print(hashlib.sha256(str(i).encode()).hexdigest())" > "$2"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() { for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }

# --- CPU per request of a server process (server.sh, http1.sh) ---

# Runs "$@" (a load generator) while `perf stat` counts the task-clock of process $1's threads; prints the
# server's CPU milliseconds. Indicative on a shared machine (other processes' load shifts caches and clocks).
# It also leaves the user and kernel halves of the same span in $WORK/split.$1 ("user_ms sys_ms", from
# /proc/PID/stat, 10 ms resolution): callgrind counts only user-space instructions, and the servers differ in
# what they ask of the kernel (nghttpd opens and reads a file per request; mockapns writes its record file).
perf_task_clock_ms() {
    local pid=$1; shift
    local before; before=$(proc_cpu_ms "$pid")
    perf stat -e task-clock -x, -o "$WORK/perf.$pid" -p "$pid" & local perf_pid=$!
    sleep 0.2
    "$@" > "$WORK/load.out" 2>&1 || { stop_perf "$perf_pid"; echo "load generator failed: $*" >&2; cat "$WORK/load.out" >&2; exit 1; }
    stop_perf "$perf_pid"
    local after; after=$(proc_cpu_ms "$pid")
    python3 -c 'import sys; b=sys.argv[1].split(); a=sys.argv[2].split(); print(float(a[0])-float(b[0]), float(a[1])-float(b[1]))' "$before" "$after" > "$WORK/split.$pid"
    awk -F, '/task-clock/ { print $1 }' "$WORK/perf.$pid"
}

# Stops `perf stat` (pid $1) and waits for it. A SIGINT that reaches perf before it is counting can be lost on a
# loaded machine, leaving it attached for ever: the signal is repeated each second until perf exits (5 s at most,
# then it is killed and that round's perf figure is missing).
stop_perf() {
    local pid=$1
    for _ in 1 2 3 4 5; do
        kill -INT "$pid" 2>/dev/null || break
        for _ in $(seq 1 10); do kill -0 "$pid" 2>/dev/null || break 2; sleep 0.1; done
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" || true
}

# "user_ms sys_ms" a process has used so far (every thread), from /proc/PID/stat.
proc_cpu_ms() {
    python3 -c 'import os,sys
f=open("/proc/%s/stat" % sys.argv[1]).read().rsplit(")",1)[1].split()
t=os.sysconf("SC_CLK_TCK"); print(int(f[11])*1000/t, int(f[12])*1000/t)' "$1"
}

# Starts "$@" (a server command line, listening on $CG_PORT) under `valgrind --tool=callgrind` with collection
# (instrumentation) off, so that CG_PID can be warmed up and then counted with cg_count. Two work-arounds for valgrind 3.19 (Debian
# 12): it cannot read the DWARF 5 debug info of a Swift release binary, so a copy without debug info runs (same
# code, same instruction counts); and it crashes when a program calls sigsuspend() with a mask in read-only memory,
# which libdispatch does for signal sources, so a preloaded shim passes a writable copy of the mask.
cg_start() {
    local program=$1; shift
    if [[ "$program" != /usr/* ]]; then
        local copy; copy="$WORK/$(basename "$program").nodebug.$(stat -c %Y "$program")"
        [ -x "$copy" ] || objcopy --strip-debug "$program" "$copy"
        program=$copy
    fi
    if [ ! -f "$WORK/sigsuspend.so" ]; then
        printf '%s\n' '#define _GNU_SOURCE' '#include <signal.h>' '#include <unistd.h>' '#include <sys/syscall.h>' \
            'int sigsuspend(const sigset_t *mask) { sigset_t copy = *mask; return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)8); }' \
            > "$WORK/sigsuspend.c"
        cc -shared -fPIC -O2 -o "$WORK/sigsuspend.so" "$WORK/sigsuspend.c"
    fi
    LD_PRELOAD="$WORK/sigsuspend.so" valgrind --tool=callgrind --instr-atstart=no --dump-instr=no ${CG_OPTS:-} \
        --callgrind-out-file="$WORK/cg.%p" "$program" "$@" > "$WORK/cg.log" 2>&1 &
    CG_PID=$!
    PIDS+=($CG_PID)
    for _ in $(seq 1 600); do (exec 3<>/dev/tcp/127.0.0.1/"$CG_PORT") 2>/dev/null && return 0; sleep 0.1; done
    echo "callgrind server never listened on $CG_PORT" >&2; cat "$WORK/cg.log" >&2; exit 1
}

# Counts the instructions process CG_PID executes while "$@" runs (a load generator); prints them and stops
# the server. Instruction counts do not depend on the machine's load: the stable figure for A/B decisions.
cg_count() {
    callgrind_control -i on "$CG_PID" > /dev/null 2>&1
    "$@" > "$WORK/load.out" 2>&1 || { echo "load generator failed under callgrind: $*" >&2; cat "$WORK/load.out" >&2; exit 1; }
    callgrind_control -i off "$CG_PID" > /dev/null 2>&1
    kill -TERM "$CG_PID"
    while kill -0 "$CG_PID" 2>/dev/null; do sleep 0.2; done   # (called in $(…): not our child, so no wait)
    local file; file=$(ls "$WORK"/cg.* | grep -v 'cg.log' | head -1)
    awk '/^totals:/ { print $2 }' "$file"
    mkdir -p "${CG_KEEP:-$WORK/cg-kept}"; mv "$WORK"/cg.[0-9]* "${CG_KEEP:-$WORK/cg-kept}/$CG_NAME.callgrind" 2>/dev/null || true
}
