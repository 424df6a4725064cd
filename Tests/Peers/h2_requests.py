"""A raw HTTP/2 client (python-h2) for tests that need what polite clients refuse to send:
duplicate headers, invalid UTF-8, huge header blocks, several requests on one connection with the
server's SETTINGS observed in between, TLS with or without ALPN, client certificates.

Reads a JSON spec as the first line of stdin (with --serve: one spec per line, until stdin ends, each answered with
one line, so a test run starts one interpreter instead of one per case):
  {"port": 2197, "host": "127.0.0.1", "tls": true, "alpn": false, "ca": "...", "cert": "...", "key": "...",
   "parallel": false, "burst": false, "step": false,
   "requests": [{"method": "POST", "path": "/3/device/..", "headers": [["name", "value"], ["x", {"hex": "ff"}]],
                 "body_b64": "...", "body_repeat": [byte, count]}]}
With "burst": true (and "parallel"), every request's frames go out in one write, so the server reads the whole
flight before it answers any of it. With "step": true, before each request it prints {"ready": i} and waits for a line on stdin (so the test can
move the server's clock between requests). Then prints JSON: {"responses": [{"status": 200, "headers": [[..]], "body": "...", "reset": null, "error": null,
              "max_concurrent_streams": N}], "goaway": {"error_code": 0, "debug": "..."} | null}
With --serve, a spec that raises is answered {"peer_error": "<traceback>"} and the next spec runs as usual.
"""
import base64
import json
import socket
import ssl
import sys
import traceback

import h2.config
import h2.connection
import h2.events
import h2.settings


def header_bytes(value):
    if isinstance(value, dict):
        return bytes.fromhex(value["hex"])
    return value.encode("utf-8")


def run(spec):
    """Sends one spec's requests on one connection and prints the outcome line."""
    host = spec.get("host", "127.0.0.1")
    sock = socket.create_connection((host, spec["port"]), timeout=30)
    try:
        if spec.get("tls", True):
            context = ssl.create_default_context(cafile=spec.get("ca"))
            context.check_hostname = False
            if spec.get("alpn", False):
                context.set_alpn_protocols(["h2"])
            if spec.get("cert"):
                context.load_cert_chain(spec["cert"], spec.get("key"))
            sock = context.wrap_socket(sock, server_hostname=spec.get("authority", "localhost"))
        exchange(spec, sock)
    finally:
        sock.close()


def exchange(spec, sock):
    """The requests of one spec on the connection `sock`."""
    config = h2.config.H2Configuration(client_side=True, validate_outbound_headers=False,
                                       normalize_outbound_headers=False, validate_inbound_headers=False,
                                       header_encoding=None)
    conn = h2.connection.H2Connection(config=config)
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())

    responses = []
    goaway = None
    state = {}
    seen = {"settings": False}

    def pump(until):
        nonlocal goaway
        while not until():
            try:
                data = sock.recv(65536)
            except (ConnectionResetError, ssl.SSLError, OSError):
                data = b""
            if not data:
                return False
            for event in conn.receive_data(data):
                sid = getattr(event, "stream_id", None)
                if isinstance(event, h2.events.ResponseReceived):
                    state[sid]["status"] = int(dict(event.headers)[b":status"])
                    state[sid]["headers"] = [[k.decode(), v.decode("latin-1")] for k, v in event.headers if not k.startswith(b":")]
                elif isinstance(event, h2.events.DataReceived):
                    state[sid]["body"] += event.data
                    conn.acknowledge_received_data(event.flow_controlled_length, sid)
                elif isinstance(event, h2.events.StreamEnded):
                    state[sid]["done"] = True
                elif isinstance(event, h2.events.StreamReset):
                    state[sid]["reset"] = event.error_code
                    state[sid]["done"] = True
                elif isinstance(event, h2.events.RemoteSettingsChanged):
                    seen["settings"] = True
                elif isinstance(event, h2.events.ConnectionTerminated):
                    goaway = {"error_code": int(event.error_code),
                              "debug": (event.additional_data or b"").decode("utf-8", "replace"),
                              "last_stream_id": event.last_stream_id}
            out = conn.data_to_send()
            if out:
                sock.sendall(out)
        return True

    held = []

    def send(request):
        sid = conn.get_next_available_stream_id()
        headers = [(b":method", request.get("method", "POST").encode()), (b":scheme", b"https"),
                   (b":authority", spec.get("authority", "localhost").encode()), (b":path", request["path"].encode())]
        headers += [(n.encode(), header_bytes(v)) for n, v in request.get("headers", [])]
        body = base64.b64decode(request["body_b64"]) if "body_b64" in request else b""
        if "body_repeat" in request:
            byte, count = request["body_repeat"]
            body = bytes([byte]) * count
        state[sid] = {"status": None, "headers": [], "body": b"", "reset": None, "done": False}
        conn.send_headers(sid, headers, end_stream=not body)
        if spec.get("burst"):
            conn.send_data(sid, body, end_stream=True) if body else None
            held.append(conn.data_to_send())
            return sid
        sock.sendall(conn.data_to_send())
        offset = 0
        while offset < len(body):
            window = min(conn.local_flow_control_window(sid), conn.max_outbound_frame_size)
            if window <= 0:
                if not pump(lambda: conn.local_flow_control_window(sid) > 0 or state[sid]["done"]):
                    break
                if state[sid]["done"]:
                    break
                continue
            chunk = body[offset:offset + window]
            offset += len(chunk)
            conn.send_data(sid, chunk, end_stream=offset >= len(body))
            sock.sendall(conn.data_to_send())
        return sid

    def result(sid, error=None):
        s = state[sid]
        return {"status": s["status"], "headers": s["headers"], "body": s["body"].decode("utf-8", "replace"),
                "reset": s["reset"], "error": error,
                "max_concurrent_streams": conn.remote_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS)}

    # Wait for the server's first SETTINGS so max_concurrent_streams is meaningful from the start.
    pump(lambda: seen["settings"])
    if spec.get("parallel"):
        sids = []
        for request in spec["requests"]:
            try:
                sids.append(send(request))
            except Exception as error:  # e.g. the server's stream limit, enforced by h2 itself
                responses.append({"status": None, "error": type(error).__name__, "reset": None, "body": "", "headers": []})
        if held:
            sock.sendall(b"".join(held))
        pump(lambda: all(state[s]["done"] for s in sids))
        responses = [result(s, None if state[s]["done"] else "connection closed") for s in sids] + responses
    else:
        for index, request in enumerate(spec["requests"]):
            if spec.get("step"):
                print(json.dumps({"ready": index}), flush=True)
                sys.stdin.readline()
            if goaway is not None:
                responses.append({"status": None, "error": "goaway", "reset": None, "body": "", "headers": []})
                continue
            try:
                sid = send(request)
            except Exception as error:
                responses.append({"status": None, "error": type(error).__name__, "reset": None, "body": "", "headers": []})
                continue
            finished = pump(lambda: state[sid]["done"])
            responses.append(result(sid, None if finished else "connection closed"))
    print(json.dumps({"responses": responses, "goaway": goaway}), flush=True)
    try:
        conn.close_connection()
        sock.sendall(conn.data_to_send())
    except Exception:
        pass


def serve() -> int:
    """One spec per line until stdin ends; a spec that raises gets a peer_error line, and the next one runs."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        try:
            run(json.loads(line))
        except Exception:
            print(json.dumps({"peer_error": traceback.format_exc()}), flush=True)


def main() -> int:
    if "--serve" in sys.argv[1:]:
        return serve()
    run(json.loads(sys.stdin.readline()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
