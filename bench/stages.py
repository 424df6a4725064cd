#!/usr/bin/env python3
"""Where a request's instructions go, from a callgrind file of `mockapns serve` (bench/server.sh keeps them with
CG_KEEP=DIR): per stage, instructions per request (inclusive of what each stage calls).

    python3 bench/stages.py FILE.callgrind REQUESTS

Stages are found by symbol (Swift mangled names contain the module and type names); a stage's figure includes the
library code it calls (malloc, retain/release, memcpy). 'transport' is everything outside the pipeline's handler:
TLS, nghttp2 (HPACK, framing) and the HTTP2 module's glue.
"""
import re
import subprocess
import sys

path, requests = sys.argv[1], int(sys.argv[2])

def costs(inclusive):
    out = subprocess.run(["callgrind_annotate", "--inclusive=" + ("yes" if inclusive else "no"), "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    table = []
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)", line)
        if m:
            table.append((int(m.group(1).replace(",", "")), m.group(2)))
    return table

inclusive = costs(True)
exclusive = costs(False)
total = next(n for n, name in inclusive if "PROGRAM TOTALS" in name)

def incl(pattern):
    """The largest inclusive cost of a function matching `pattern` (the outermost one)."""
    found = [n for n, name in inclusive if re.search(pattern, name)]
    return max(found) if found else 0

def self_of(pattern):
    return sum(n for n, name in exclusive if re.search(pattern, name))

handler = incl(r"PipelineHTTP2Handler.*handle")
decide = incl(r"RequestDecider.*decide")
credential = incl(r"PipelineConnectionState.*credential")
ids = incl(r"APNsIDGenerator.*nextID") + incl(r"GeneratedID.*text")
respond = incl(r"PipelineC7respond_")
store = incl(r"Recorder.*store")
carry = incl(r"PipelineHTTP2Handler.*carryOut|HTTP2.*ResponderV7respond")  # carryOut is inlined into finish
writer = incl(r"ThreadTaskExecutor.*run")  # the file writer consumes on its own thread
encode = incl(r"JSONLineEncoder.*encode_")
lint = incl(r"JSONLineEncoder.*lintFindings")
tls = self_of(r"libssl|libcrypto")
nghttp2 = self_of(r"libnghttp2")

handshakes = incl(r"SSL_do_handshake")

rows = [
    ("all (server process, every thread)", total),
    ("all without the TLS handshakes (connection set-up, amortised differently by run length)", total - handshakes),
    ("transport: everything outside the pipeline handler, handshakes excluded", total - handshakes - handler - writer),
    ("  of which TLS (OpenSSL, own instructions)", tls),
    ("  of which nghttp2 (HPACK, framing; own instructions)", nghttp2),
    ("pipeline handler (decide → respond → hand to transport)", handler),
    ("  decide (route, headers, token, payload JSON check)", decide),
    ("  connection lock, credential, fault plan, device registry, stream limit",
     handler - decide - respond - carry),
    ("  response and record (IDs, record build, ring insert)", respond),
    ("    of which ID generation and spelling", ids),
    ("    of which ring insert (Recorder.store)", store),
    ("  response handed to nghttp2 (carryOut, or HTTP2Responder.respond where it is inlined)", carry),
    ("record file writer thread (--record)", writer),
    ("  of which encoding the JSON line", encode),
    ("  of which lint findings", lint),
]
for label, n in rows:
    print("| %s | %d |" % (label, round(n / requests)))
