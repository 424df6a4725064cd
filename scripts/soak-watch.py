#!/usr/bin/env python3
"""The soak's measuring half (scripts/soak.sh).

Watch mode: follows the record file as it grows (counting newlines in what was appended, so a gigabyte file is
read once), samples the server's RSS and open descriptors before the load, when the 100 000th record is
written, and at the end (every record written and the clients' connections closed), and saves them as JSON.
Verify mode (--verify, after the server stopped): checks the file line by line and prints the figures.
"""
import argparse
import json
import os
import sys
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def watch(args):
    state = {"fds_before": fds(args.pid), "rss_before_kib": rss_kib(args.pid)}
    lines, offset, last_growth = 0, 0, time.monotonic()
    while lines < args.total:
        time.sleep(0.2)
        try:
            with open(args.records, "rb") as f:
                f.seek(offset)
                chunk = f.read()
        except FileNotFoundError:
            chunk = b""
        if chunk:
            offset += len(chunk)
            lines += chunk.count(b"\n")
            last_growth = time.monotonic()
        state["fds_peak"] = max(state.get("fds_peak", 0), fds(args.pid))
        if lines >= 100_000 and "rss_100k_kib" not in state:
            state.update(rss_100k_kib=rss_kib(args.pid), fds_100k=fds(args.pid), records_at_first_sample=lines)
        if time.monotonic() - last_growth > 120:
            state["stalled_at"] = lines
            break
    # The clients are done once every record is written; give the server a moment to see their connections close.
    deadline = time.monotonic() + 30
    while fds(args.pid) > state["fds_before"] and time.monotonic() < deadline:
        time.sleep(0.2)
    state.update(rss_end_kib=rss_kib(args.pid), fds_end=fds(args.pid))
    with open(args.state, "w") as f:
        json.dump(state, f)


def verify(args):
    with open(args.state) as f:
        state = json.load(f)
    count, bad, seqs = 0, 0, set()
    duplicates = 0
    with open(args.records, "rb") as f:
        for line in f:
            count += 1
            try:
                seq = json.loads(line)["seq"]
            except (ValueError, KeyError, TypeError):
                bad += 1
                continue
            if seq in seqs:
                duplicates += 1
            seqs.add(seq)
    failures = []
    if count != args.total:
        failures.append(f"{count} records, expected {args.total}")
    if bad:
        failures.append(f"{bad} lines are not JSON records with a seq")
    if duplicates:
        failures.append(f"{duplicates} duplicate seqs")
    if "stalled_at" in state:
        failures.append(f"the record file stopped growing at {state['stalled_at']} records")
    rss100, rss_end = state.get("rss_100k_kib"), state["rss_end_kib"]
    if rss100 is None:
        failures.append("never reached 100 000 records")
    elif abs(rss_end - rss100) > rss100 * 0.10:
        failures.append(f"RSS at the end {rss_end} KiB is not within 10 % of {rss100} KiB after 100 000 records")
    if state["fds_end"] > state["fds_before"]:
        failures.append(f"{state['fds_end']} descriptors open at the end, {state['fds_before']} before the load")
    print(f"records: {count} lines, {len(seqs)} unique seqs, {bad} invalid (expected {args.total})")
    print(f"RSS: {state['rss_before_kib'] / 1024:.1f} MiB before, {rss100 / 1024 if rss100 else float('nan'):.1f} MiB "
          f"after 100k (sampled at {state.get('records_at_first_sample')} records), {rss_end / 1024:.1f} MiB at the end")
    print(f"descriptors: {state['fds_before']} before, {state.get('fds_100k')} at 100k, "
          f"{state.get('fds_peak')} peak, {state['fds_end']} at the end")
    print(f"duration: {args.seconds:.1f} s, {args.total / args.seconds:.0f} req/s overall")
    if failures:
        print("SOAK FAILED: " + "; ".join(failures), file=sys.stderr)
        sys.exit(1)
    print("soak passed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid", type=int)
    parser.add_argument("--records", required=True)
    parser.add_argument("--total", type=int, required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--seconds", type=float, default=0)
    args = parser.parse_args()
    verify(args) if args.verify else watch(args)


if __name__ == "__main__":
    main()
