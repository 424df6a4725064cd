"""Raw HTTP/2 clients for the HTTP2 module's tests (Tests/HTTP2Tests/Support/PythonH2.swift): h2 builds the
preface and header blocks, frames h2 refuses to send are written by hand.

Usage: h2_raw_client.py MODE PORT CA|- [EXTRA...]
"""
import socket, ssl, sys, time
import h2.connection, h2.config, h2.events, h2.settings

mode, port, ca = sys.argv[1], int(sys.argv[2]), sys.argv[3]
extra = sys.argv[4:]

def connect():
    raw = socket.create_connection(("127.0.0.1", port))
    if ca == "-":
        return raw
    ctx = ssl.create_default_context(cafile=ca)
    ctx.check_hostname = False
    # Deliberately NO ALPN (like aioapns and pushy).
    return ctx.wrap_socket(raw, server_hostname="localhost")

sock = connect()
conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
conn.initiate_connection()

def request(path, method="GET", extra_headers=(), end_stream=True):
    sid = conn.get_next_available_stream_id()
    headers = [(":method", method), (":path", path), (":scheme", "https" if ca != "-" else "http"), (":authority", "localhost")]
    conn.send_headers(sid, headers + list(extra_headers), end_stream=end_stream)
    return sid

def pump(until, timeout=10):
    deadline = time.time() + timeout
    sock.settimeout(0.5)
    while time.time() < deadline:
        out = conn.data_to_send()
        if out:
            sock.sendall(out)
        if until():
            return True
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except (ConnectionResetError, ssl.SSLError, OSError):
            data = b""
        if not data:
            closed.append(True)
            return until()
        handle(conn.receive_data(data))
    return until()

responses = {}
bodies = {}
resets = {}
ended = set()
settings_seen = []
terminated = []
closed = []

def handle(events):
    for e in events:
        if isinstance(e, h2.events.ResponseReceived):
            responses[e.stream_id] = dict(e.headers)
        elif isinstance(e, h2.events.DataReceived):
            bodies[e.stream_id] = bodies.get(e.stream_id, b"") + e.data
            conn.acknowledge_received_data(e.flow_controlled_length, e.stream_id)
        elif isinstance(e, h2.events.StreamEnded):
            ended.add(e.stream_id)
        elif isinstance(e, h2.events.StreamReset):
            resets[e.stream_id] = e.error_code
        elif isinstance(e, h2.events.RemoteSettingsChanged):
            for code, change in e.changed_settings.items():
                if code == h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS:
                    settings_seen.append(change.new_value)
        elif isinstance(e, h2.events.ConnectionTerminated):
            terminated.append((e.error_code, e.additional_data))

if mode == "noalpn":
    sid = request("/echo")
    pump(lambda: sid in ended)
    alpn = sock.selected_alpn_protocol() if ca != "-" else None
    print("status=%s alpn=%s xalpn=%s" % (responses.get(sid, {}).get(":status"), alpn, responses.get(sid, {}).get("x-alpn")))
elif mode == "refused":
    n = int(extra[0])
    sids = [request("/delay") for _ in range(n)]
    sock.sendall(conn.data_to_send())
    pump(lambda: all(s in ended or s in resets for s in sids))
    ok = sum(1 for s in sids if responses.get(s, {}).get(":status") == "200")
    refused = sum(1 for s in sids if resets.get(s) == 7)
    print("ok=%d refused=%d" % (ok, refused))
elif mode == "uppercase":
    # A field name with capitals (malformed, RFC 9113 §8.2.1): h2 would lowercase or refuse it, so it is told not
    # to for this one request; then a well-formed request on the same connection.
    conn.config.normalize_outbound_headers = False
    conn.config.validate_outbound_headers = False
    sid = request("/echo", extra_headers=[("X-Upper", "1")])
    conn.config.normalize_outbound_headers = True
    conn.config.validate_outbound_headers = True
    pump(lambda: sid in ended or sid in resets or bool(terminated))
    ok = request("/echo")
    pump(lambda: ok in ended or bool(terminated))
    print("status=%s reset=%s next=%s" % (responses.get(sid, {}).get(":status"), resets.get(sid), responses.get(ok, {}).get(":status")))
elif mode == "bigheader":
    sid = request("/echo", extra_headers=[("x-big", "a" * int(extra[0]))])
    sock.sendall(conn.data_to_send())
    pump(lambda: sid in ended or sid in resets or bool(terminated))
    print("status=%s reset=%s terminated=%s" % (responses.get(sid, {}).get(":status"), resets.get(sid), bool(terminated)))
elif mode == "disconnect":
    sid = request("/echo", method="POST", end_stream=False)
    conn.send_data(sid, b"x" * 100)
    sock.sendall(conn.data_to_send())
    time.sleep(0.1)
    sock.close()
    print("disconnected")
elif mode == "settings":
    pump(lambda: len(settings_seen) >= 1)
    sid = request("/limit")
    pump(lambda: sid in ended and 7 in settings_seen)
    print("status=%s mcs=%s" % (responses.get(sid, {}).get(":status"), ",".join(str(v) for v in settings_seen)))
elif mode == "goaway":
    sid = request("/goaway")
    pump(lambda: bool(terminated) and (sid in ended or bool(closed)))
    pump(lambda: bool(closed), timeout=5)
    code, data = terminated[0] if terminated else (None, b"")
    print("status=%s body=%s goaway=%s data=%s closed=%s" % (responses.get(sid, {}).get(":status"), bodies.get(sid, b"").decode(), code, (data or b"").decode(), bool(closed)))
elif mode == "idle":
    sid = request("/echo")
    pump(lambda: sid in ended)
    pump(lambda: bool(terminated) and bool(closed), timeout=20)
    code, data = terminated[0] if terminated else (None, b"")
    print("status=%s goaway=%s data=%s closed=%s" % (responses.get(sid, {}).get(":status"), code, (data or b"").decode(), bool(closed)))
elif mode == "slowbody":
    # One request whose body arrives after extra[0] seconds: an open stream keeps an idle connection alive.
    sid = request("/echo", method="POST", end_stream=False)
    sock.sendall(conn.data_to_send())
    pump(lambda: bool(terminated) or bool(closed), timeout=float(extra[0]))
    if not terminated and not closed:
        conn.send_data(sid, b"late", end_stream=True)
        pump(lambda: sid in ended or bool(terminated) or bool(closed))
    print("status=%s body=%s terminated=%s" % (responses.get(sid, {}).get(":status"), bodies.get(sid, b"").decode(), bool(terminated)))
elif mode in ("closed", "attack"):
    # Raw frames (h2 refuses to send them): h2 only encodes the preface and header blocks; replies are parsed here.
    case = extra[0]
    pending = bytearray()
    frames = []
    def read_frames(until, timeout=10):
        deadline = time.time() + timeout
        sock.settimeout(0.5)
        while time.time() < deadline:
            if until():
                return True
            try:
                data = sock.recv(65536)
            except socket.timeout:
                continue
            except (ConnectionResetError, BrokenPipeError, ssl.SSLError, OSError):
                data = b""
            if not data:
                closed.append(True)
                return until()
            pending.extend(data)
            while len(pending) >= 9:
                length = int.from_bytes(pending[0:3], "big")
                if len(pending) < 9 + length:
                    break
                ftype, flags = pending[3], pending[4]
                sid = int.from_bytes(pending[5:9], "big") & 0x7FFFFFFF
                frames.append((ftype, flags, sid, bytes(pending[9:9 + length])))
                del pending[:9 + length]
                if ftype == 4 and not flags & 1:
                    send(frame(4, 1, 0, b""))
        return until()
    def frame(ftype, flags, sid, payload):
        return len(payload).to_bytes(3, "big") + bytes([ftype, flags]) + sid.to_bytes(4, "big") + payload
    def errors():
        # (kind, error code) of every RST_STREAM and GOAWAY received
        out = []
        for ftype, flags, sid, payload in frames:
            if ftype == 3:
                out.append(("RST_STREAM", int.from_bytes(payload[0:4], "big")))
            elif ftype == 7:
                out.append(("GOAWAY", int.from_bytes(payload[4:8], "big")))
        return out
    def stream_ended(sid):
        return any(f[2] == sid and f[1] & 1 and f[0] in (0, 1) for f in frames)
    def send(data):
        try:
            sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            closed.append(True)
    fields = [(":method", "POST"), (":path", "/echo"), (":scheme", "https" if ca != "-" else "http"), (":authority", "localhost")]
    END_STREAM, END_HEADERS = 0x1, 0x4
    sock.sendall(conn.data_to_send())
    if mode == "closed":
        STREAM_CLOSED = 5
        block = conn.encoder.encode(fields)
        if case == "data-after-rst":        # h2spec http2/5.1 #8
            send(frame(1, END_HEADERS, 1, block) + frame(3, 0, 1, (8).to_bytes(4, "big")) + frame(0, END_STREAM, 1, b"test"))
        elif case == "headers-after-rst":   # h2spec http2/5.1 #9
            send(frame(1, END_HEADERS, 1, block) + frame(3, 0, 1, (8).to_bytes(4, "big"))
                 + frame(1, END_HEADERS | END_STREAM, 1, conn.encoder.encode(fields)))
        elif case == "data-half-closed":    # h2spec http2/5.1 #5
            send(frame(1, END_HEADERS | END_STREAM, 1, block) + frame(0, END_STREAM, 1, b"test"))
        elif case == "headers-lower-idle":  # h2spec http2/5.1.1 #2: a new stream id below one already opened
            send(frame(1, END_HEADERS | END_STREAM, 5, block))
            read_frames(lambda: stream_ended(5))
            send(frame(1, END_HEADERS | END_STREAM, 3, conn.encoder.encode(fields)))
            read_frames(lambda: any(kind == "GOAWAY" for kind, _ in errors()) or bool(closed), timeout=5)
        elif case in ("data-after-close", "headers-after-close"):  # h2spec http2/5.1 #11, #12
            send(frame(1, END_HEADERS | END_STREAM, 1, block))
            read_frames(lambda: stream_ended(1))
            if case == "data-after-close":
                send(frame(0, END_STREAM, 1, b"test"))
            else:
                send(frame(1, END_HEADERS | END_STREAM, 1, conn.encoder.encode(fields)))
        read_frames(lambda: any(code == STREAM_CLOSED for _, code in errors()) or bool(closed), timeout=5)
        print("stream_closed=%s errors=%s" % (any(code == STREAM_CLOSED for _, code in errors()),
                                              ",".join("%s:%d" % e for e in errors())))
    else:
        # Attacks: throw frames at the server for extra[1] rounds, then report how the connection ended.
        rounds = int(extra[1]) if len(extra) > 1 else 1
        done = 0
        if case == "rapid-reset":
            # Open a stream and reset it at once, over and over (CVE-2023-44487).
            sid = 1
            for r in range(rounds):
                batch = bytearray()
                for _ in range(100):
                    batch += frame(1, END_HEADERS, sid, conn.encoder.encode(fields)) + frame(3, 0, sid, (8).to_bytes(4, "big"))
                    sid += 2
                send(bytes(batch))
                if closed:
                    break
                done += 1
        elif case == "continuation":
            # HEADERS without END_HEADERS, then CONTINUATION frames of literal fields for ever (CVE-2024-27316 class).
            send(frame(1, 0, 1, conn.encoder.encode(fields)))
            literal = b"\x00\x03x-a" + bytes([0x7F, 0x81, 0x1F]) + b"a" * 4096  # literal, not indexed, 4 KiB value
            for r in range(rounds):
                send(frame(9, 0, 1, literal * 3))
                if closed:
                    break
                done += 1
        elif case == "hpack-bomb":
            # One 4000-byte field in the dynamic table, then header blocks that reference it 16000 times each
            # (64 MB decoded per block). Static-table-only blocks, so h2's own encoder state does not matter.
            base = (b"\x82\x84" + (b"\x87" if ca != "-" else b"\x86") + b"\x01\x09localhost")
            big = b"\x40\x03x-b" + bytes([0x7F, 0xA1, 0x1E]) + b"b" * 4000   # literal with incremental indexing
            sid = 1
            send(frame(1, END_HEADERS | END_STREAM, sid, base + big))
            for r in range(rounds):
                sid += 2
                send(frame(1, END_HEADERS | END_STREAM, sid, base + b"\xbe" * 16000))
                if closed:
                    break
                done += 1
        elif case == "settings-flood":
            for r in range(rounds):
                send(frame(4, 0, 0, (3).to_bytes(2, "big") + (100).to_bytes(4, "big")) * 1000)
                if closed:
                    break
                done += 1
        elif case == "ping-flood":
            for r in range(rounds):
                send(frame(6, 0, 0, b"12345678") * 1000)
                if closed:
                    break
                done += 1
        elif case == "zero-window":
            # Connection and stream windows at zero: the server can answer nothing; it must hold, not grow.
            send(frame(4, 0, 0, (4).to_bytes(2, "big") + (0).to_bytes(4, "big")))
            sid = 1
            for r in range(rounds):
                batch = bytearray()
                for _ in range(50):
                    batch += frame(1, END_HEADERS | END_STREAM, sid, conn.encoder.encode([(":method", "GET"), (":path", "/big"), (":scheme", fields[2][1]), (":authority", "localhost")]))
                    sid += 2
                send(bytes(batch))
                read_frames(lambda: False, timeout=0.2)
                if closed:
                    break
                done += 1
        read_frames(lambda: bool(closed), timeout=2)
        print("sent rounds=%d closed=%s errors=%s" % (done, bool(closed), ",".join("%s:%d" % e for e in errors()[:3])))
elif mode == "churn":
    # Connection churn: extra[0] connections, each with preface, one request and an abrupt close.
    sock.close()
    answered = 0
    for i in range(int(extra[0])):
        sock = connect()
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        conn.initiate_connection()
        sid = request("/echo")
        if i % 2 == 0:
            pump(lambda: sid in ended, timeout=5)
            if responses.get(sid, {}).get(":status") == "200":
                answered += 1
        else:
            sock.sendall(conn.data_to_send())
        sock.close()
        responses.clear(); ended.clear()
    print("answered=%d" % answered)
elif mode == "hpack":
    # How each x-id arrived (indexed literal or never-indexed), and what the HPACK table holds afterwards.
    n = int(extra[0])
    kinds = []
    for _ in range(n):
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [(":method", "GET"), (":path", "/unique"), (":scheme", "https" if ca != "-" else "http"), (":authority", "localhost")], end_stream=True)
        raw = []
        def grab(events, raw=raw):
            for e in events:
                if isinstance(e, h2.events.ResponseReceived):
                    raw.extend(e.headers)
            return events
        receive = conn.receive_data
        conn.receive_data = lambda data: grab(receive(data))
        pump(lambda: sid in ended)
        conn.receive_data = receive
        for h in raw:
            if h[0] == "x-id":
                kinds.append(type(h).__name__)
    table = [(name.decode(), value.decode()) for name, value in conn.decoder.header_table.dynamic_entries]
    print("kinds=%s x-id-entries=%d x-same-entries=%d" % (",".join(kinds), sum(1 for t in table if t[0] == "x-id"), sum(1 for t in table if t[0] == "x-same")))
elif mode == "noread":
    n = int(extra[0])
    big = 2**31 - 1
    conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: big})
    conn.increment_flow_control_window(big - 65535)
    for _ in range(n):
        request("/big")
    sock.sendall(conn.data_to_send())
    print("sent", flush=True)
    time.sleep(1)
    for _ in range(n):
        request("/big")
    sock.sendall(conn.data_to_send())
    print("sent2", flush=True)
    time.sleep(float(extra[1]))
    print("done", flush=True)
else:
    print("unknown mode " + mode)
    sys.exit(2)
