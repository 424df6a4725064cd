import Foundation
@testable import HTTP2

/// A test-only handler. Paths:
/// - `/delay`: answers 200 after 300 ms from another thread.
/// - `/scheduled`: answers 200 with `x-scheduled: 1` 2 s later on the connection's loop (`schedule(after:_:)`).
/// - `/big`: answers 200 with a 1 MiB body.
/// - `/limit`: calls `setMaxConcurrentStreams(7)`, then answers 200.
/// - `/goaway`: answers 403 with a JSON body, then GOAWAY(0, {"reason":"Shutdown"}) and close.
/// - `/reset`: RST_STREAM CANCEL.
/// - `/never`: never answered.
/// - `/goaway-low`: GOAWAY with last-stream-id 1, connection kept for in-flight streams.
/// - `/overflow`: 413 when `bodyOverflowed`, else 200.
/// - `/unique`: 200 with `x-id` (a new value each time, marked `valueIsUnique`) and `x-same` (always "same").
/// - anything else: 200 with `x-method`, `x-path`, `x-body-length`, `x-alpn`, `x-cert-length` headers
///   and the request body echoed.
public final class TestHandler: HTTP2RequestHandler, @unchecked Sendable {
    // @unchecked Sendable: `lock` guards every mutable property.
    private let lock = NSLock()

    /// A handler that has seen nothing yet.
    public init() {}
    private var _requests: [HTTP2Request] = []
    private var _opened: [HTTP2ConnectionInfo] = []
    private var _closed: [HTTP2ConnectionInfo] = []
    private var _inFlight = 0
    private var _maxInFlight = 0
    /// Most `/delay` requests ever waiting for their answer at once.
    public var maxInFlight: Int { lock.withLock { _maxInFlight } }

    public var requests: [HTTP2Request] { lock.withLock { _requests } }
    private var _refused: [(request: HTTP2Request, status: Int)] = []
    /// Requests the server answered itself (`refused`), with the status it gave.
    public var refused: [(request: HTTP2Request, status: Int)] { lock.withLock { _refused } }

    public func refused(_ request: HTTP2Request, status: Int) {
        lock.withLock { _refused.append((request, status)) }
    }
    public var opened: [HTTP2ConnectionInfo] { lock.withLock { _opened } }
    public var closed: [HTTP2ConnectionInfo] { lock.withLock { _closed } }

    public func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        lock.withLock { _requests.append(request) }
        switch request.path {
        case "/delay":
            lock.withLock {
                _inFlight += 1
                _maxInFlight = max(_maxInFlight, _inFlight)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                self.lock.withLock { self._inFlight -= 1 }
                responder.respond(status: 200, headers: [HTTPHeaderField(name: "x-delayed", value: "1")], body: nil)
            }
        case "/scheduled":
            responder.connection.schedule(after: .seconds(2)) {
                responder.respond(status: 200, headers: [HTTPHeaderField(name: "x-scheduled", value: "1")], body: nil)
            }
        case "/big":
            responder.respond(status: 200, headers: [], body: [UInt8](repeating: 0x61, count: 1 << 20))
        case "/limit":
            responder.connection.setMaxConcurrentStreams(7)
            responder.respond(status: 200, headers: [], body: nil)
        case "/goaway":
            responder.respond(status: 403, headers: [HTTPHeaderField(name: "content-type", value: "application/json")],
                              body: Array(#"{"reason":"Forbidden"}"#.utf8))
            responder.connection.goAway(errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8), thenClose: true)
        case "/never":
            break
        case "/goaway-low":
            // GOAWAY naming stream 1 as the last one processed: every later stream must be retried elsewhere.
            responder.connection.goAway(errorCode: 0, debugData: [], thenClose: false, lastStreamID: 1)
        case "/reset":
            responder.reset(errorCode: 8)
        case "/overflow":
            responder.respond(status: request.bodyOverflowed ? 413 : 200,
                              headers: [HTTPHeaderField(name: "x-body-length", value: String(request.body.count))], body: nil)
        case "/unique":
            let id = lock.withLock { _requests.count }
            responder.respond(status: 200, headers: [
                HTTPHeaderField(name: "x-id", value: "id-\(id)-\(UInt64.random(in: 0...UInt64.max))", valueIsUnique: true),
                HTTPHeaderField(name: "x-same", value: "same"),
            ], body: nil)
        default:
            responder.respond(status: 200, headers: [
                HTTPHeaderField(name: "x-method", value: request.method),
                HTTPHeaderField(name: "x-path", value: request.path),
                HTTPHeaderField(name: "x-body-length", value: String(request.body.count)),
                HTTPHeaderField(name: "x-alpn", value: request.alpn ?? "none"),
                HTTPHeaderField(name: "x-cert-length", value: String(request.peerCertificateDER?.count ?? 0)),
            ], body: request.body)
        }
    }

    public func connectionOpened(_ info: HTTP2ConnectionInfo) { lock.withLock { _opened.append(info) } }
    public func connectionClosed(_ info: HTTP2ConnectionInfo) { lock.withLock { _closed.append(info) } }
}
