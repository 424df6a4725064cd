"""A webhook receiver for the tests: a real HTTP server (Python's http.server) that checks each delivery's signature
the way docs/webhooks.md tells receivers to, and appends what it received to a JSON Lines log.

Usage: webhook_receiver.py PORT LOG [--secret S] [--fail-first N] [--retry-after SECONDS] [--hang]
  --fail-first N      answer the first N requests 500 (then 200)
  --retry-after S     with --fail-first, answer 429 with `Retry-After: S` instead of 500
  --hang              never answer (read the request, then sleep): a receiver that times out
Each request becomes one log line: {"delivery", "timestamp", "signature_ok", "seq", "status_sent", "time"}.
Prints "listening" once it accepts connections.
"""
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log_path = int(sys.argv[1]), sys.argv[2]
args = sys.argv[3:]
secret = args[args.index("--secret") + 1].encode() if "--secret" in args else None
fail_first = int(args[args.index("--fail-first") + 1]) if "--fail-first" in args else 0
retry_after = args[args.index("--retry-after") + 1] if "--retry-after" in args else None
hang = "--hang" in args
lock = threading.Lock()
seen = {"requests": 0}


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two writes: without TCP_NODELAY the body waits for the client's delayed ACK (40 ms).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if hang:
            time.sleep(3600)
            return
        timestamp = self.headers.get("X-MockAPNs-Timestamp", "")
        signature_ok = None
        if secret is not None:
            # The check docs/webhooks.md shows: HMAC-SHA256 of "<timestamp>.<body>" under the shared secret.
            expected = "sha256=" + hmac.new(secret, timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
            signature_ok = hmac.compare_digest(expected, self.headers.get("X-MockAPNs-Signature", ""))
        with lock:
            seen["requests"] += 1
            failing = seen["requests"] <= fail_first
        status = (429 if retry_after is not None else 500) if failing else 200
        try:
            seq = json.loads(body)["seq"]
        except Exception:
            seq = None
        with lock, open(log_path, "a") as log:
            log.write(json.dumps({"delivery": self.headers.get("X-MockAPNs-Delivery"), "timestamp": timestamp,
                                  "signature_ok": signature_ok, "seq": seq, "status_sent": status,
                                  "content_type": self.headers.get("Content-Type"), "time": time.time(),
                                  "authorization": self.headers.get("Authorization")}) + "\n")
        self.send_response(status)
        if failing and retry_after is not None:
            self.send_header("Retry-After", retry_after)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")


server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)
server.daemon_threads = True
print("listening", flush=True)
server.serve_forever()
