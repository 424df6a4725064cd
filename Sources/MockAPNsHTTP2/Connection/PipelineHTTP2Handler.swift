import APNsModel
import HTTP2
import Logging
import MockAPNs

/// Adapts the transport's requests to the pipeline and carries out its decision on the stream:
/// respond (now or after a delay), stall, reset, GOAWAY, or drop the connection.
struct PipelineHTTP2Handler: HTTP2RequestHandler {
    let pipeline: Pipeline
    let logger: Logger
    /// What each of the transport's ports stands for, by ``HTTP2ConnectionInfo/listener``: the mock's own port alone,
    /// or Apple's ports as well under `--apple-hosts`.
    var roles: [ListenerRole] = [.mock]

    func makeConnectionContext(for info: HTTP2ConnectionInfo) -> (any AnyObject & Sendable)? {
        pipeline.connectionOpened(id: info.id, certificateDER: info.peerCertificateDER,
                                  role: roles.indices.contains(info.listener) ? roles[info.listener] : .mock)
    }

    func connectionClosed(_ info: HTTP2ConnectionInfo) {
        pipeline.connectionClosed(id: info.id)
    }

    func refused(_ request: HTTP2Request, status: Int) {
        let apnsRequest = APNsRequest(
            method: request.method, path: request.path,
            headers: request.headers.map { HeaderField(name: $0.name, value: $0.value) }, body: request.body)
        let connection = PipelineConnection(
            id: request.connectionID, remote: request.remoteAddress, streamID: request.streamID,
            receivedAtNanos: request.receivedAt, certificateDER: request.peerCertificateDER)
        pipeline.recordRefused(apnsRequest, on: connection, status: status)
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let handle = request.connectionContext as? PipelineConnectionHandle
        let apnsRequest = APNsRequest(
            method: request.method, path: request.path,
            headers: request.headers,
            body: request.body)
        let role = handle?.role ?? .mock
        let connection = PipelineConnection(
            id: request.connectionID, remote: request.remoteAddress, streamID: request.streamID,
            receivedAtNanos: request.receivedAt, certificateDER: request.peerCertificateDER, handle: handle,
            servedAPIs: role.servedAPIs, environment: Self.environment(of: request, on: role))
        let logger = logger
        // A `.later` answer arrives from the file writer's thread or a task; the responder hands it to the
        // connection's loop (`loop.execute`), so the loop never waits for the disk, the upstream or the store.
        let answer = pipeline.process(apnsRequest, on: connection, later: { response in
            Self.finish(response, request: request, responder: responder, logger: logger)
        })
        if case .now(let response) = answer {
            Self.finish(response, request: request, responder: responder, logger: logger)
        }
    }

    /// The environment `request` has on a port of `role`: on Apple's push ports, the one its host name implies, read
    /// from `:authority`, else from a `host` header (aioapns sends its host that way); nil = the configured one.
    private static func environment(of request: HTTP2Request, on role: ListenerRole) -> APNsEnvironment? {
        guard role.readsHostName else { return role.environment }
        return role.environment(authority: request.authority ?? request.header("host"))
    }

    /// Logs a refusal, applies a stream limit, and carries the response out (now, or after a `delay` fault).
    private static func finish(_ response: PipelineResponse, request: HTTP2Request, responder: HTTP2Responder, logger: Logger) {
        if response.status >= 300 || response.disposition != .respond {
            logger.debug("answered", metadata: [
                "status": "\(response.status)", "path": "\(request.path)", "connection": "\(request.connectionID)",
                "disposition": "\(response.disposition)",
            ])
        }
        if let limit = response.streamLimit {
            responder.connection.setMaxConcurrentStreams(limit)
        }
        if let delay = response.delay {
            // On the connection's loop, by its timer: no task to start, no hop back when it fires.
            responder.connection.schedule(after: delay) { Self.carryOut(response, responder: responder) }
        } else {
            Self.carryOut(response, responder: responder)
        }
    }

    static func carryOut(_ response: PipelineResponse, responder: HTTP2Responder) {
        switch response.disposition {
        case .respond:
            // The pipeline's fields go out as they are (one field type; its ID fields are marked `valueIsUnique`).
            responder.respond(status: response.status, headers: response.headers, body: response.body.isEmpty ? nil : response.body)
        case .stall:
            break
        case .abortStream(let code):
            responder.reset(errorCode: code)
        case .closeConnection(let code, let reasonBody):
            // As APNs does when it closes a connection: no answer on the stream, the reason in GOAWAY's debug data.
            responder.connection.goAway(errorCode: code, debugData: reasonBody, thenClose: true)
        case .dropConnection:
            responder.connection.close()
        }
    }
}
