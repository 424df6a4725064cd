#!/usr/bin/env python3
"""Which of the project's source files a request runs through, from a callgrind file of `mockapns serve` recorded
with valgrind's `--demangle=no` (bench/server.sh with CG_OPTS=--demangle=no CG_KEEP=DIR keeps one):

    python3 bench/answer-path.py FILE.callgrind BINARY [SOURCES=Sources]

Every function with instructions of its own is looked up in BINARY's symbol table (nm) and its address in its
debug info (addr2line), so BINARY must be the unstripped build the run used. Prints the files under SOURCES with the
instructions their functions executed, then the count of files, of their lines and of functions. LINES_FROM=DIR
counts the lines in DIR's copy of each file (a checkout of the commit the binary was built from, when SOURCES has moved
on since).
"""
import collections
import os
import re
import subprocess
import sys

path, binary = sys.argv[1], sys.argv[2]
sources = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else "Sources")

out = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", path],
                     capture_output=True, text=True, check=True).stdout
costs = {}
for line in out.splitlines():
    m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(?:\S+:)?(\$s\S+|\S+)", line)
    if m and m.group(2).startswith("$s"):
        costs[m.group(2)] = costs.get(m.group(2), 0) + int(m.group(1).replace(",", ""))

addresses = {}
for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[2] in costs:
        addresses[parts[2]] = parts[0]
names = sorted(addresses)
located = subprocess.run(["addr2line", "-e", binary] + ["0x" + addresses[n] for n in names],
                         capture_output=True, text=True, check=True).stdout.splitlines()

per_file = collections.Counter()
functions = collections.Counter()
for name, where in zip(names, located):
    file = where.rsplit(":", 1)[0]
    if not os.path.abspath(file).startswith(sources + os.sep):
        continue
    per_file[file] += costs[name]
    functions[file] += 1

lines = 0
for file, cost in per_file.most_common():
    counted = os.path.join(os.environ["LINES_FROM"], os.path.relpath(file, sources)) if "LINES_FROM" in os.environ else file
    count = sum(1 for _ in open(counted))
    lines += count
    print("%12d  %4d fn  %5d lines  %s" % (cost, functions[file], count, os.path.relpath(file, os.path.dirname(sources))))
print("%d files, %d lines, %d functions (of %d with instructions, %d found in the binary)"
      % (len(per_file), lines, sum(functions.values()), len(costs), len(addresses)))
