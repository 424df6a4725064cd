import Foundation

/// Runs small Python `h2` clients (from `<repo>/.venv`, created on first use with `pip install h2`).
enum PythonH2 {
    static let repositoryRoot: String = {
        // Tests/HTTP2Tests/Support/PythonH2.swift → repository root
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }()

    static let python: String = {
        let venv = repositoryRoot + "/.venv"
        let python = venv + "/bin/python"
        let check = try? ProcessRunner.run(python, ["-c", "import h2"], timeout: 60)
        if check?.status != 0 {
            _ = try? ProcessRunner.run(ProcessRunner.which("python3"), ["-m", "venv", venv], timeout: 120)
            _ = try? ProcessRunner.run(venv + "/bin/pip", ["install", "-q", "h2"], timeout: 300)
        }
        return python
    }()

    static let scriptPath: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("http2-client-\(UUID().uuidString).py").path
        try? script.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    /// Runs the script in `mode` against `port`; `tls` uses TLS without ALPN, trusting `ca`.
    static func run(mode: String, port: Int, ca: String?, extra: [String] = [], timeout: TimeInterval = 60) throws -> ProcessResult {
        try ProcessRunner.run(python, [scriptPath, mode, String(port), ca ?? "-"] + extra, timeout: timeout)
    }

    static func start(mode: String, port: Int, ca: String?, extra: [String] = []) throws -> RunningProcess {
        try ProcessRunner.start(python, [scriptPath, mode, String(port), ca ?? "-"] + extra)
    }

    static let script = #"""
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
"""#
}
