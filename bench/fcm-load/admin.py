"""firebase-admin's `messaging.send_each_async` of 500 messages against `serve --fcm`: the wall time of each call and
the server's CPU per message over it. Run by bench/fcm.sh (ADMIN=1) with the Python kit's venv, which has
firebase-admin and the kit:

    kits/python/.venv/bin/python bench/fcm-load/admin.py MOCKAPNS_BINARY [ROUNDS]

The kit starts the mock (`MockAPNs(fcm=True)`: `serve --fcm` on free ports, a CA and data folder of its own) and
its `intercept()` leads firebase-admin's built-in fcm.googleapis.com and oauth2.googleapis.com to it, so the sender
is firebase-admin as it ships: the service account's OAuth grant, then one HTTP/2 connection (httpx) carrying the
500 sends. 500 registrations, every other one iOS, the rest Android; each message to its own registration. The first
call (the grant, the connection, the first message of each device) is reported apart; then ROUNDS calls (default 3).
Server CPU is user + system of the process from /proc/PID/stat (10 ms ticks) and, finer, the sum over its threads of
/proc/PID/task/*/schedstat (nanoseconds on the CPU).
"""

import asyncio
import os
import sys
import time
import warnings

import firebase_admin
from firebase_admin import credentials, messaging
from mockapns import MockAPNs

MESSAGES = 500
TICK = os.sysconf("SC_CLK_TCK")


def ticks(pid: int) -> int:
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])           # utime, stime (fields 14 and 15 of the whole line)


def run_ns(pid: int) -> int:
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as schedstat:
                total += int(schedstat.read().split()[0])
        except OSError:
            pass                                          # a thread that ended meanwhile
    return total


def batch(tokens, first: int):
    # `token=`, the registration token FCM's HTTP v1 API documents; firebase-admin 7.7 warns that it prefers `fid=`.
    warnings.filterwarnings("ignore", "Message.token is deprecated", DeprecationWarning)
    return [messaging.Message(
        token=token,
        notification=messaging.Notification(title="Order %d" % (first + i), body="Your order %d has shipped" % (first + i)),
        data={"order": str(first + i)}) for i, token in enumerate(tokens)]


async def measure(pid: int, tokens, rounds: int):
    results = []
    for round in range(rounds + 1):
        messages = batch(tokens, round * MESSAGES + 1)
        cpu_ticks, cpu_ns, client = ticks(pid), run_ns(pid), time.process_time()
        start = time.perf_counter()
        answer = await messaging.send_each_async(messages)
        wall = time.perf_counter() - start
        cpu_ticks, cpu_ns = ticks(pid) - cpu_ticks, run_ns(pid) - cpu_ns
        client = time.process_time() - client
        if answer.success_count != len(messages):
            failed = next(r for r in answer.responses if not r.success)
            sys.exit("admin.py: send_each_async: %d of %d messages failed; the first: %r"
                     % (answer.failure_count, len(messages), failed.exception))
        results.append((wall, cpu_ticks / TICK * 1e6 / MESSAGES, cpu_ns / 1e3 / MESSAGES, client * 1e6 / MESSAGES))
    return results


def main() -> None:
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with MockAPNs(binary, fcm=True, args=["--memory-limit", "1000"]) as mock:
        tokens = [mock.register_fcm("ios" if i % 2 == 0 else "android").token for i in range(MESSAGES)]
        firebase_admin.initialize_app(credentials.Certificate(mock.fcm_service_account))
        with mock.intercept():
            results = asyncio.run(measure(mock.pid, tokens, rounds))
    label = lambda index: "first call (grant, connection)" if index == 0 else "call %d" % index
    for index, (wall, per_tick, per_ns, client) in enumerate(results):
        print("send_each_async of %d (half iOS, each to its own registration), %s: %.3f s wall, server %.1f µs CPU "
              "per message (/proc stat; %.1f by schedstat), firebase-admin %.0f µs CPU per message"
              % (MESSAGES, label(index), wall, per_tick, per_ns, client))
    fastest = min(results[1:] or results)
    print("send_each_async, the fastest call after the first: %.3f s wall for %d messages, server %.1f µs CPU per "
          "message (%.1f by schedstat)" % (fastest[0], MESSAGES, fastest[1], fastest[2]))


if __name__ == "__main__":
    main()
