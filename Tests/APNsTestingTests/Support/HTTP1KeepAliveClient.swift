import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain HTTP/1.1 client connection on SwiftNIO, as AsyncHTTPClient (APNSwift's transport) makes them: one request
/// in flight at a time, kept alive between requests. A pool is several of these used side by side.
struct HTTP1KeepAliveClient {
    /// One request as the sender writes it.
    struct Request: Sendable {
        var method: HTTPMethod = .POST
        var path: String
        var headers: [(String, String)]
        var body: [UInt8]
    }

    /// One answer as the sender reads it.
    struct Response: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    /// Connects to 127.0.0.1:`port` and runs `body` with a function that sends one request and waits for its
    /// answer; the connection is closed afterwards.
    static func withConnection<Result: Sendable>(
        port: Int, group: MultiThreadedEventLoopGroup,
        _ body: (_ send: (Request) async throws -> Response) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
            }
        }
        return try await channel.executeThenClose { inbound, outbound in
            var responses = inbound.makeAsyncIterator()
            return try await body { request in
                var headers = HTTPHeaders(request.headers)
                headers.add(name: "host", value: "127.0.0.1:\(port)")
                headers.add(name: "content-length", value: String(request.body.count))
                try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path,
                                                               headers: headers)))
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: request.body))))
                try await outbound.write(.end(nil))
                var response = Response(status: 0, headers: HTTPHeaders(), body: [])
                while let part = try await responses.next() {
                    switch part {
                    case .head(let head):
                        response.status = Int(head.status.code)
                        response.headers = head.headers
                    case .body(let buffer):
                        response.body += buffer.readableBytesView
                    case .end:
                        return response
                    }
                }
                throw ConnectionClosed()
            }
        }
    }

    /// The server closed the connection before answering.
    struct ConnectionClosed: Error {}
}
