import Hummingbird
import Logging

/// A trivial HTTP/1.1 server on the same library stack as the mock's HTTP/1.1 endpoint (Hummingbird on SwiftNIO),
/// the reference for `make bench-http1`: it reads each request's body and answers 200 with an `apns-id`, and does
/// nothing else. `HTTP1BenchServer PORT`.
struct TrivialResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        _ = try await request.collectBody(upTo: 64 * 1024)
        return Response(status: .ok, headers: [TrivialResponder.apnsID: "8fb8e2ed-4c88-4a12-9a0c-5d1b5ab8f2a1"])
    }

    static let apnsID = HTTPFields.Element.Name("apns-id")!
}

let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0
var logger = Logger(label: "http1-bench")
logger.logLevel = .warning
let app = Application(
    responder: TrivialResponder(),
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil),
    logger: logger
)
try await app.runService()
