import Foundation

/// Runs a real peer (curl, nghttp, h2load, python) and collects its output; shared by the test targets that drive
/// the mock with real clients.
public struct PeerProcess {
    /// What the peer did: exit status and everything it wrote.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments`, feeding `input` on stdin, and waits (up to `timeout`).
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil,
                    timeout: TimeInterval = 300) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try resolve(executable))
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try? inPipe.fileHandleForWriting.close()
        // Drain both pipes concurrently so a chatty peer never blocks on a full pipe.
        final class Box: @unchecked Sendable { var data = Data() }   // written by one reader thread, read after join
        let outBox = Box(), errBox = Box()
        let group = DispatchGroup()
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            group.enter()
            Thread.detachNewThread {
                box.data = pipe.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            throw PeerError.timedOut("\(executable) \(arguments.joined(separator: " "))")
        }
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: String(decoding: outBox.data, as: UTF8.self),
                      stderr: String(decoding: errBox.data, as: UTF8.self))
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
        public var description: String {
            switch self {
            case .missing(let s): return s
            case .timedOut(let s): return "peer did not finish in time: \(s)"
            }
        }
    }
}
