/// The in-memory driver (``ConnectionDriver``): the peer's bytes wait in `inbound` until the core takes input, the
/// core's output collects in `outbound` until the test reads it. Single-threaded and deterministic; nothing touches
/// a descriptor. `outboundRoom` plays a peer that stops reading, so back-pressure can be driven byte by byte.
///
/// It asks the core itself what it wants on each ``pump()`` (``ConnectionCore/wantsInput``, its pending output), so
/// the interest the core hands over is not kept.
final class EmbeddedDriver: ConnectionDriver {
    /// The connection it serves (until it closes).
    private(set) var core: ConnectionCore?
    /// Bytes the core wrote and the test has not read.
    var outbound: [UInt8] = []
    /// Bytes the peer sent that the core has not taken yet (it stops taking while back-pressure holds).
    private var inbound: [UInt8] = []
    private var inboundStart = 0
    /// The peer closed its sending side: once `inbound` is taken, the core hears the end.
    private var inboundEnded = false
    /// How many more bytes the peer accepts before it stops reading (nil: no limit).
    var outboundRoom: Int?
    private(set) var isClosed = false

    func attach(_ core: ConnectionCore, interest: UInt32) throws(HTTP2Error) {
        self.core = core
    }

    func write(_ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        if isClosed { return -1 }
        let taken = min(count, outboundRoom ?? count)
        outbound.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: taken))
        if let room = outboundRoom { outboundRoom = room - taken }
        return taken
    }

    func setInterest(_ events: UInt32) {}

    func close() {
        isClosed = true
        core = nil
    }

    /// Queues bytes from the peer (delivered by ``pump()``).
    func enqueueInbound(_ bytes: some Collection<UInt8>) {
        if inboundStart > 0 && inboundStart == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
        }
        inbound.append(contentsOf: bytes)
    }

    /// The peer half-closed: after what is queued, the core hears the end of input.
    func endInbound() {
        inboundEnded = true
    }

    /// Delivers queued input while the core takes it (a read's worth at a time, as a socket would), then tells a core
    /// waiting to write that the peer has room. Returns whether anything happened.
    @discardableResult
    func pump() -> Bool {
        var progressed = false
        while let core, core.wantsInput, inboundStart < inbound.count {
            let count = min(inbound.count - inboundStart, ConnectionCore.readBufferSize)
            inbound.withUnsafeBytes { raw in
                core.receive(UnsafeRawBufferPointer(rebasing: raw[inboundStart..<(inboundStart + count)]))
            }
            inboundStart += count
            progressed = true
        }
        if let core, inboundEnded, inboundStart == inbound.count, core.phase != .closed {
            core.transportEnded()
            progressed = true
        }
        if let core, core.pendingOutputBytes > 0, outboundRoom.map({ $0 > 0 }) ?? true {
            core.transportWritable()
            progressed = true
        }
        return progressed
    }

    /// Bytes queued from the peer and not yet taken.
    var pendingInboundBytes: Int { inbound.count - inboundStart }
}
