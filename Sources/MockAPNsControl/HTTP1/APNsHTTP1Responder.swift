import APNsModel
import Hummingbird
import MockAPNs
import NIOCore

/// Turns every HTTP/1.1 request into an ``APNsRequest`` for the mock's ``Pipeline`` and answers with
/// exactly what the pipeline decided (status, headers, body); a withheld answer closes the connection.
struct APNsHTTP1Responder: HTTPResponder {
    typealias Context = ControlRequestContext

    let pipeline: Pipeline
    let connections: HTTP1ConnectionIDs
    /// The largest body read; larger ones are cut here and the pipeline judges the size from the header.
    static let bodyLimit = 64 * 1024

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await Self.collect(&request)
        let headers = request.headers.map { HeaderField(name: $0.name.canonicalName, value: $0.value) }
        let apnsRequest = APNsRequest(method: request.method.rawValue, path: request.uri.string, headers: headers, body: body)
        let connection = PipelineConnection.http1(
            id: connections.id(for: context.channel),
            remote: Self.describe(context.channel.remoteAddress)
        )
        let answer = await pipeline.handle(apnsRequest, connection: connection)
        if answer.closeConnection {
            try? await context.channel.close()
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
