import Foundation

/// Runs a real peer (curl, nghttp, nghttpd, h2load, openssl, python) for the test targets that drive the mock or the
/// transport with programs nobody here wrote: to completion (`run`), or in the background (`start`).
public enum PeerProcess {
    /// What the peer did: exit status and everything it wrote.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Whether it was stopped because it ran past its timeout.
        public var timedOut: Bool
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin, and waits for it (up to `timeout`, after which
    /// it is stopped and this throws).
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil,
                           timeout: TimeInterval = 300) throws -> Output {
        let output = try start(executable, arguments, input: input).wait(timeout: timeout)
        if output.timedOut { throw PeerError.timedOut("\(executable) \(arguments.joined(separator: " "))") }
        return output
    }

    /// Starts `executable` with `arguments` without waiting; `input`, if any, is written to its stdin, which is then
    /// closed. Its output goes to temporary files, so a chatty peer never blocks on a full pipe and a test can read
    /// what it has written so far.
    public static func start(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> RunningPeer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try resolve(executable))
        process.arguments = arguments
        let directory = URL(fileURLWithPath: try TestDirectory.make("peer"))
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        return RunningPeer(process: process, out: out, err: err, handles: [outHandle, errHandle])
    }

    /// A loopback port nothing listens on right now (the kernel's pick for port 0): for a peer the test starts.
    public static func freePort() throws -> Int {
        let listener = try LoopbackListener()
        defer { listener.close() }
        return listener.port
    }

    /// `name` as given when absolute, else the first executable of that name in the usual directories.
    public static func resolve(_ name: String) throws -> String {
        if name.hasPrefix("/") { return name }
        for dir in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        throw PeerError.missing("\(name) is not installed; run `make deps`")
    }

    /// A peer that is not installed or did not finish.
    public enum PeerError: Error, CustomStringConvertible {
        case missing(String)
        case timedOut(String)
        case system(String)
        public var description: String {
            switch self {
            case .missing(let s): return s
            case .timedOut(let s): return "peer did not finish in time: \(s)"
            case .system(let s): return s
            }
        }
    }
}
