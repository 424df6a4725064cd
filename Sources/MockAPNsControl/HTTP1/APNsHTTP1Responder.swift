import APNsModel
import Hummingbird
import MockAPNs
import NIOCore

/// Turns every HTTP/1.1 request into an ``APNsRequest`` for the mock's ``Pipeline`` and answers with
/// exactly what the pipeline decided (status, headers, body).
///
/// Faults map onto HTTP/1.1 as closely as it allows: `reset`, `goaway` and `drop` close the connection
/// without an answer (HTTP/1.1 has no stream reset or GOAWAY), `stall` never answers (the request waits
/// until the client gives up or the endpoint stops); `delay` is waited out by the pipeline.
struct APNsHTTP1Responder: HTTPResponder {
    typealias Context = ControlRequestContext

    let pipeline: Pipeline
    let connections: HTTP1ConnectionIDs
    /// The largest body read; larger ones are cut here and the pipeline judges the size from the header.
    static let bodyLimit = 64 * 1024

    /// Only the `Origin` half of the control plane's rule: APNs clients send no `Origin`, so a request carrying
    /// another site's is a web page posting into the recording. `Host` is not checked: this endpoint may listen
    /// beyond loopback, and nothing it answers is secret.
    static let browserPolicy = BrowserRequestPolicy(requiresLoopbackHost: false)

    func respond(to request: Request, context: Context) async throws -> Response {
        if BrowserGuardMiddleware<Context>.refusal(of: request, under: Self.browserPolicy) != nil {
            // Refused before the pipeline, so the page leaves no record; answered as APNs answers a forbidden request.
            return Response(
                status: .forbidden, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"reason":"Forbidden"}"#))
            )
        }
        var request = request
        let body = try await Self.collect(&request)
        // `canonicalName` is lowercase already (swift-http-types), so the names are set as they are rather than
        // through `HeaderField(name:value:)`, which would check that again byte by byte for every field.
        var field = HeaderField(name: "", value: "")
        let headers = request.headers.map { header -> HeaderField in
            field.name = header.name.canonicalName
            field.value = header.value
            return field
        }
        let target = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        let apnsRequest = APNsRequest(method: request.method.rawValue, path: target, headers: headers, body: body)
        let connection = PipelineConnection(
            id: connections.id(for: context.channel),
            remote: Self.describe(context.channel.remoteAddress),
            streamID: 0
        )
        let answer = await pipeline.handle(apnsRequest, connection: connection)
        switch answer.disposition {
        case .respond:
            break
        case .reset, .goAway, .drop:
            try? await context.channel.close()
            throw ConnectionWithheld()
        case .stall:
            while !Task.isCancelled, context.channel.isActive {
                try? await Task.sleep(for: .milliseconds(250))
            }
            throw ConnectionWithheld()
        }
        var fields = HTTPFields()
        for header in answer.headers {
            if let name = HTTPFields.Element.Name(header.name) { fields.append(HTTPFields.Element(name: name, value: header.value)) }
        }
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }

    /// Reads up to ``bodyLimit`` bytes of the body.
    private static func collect(_ request: inout Request) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in request.body {
            let room = bodyLimit - bytes.count
            if room > 0 { bytes.append(contentsOf: chunk.readableBytesView.prefix(room)) }
        }
        return bytes
    }

    /// `host:port` of the peer, or `unknown`.
    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return "unknown" }
        let port = address.port.map(String.init) ?? "0"
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// Thrown after closing the connection for a reset/drop fault, so no response is written.
    struct ConnectionWithheld: Error {}
}
