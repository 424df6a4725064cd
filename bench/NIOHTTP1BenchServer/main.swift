import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The plain-SwiftNIO HTTP/1.1 reference for `make bench-http1`, the stand-in for APNSwift's own test server: the
/// same server pipeline as the mock's endpoint (`configureHTTPServerPipeline`, keep-alive, pipelining).
///
/// `NIOHTTP1BenchServer PORT [THREADS] [trivial|checks]`:
/// - `trivial` (default): reads each request's body and answers 200 with an `apns-id`, nothing else — the floor.
/// - `checks`: what a test server like APNSwift's does per push — path and device-token shape, `apns-topic`
///   present, push type, priority, expiration and collapse-id checks, the body parsed by Foundation's
///   `JSONSerialization`, `apns-id` parsed as a UUID, the push kept in memory, 200 with `content-type`, `apns-id`
///   and `{}` — but no authentication, devices, faults or recording.
final class BenchHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// One push a `checks` server kept.
    struct Kept {
        let token: Substring
        let topic: String
        let apnsID: UUID
        let payload: Data
    }

    private let checks: Bool
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var kept: [Kept] = []

    init(checks: Bool) {
        self.checks = checks
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
        case .body(var chunk):
            if body == nil { body = chunk } else { body!.writeBuffer(&chunk) }
        case .end:
            guard let head else { return }
            var headers = HTTPHeaders()
            var status = HTTPResponseStatus.ok
            var text = ""
            if checks {
                (status, text) = check(head)
                headers.add(name: "content-type", value: "application/json")
                if status == .ok {
                    headers.add(name: "apns-id", value: kept.last!.apnsID.uuidString.lowercased())
                }
            } else {
                headers.add(name: "apns-id", value: "8fb8e2ed-4c88-4a12-9a0c-5d1b5ab8f2a1")
            }
            headers.add(name: "content-length", value: String(text.utf8.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            if !text.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
            }
            if head.isKeepAlive {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        }
    }

    /// The `checks` mode's verdict on the request; keeps it when accepted.
    private func check(_ head: HTTPRequestHead) -> (HTTPResponseStatus, String) {
        let parts = head.uri.split(separator: "/")
        guard head.method == .POST, parts.count == 3, parts[0] == "3", parts[1] == "device" else {
            return (.notFound, #"{"reason":"BadPath"}"#)
        }
        let token = parts[2]
        guard token.utf8.count == 64, token.allSatisfy(\.isHexDigit) else { return (.badRequest, #"{"reason":"BadDeviceToken"}"#) }
        guard let topic = head.headers.first(name: "apns-topic") else { return (.badRequest, #"{"reason":"MissingTopic"}"#) }
        if let type = head.headers.first(name: "apns-push-type"),
           !["alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk",
             "widgets"].contains(type) {
            return (.badRequest, #"{"reason":"InvalidPushType"}"#)
        }
        if let priority = head.headers.first(name: "apns-priority"), priority != "5", priority != "10" {
            return (.badRequest, #"{"reason":"BadPriority"}"#)
        }
        if let expiration = head.headers.first(name: "apns-expiration"), Int(expiration) == nil {
            return (.badRequest, #"{"reason":"BadExpirationDate"}"#)
        }
        if let collapse = head.headers.first(name: "apns-collapse-id"), collapse.utf8.count > 64 {
            return (.badRequest, #"{"reason":"BadCollapseId"}"#)
        }
        guard var body, let bytes = body.readBytes(length: body.readableBytes), !bytes.isEmpty else {
            return (.badRequest, #"{"reason":"PayloadEmpty"}"#)
        }
        let payload = Data(bytes)
        guard payload.count <= 4096 else { return (.payloadTooLarge, #"{"reason":"PayloadTooLarge"}"#) }
        guard (try? JSONSerialization.jsonObject(with: payload)) != nil else { return (.badRequest, #"{"reason":"BadPayload"}"#) }
        let apnsID = head.headers.first(name: "apns-id").flatMap(UUID.init(uuidString:)) ?? UUID()
        kept.append(Kept(token: token, topic: topic, apnsID: apnsID, payload: payload))
        return (.ok, "{}")
    }
}

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 0
let threads = arguments.count > 2 ? Int(arguments[2]) ?? 1 : System.coreCount
let checks = arguments.count > 3 && arguments[3] == "checks"
let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
let channel = try await ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        do {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(BenchHandler(checks: checks))
            return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }
    .bind(host: "127.0.0.1", port: port).get()
try await channel.closeFuture.get()
