import NIOCore
import NIOHTTP1
import NIOPosix

/// A trivial plain-SwiftNIO HTTP/1.1 server, the stand-in for APNSwift's own test server and the reference for
/// `make bench-http1`: the same server pipeline as the mock's endpoint (`configureHTTPServerPipeline`, keep-alive,
/// pipelining), it reads each request's body and answers 200 with an `apns-id`, and does nothing else.
/// `NIOHTTP1BenchServer PORT [THREADS]`.
final class TrivialAPNsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var body: ByteBuffer?
    private var keepAlive = true

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            body = nil
        case .body(var chunk):
            if body == nil { body = chunk } else { body!.writeBuffer(&chunk) }
        case .end:
            var headers = HTTPHeaders()
            headers.add(name: "apns-id", value: "8fb8e2ed-4c88-4a12-9a0c-5d1b5ab8f2a1")
            headers.add(name: "content-length", value: "0")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            if keepAlive {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        }
    }
}

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 0
let threads = arguments.count > 2 ? Int(arguments[2]) ?? 1 : System.coreCount
let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
let channel = try await ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        do {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(TrivialAPNsHandler())
            return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }
    .bind(host: "127.0.0.1", port: port).get()
try await channel.closeFuture.get()
