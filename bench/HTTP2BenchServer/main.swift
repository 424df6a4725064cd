// A trivial HTTP/2 server for `bench/transport.sh`: answers every request 200 with no body.
// Measures the HTTP2 module alone (no APNs logic).
//
// Usage: HTTP2BenchServer [--cert server.pem --key server-key.pem] [--port 8443] [--host 127.0.0.1]
//                         [--threads N] [--h2c]
// Prints "listening on PORT" once ready, then serves until killed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTP2

/// Answers 200 with no body, synchronously on the loop thread.
struct OKHandler: HTTP2RequestHandler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        responder.respond(status: 200, headers: [], body: nil)
    }
}

/// Writes one line to standard error.
func printError(_ message: String) async {
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
        await printError("unexpected argument \(argument)")
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
    let server = try HTTP2Server(configuration: configuration, handler: OKHandler())
    try await server.start()
    print("listening on \(server.localPort)")
    fflush(nil)
    while true { pause() }
} catch {
    await printError("HTTP2BenchServer: \(error)")
    exit(1)
}
