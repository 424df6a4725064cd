import Foundation

/// A peer started by ``PeerProcess/start(_:_:input:)``: read what it has written so far, wait for it, or stop it.
public final class RunningPeer {
    let process: Process
    let out: URL
    let err: URL
    let handles: [FileHandle]

    init(process: Process, out: URL, err: URL, handles: [FileHandle]) {
        self.process = process
        self.out = out
        self.err = err
        self.handles = handles
    }

    /// What it has written to stdout so far.
    public var currentStdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    /// Waits for it to exit, stopping it once `timeout` has passed, and returns what it did.
    public func wait(timeout: TimeInterval) -> PeerProcess.Output {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                terminate()
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        for handle in handles { try? handle.close() }
        let stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: out.deletingLastPathComponent())   // the folder of both
        return PeerProcess.Output(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }

    /// SIGTERM, then SIGKILL after two seconds: nghttpd ignores SIGTERM, and a peer left running would
    /// outlive the test run.
    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
