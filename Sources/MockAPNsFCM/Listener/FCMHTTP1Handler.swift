import HTTP2
import NIOCore
import NIOHTTP1

/// The FCM front door's HTTP/1.1 side (`http/1.1` negotiated by ALPN, as `requests` does): behind SwiftNIO's HTTP/1.1
/// server pipeline (keep-alive, pipelined requests answered in order), it reads each request, its body up to the
/// front door's `maxBodyBytes`, hands it to the front door and writes the answer. Confined to its channel's loop.
final class FCMHTTP1Handler: ChannelDuplexHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let frontDoor: FCMFrontDoor
    private let maxBodyBytes: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var remote = "unknown"
    private var isActive = false
    /// A `read` held while the record writers' gate is shut.
    private var readHeld = false

    init(frontDoor: FCMFrontDoor) {
        self.frontDoor = frontDoor
        maxBodyBytes = frontDoor.configuration.maxBodyBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Added once ALPN has chosen HTTP/1.1: the channel is active by then.
        isActive = context.channel.isActive
        remote = SocketAddress.peerText(context.channel.remoteAddress)
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            tooLarge = false
        case .body(let buffer):
            let room = maxBodyBytes - body.count
            if buffer.readableBytes > room { tooLarge = true }
            if room > 0 { body.append(contentsOf: buffer.readableBytesView.prefix(room)) }
        case .end:
            guard let head else { return }
            self.head = nil
            let call = FCMCall(method: head.method.rawValue, target: head.uri, contentType: head.headers.first(name: "content-type"),
                               authorization: head.headers.first(name: "authorization"), body: body, tooLarge: tooLarge,
                               transport: "http/1.1", remote: remote)
            body = []
            let keepAlive = head.isKeepAlive, version = head.version
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            frontDoor.respond(to: call, executor: nil) { answer in
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.write(answer, version: version, keepAlive: keepAlive, context: context)
                }
            }
        }
    }

    /// Reads nothing more while the record writers cannot keep up (their gate is shut); reads again once it opens.
    func read(context: ChannelHandlerContext) {
        let gate = frontDoor.mock.recorder.intake
        guard gate.isShut else { return context.read() }
        guard !readHeld else { return }
        readHeld = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        gate.whenOpen {
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                guard handler.readHeld else { return }
                handler.readHeld = false
                if handler.isActive { handler.read(context: context) }
            }
        }
    }

    /// The listener's `IdleStateHandler` saw no traffic for the idle timeout: the connection goes, as an idle HTTP/2
    /// one does.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The protocol error handler before this one has answered a malformed request; anything else ends the connection.
        context.close(promise: nil)
    }

    /// Writes one complete answer; closes the connection after it when the client asked to.
    private func write(_ answer: FCMHTTPAnswer, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        guard isActive else { return }
        var fields = HTTPHeaders()
        for field in answer.headerFields { fields.add(name: field.name, value: field.value) }
        fields.add(name: "content-length", value: String(answer.body.count))
        if !keepAlive { fields.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: answer.status),
                                                             headers: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
