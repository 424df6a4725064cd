// A trivial HTTP/2 server for `bench/transport.sh`: answers every request 200 with no body.
// Measures the HTTP2 module alone (no APNs logic).
//
// Usage: HTTP2BenchServer [--cert server.pem --key server-key.pem] [--port 8443] [--host 127.0.0.1]
//                         [--threads N] [--h2c] [--append-file PATH --append-bytes N]
// Prints "listening on PORT" once ready, then serves until killed.
//
// `--append-file` is the floor probe for `bench/server.sh`: every request also appends N bytes (a record
// line's size) to PATH through a background writer thread, as `mockapns serve --record` does, but with no
// APNs logic and no encoding. It shows what the transport plus the record file's disk traffic cost alone.
import Glibc
import HTTP2

/// Answers 200 with no body, synchronously on the loop thread; with a sink, first queues one line for it.
struct OKHandler: HTTP2RequestHandler {
    let sink: AppendSink?

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        sink?.append()
        responder.respond(status: 200, headers: [], body: nil)
    }
}

/// Appends a fixed line per request to a file from its own thread (loops only copy into a buffer).
final class AppendSink: Sendable {
    private let pending = Locked<[UInt8]>([])
    private let line: [UInt8]
    private let fd: Int32

    init(path: String, bytes: Int) {
        line = Array(repeating: UInt8(ascii: "x"), count: max(bytes - 1, 0)) + [UInt8(ascii: "\n")]
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0o644)
        guard fd >= 0 else { printError("cannot open \(path)"); exit(1) }
        Thread.detach { [self] in self.run() }
    }

    func append() {
        pending.withLock { $0.append(contentsOf: line) }
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            usleep(10_000)
            pending.withLock { swap(&$0, &batch) }
            var offset = 0
            while offset < batch.count {
                let n = batch.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n <= 0 { break }
                offset += n
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// A detached pthread running `body` (no Foundation in this tool).
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let box = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue()
            (box as! Box).body()
            return nil
        }, box)
        pthread_detach(thread)
    }
}

/// Writes one line to standard error.
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

var options: [String: String] = [:]
var flags: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--h2c" {
        flags.insert(argument)
    } else if argument.hasPrefix("--"), let value = arguments.popFirst() {
        options[argument] = value
    } else {
        printError("unexpected argument \(argument)")
        exit(2)
    }
}

var configuration = HTTP2ServerConfiguration()
configuration.host = options["--host"] ?? "127.0.0.1"
configuration.port = Int(options["--port"] ?? "8443") ?? 8443
if let threads = options["--threads"].flatMap({ Int($0) }) { configuration.loopCount = threads }
if !flags.contains("--h2c") {
    configuration.tls = TLSConfiguration(
        certificateChain: .file(options["--cert"] ?? "certs/server.pem"),
        privateKey: .file(options["--key"] ?? "certs/server-key.pem"))
}

do {
    var sink: AppendSink?
    if let path = options["--append-file"] {
        sink = AppendSink(path: path, bytes: Int(options["--append-bytes"] ?? "1300") ?? 1300)
    }
    let server = try HTTP2Server(configuration: configuration, handler: OKHandler(sink: sink))
    try server.start()
    print("listening on \(server.localPort)")
    fflush(nil)
    while true { pause() }
} catch {
    printError("HTTP2BenchServer: \(error)")
    exit(1)
}
