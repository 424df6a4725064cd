import Foundation
import PeerSupport

/// Runs the small Python `h2` clients of Tests/Peers/h2_raw_client.py (h2 comes with `make deps`: the interpreter is
/// `$MOCKAPNS_PYTHON`, or `<repo>/.venv/bin/python`; nothing is installed while tests run).
public enum PythonH2 {
    public static let python = RepoPaths.python

    public static let scriptPath = RepoPaths.peers + "/h2_raw_client.py"

    /// Runs the script in `mode` against `port`; `tls` uses TLS without ALPN, trusting `ca`.
    public static func run(mode: String, port: Int, ca: String?, extra: [String] = [], timeout: TimeInterval = 60) throws -> PeerProcess.Output {
        try PeerProcess.run(python, [scriptPath, mode, String(port), ca ?? "-"] + extra, timeout: timeout)
    }

    public static func start(mode: String, port: Int, ca: String?, extra: [String] = []) throws -> RunningPeer {
        try PeerProcess.start(python, [scriptPath, mode, String(port), ca ?? "-"] + extra)
    }
}
