/// The live server connections of one loop, for shutdown. One per loop per server.
// @unchecked Sendable: `connections` is only read or written on `loop`'s thread.
final class ServerLoopState: @unchecked Sendable {
    let loop: EventLoop
    var connections: [UInt64: ServerConnection] = [:]

    init(loop: EventLoop) {
        self.loop = loop
    }
}
