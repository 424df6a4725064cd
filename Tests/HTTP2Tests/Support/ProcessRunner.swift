import Foundation

/// The outcome of running an external program.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool
}

/// Runs real peers (curl, nghttp, h2load, python) with output captured in temp files.
enum ProcessRunner {
    /// Runs `executable` with `arguments` and waits up to `timeout` seconds (then terminates it).
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> ProcessResult {
        let handle = try start(executable, arguments)
        return handle.wait(timeout: timeout)
    }

    /// Starts a process without waiting.
    static func start(_ executable: String, _ arguments: [String]) throws -> RunningProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory
        let out = directory.appendingPathComponent("http2test-\(UUID().uuidString).out")
        let err = directory.appendingPathComponent("http2test-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningProcess(process: process, out: out, err: err, handles: [outHandle, errHandle])
    }

    /// Finds a program in the usual places.
    static func which(_ name: String) -> String {
        for directory in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin"] {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return "/usr/bin/\(name)"
    }
}

/// A started external process.
final class RunningProcess {
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

    /// Output so far.
    var currentStdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }

    func wait(timeout: TimeInterval) -> ProcessResult {
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
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
        return ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }

    /// SIGTERM, then SIGKILL after two seconds: nghttpd ignores SIGTERM, and a peer left running would
    /// outlive the test run.
    func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes; returns whether it held.
func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
