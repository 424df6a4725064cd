import APNsModel
import MockAPNs
import NIOCore
import NIOHTTP1

/// One HTTP/1.1 connection of the APNs endpoint: assembles each request from NIOHTTP1's parts, hands it to the
/// ``Pipeline`` and writes back exactly what the pipeline decided (status, headers, body).
///
/// It sits after `configureHTTPServerPipeline(withPipeliningAssistance: true)`, so it sees one request at a time
/// even when a client pipelines them, and answers in order; connections stay open unless the client asks to close.
///
/// Faults map onto HTTP/1.1 as closely as it allows: `reset`, `goaway` and `drop` close the connection without an
/// answer (HTTP/1.1 has no stream reset or GOAWAY), `stall` never answers (the connection waits until the client
/// gives up or the endpoint stops), `delay` is waited out on the event loop before answering.
///
/// While the recorder's intake gate is shut (a record writer's queue is full) it holds the channel's `read`, so
/// nothing more is read from the socket until the gate opens: back-pressure stops the input, never the loop.
final class APNsHTTP1Handler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The request limits, the HTTP/2 listener's (see ``ListenerConfiguration``).
    struct Limits: Sendable {
        var maxBodyBytes: Int
        var maxHeaderListSize: Int
    }

    /// The mock's decision path (named apart from NIO's `context.pipeline`, the channel's handler chain).
    private let apnsPipeline: Pipeline
    private let connectionID: UInt64
    private let limits: Limits
    private var handle: PipelineConnectionHandle?
    private var remote = "unknown"
    private var isActive = false
    private var request = HTTP1RequestAssembly()
    /// A `read` held while the intake gate is shut, passed on when it opens.
    private var readHeld = false

    init(pipeline: Pipeline, connectionID: UInt64, limits: Limits) {
        self.apnsPipeline = pipeline
        self.connectionID = connectionID
        self.limits = limits
    }

    func channelActive(context: ChannelHandlerContext) {
        isActive = true
        remote = Self.describe(context.remoteAddress)
        handle = apnsPipeline.connectionOpened(id: connectionID, certificateDER: nil, transport: .http1)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if isActive {
            isActive = false
            apnsPipeline.connectionClosed(id: connectionID)
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request.begin(head, maxHeaderListSize: limits.maxHeaderListSize)
        case .body(let buffer):
            request.append(buffer, maxBodyBytes: limits.maxBodyBytes)
        case .end:
            finish(context: context)
        }
    }

    func read(context: ChannelHandlerContext) {
        let gate = apnsPipeline.recorder.intake
        guard gate.isShut else {
            context.read()
            return
        }
        guard !readHeld else { return }
        readHeld = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        gate.whenOpen {
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.resumeReading(context: context)
            }
        }
    }

    /// The gate opened: passes the held `read` on (it is checked again there).
    private func resumeReading(context: ChannelHandlerContext) {
        guard readHeld else { return }
        readHeld = false
        if isActive { read(context: context) }
    }

    /// The listener's `IdleStateHandler` saw no traffic for the idle timeout: the connection goes, as an idle
    /// HTTP/2 one does.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The protocol error handler before this one has answered malformed requests; anything else ends the connection.
        context.close(promise: nil)
    }

    /// Decides the assembled request and answers it.
    private func finish(context: ChannelHandlerContext) {
        let keepAlive = request.keepAlive
        let version = request.version
        let apnsRequest = request.take()
        let connection = PipelineConnection(
            id: connectionID, remote: remote, streamID: 0, receivedAtNanos: request.receivedAtNanos, handle: handle)
        if request.headerListTooLarge {
            apnsPipeline.recordRefused(apnsRequest, on: connection, status: 431)
            write(status: 431, headers: [], body: [], version: version, keepAlive: keepAlive, context: context)
            return
        }
        if HTTP1OriginPolicy.refuses(apnsRequest, host: request.host) {
            // Refused before the pipeline, so a web page leaves no record; answered as APNs answers a forbidden request.
            write(status: 403, headers: [HeaderField(name: "content-type", value: "application/json")],
                  body: Pipeline.reasonBody(APNsReason.forbidden.rawValue, timestamp: nil), version: version,
                  keepAlive: keepAlive, context: context)
            return
        }
        let answer = apnsPipeline.process(apnsRequest, on: connection,
                                      later: completion(version: version, keepAlive: keepAlive, context: context))
        if case .now(let response) = answer {
            carryOut(response, version: version, keepAlive: keepAlive, context: context)
        }
    }

    /// Where a `.later` answer (`--record-sync`, `--relay`, a counted fault shared through a store) goes: it arrives
    /// from another thread, and hopping back to the loop here keeps the loop from ever waiting for the disk, upstream
    /// or store. Made on the loop, and only for a request answered later.
    private func completion(version: HTTPVersion, keepAlive: Bool,
                            context: ChannelHandlerContext) -> @Sendable (PipelineResponse) -> Void {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        return { response in
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.carryOut(response, version: version, keepAlive: keepAlive, context: context)
            }
        }
    }

    /// Carries the pipeline's decision out, after its `delay` if it has one.
    private func carryOut(_ response: PipelineResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        if let delay = response.delay {
            let (seconds, attoseconds) = delay.components
            let nanos = seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanos)) {
                var now = response
                now.delay = nil
                self.carryOut(now, version: version, keepAlive: keepAlive, context: context)
            }
            return
        }
        switch response.disposition {
        case .respond:
            write(status: response.status, headers: response.headers, body: response.body, version: version,
                  keepAlive: keepAlive, context: context)
        case .stall:
            break
        case .abortStream, .closeConnection, .dropConnection:
            // HTTP/1.1 has no stream to abort and no frame to say why: the connection carries this one exchange,
            // so ending the exchange unanswered means closing it.
            context.close(promise: nil)
        }
    }

    /// Writes one complete response; closes the connection after it when the client asked to.
    private func write(status: Int, headers: [HeaderField], body: [UInt8], version: HTTPVersion, keepAlive: Bool,
                       context: ChannelHandlerContext) {
        guard isActive else { return }
        var fields = HTTPHeaders()
        fields.reserveCapacity(headers.count + 2)
        for header in headers { fields.add(name: header.name, value: header.value) }
        fields.add(name: "content-length", value: String(body.count))
        if !keepAlive { fields.add(name: "connection", value: "close") }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// `host:port` of the peer (`[v6]:port`), or `unknown`.
    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return "unknown" }
        let port = address.port.map(String.init) ?? "0"
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
