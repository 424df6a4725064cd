/// What moves a ``ConnectionCore``'s bytes: a SwiftNIO channel (``NIOChannelDriver``) or memory
/// (``EmbeddedDriver``). The core never sees a descriptor; the driver never sees a frame.
///
/// The driver calls the core back on the loop thread: ``ConnectionCore/receive(_:)`` with bytes that arrived
/// (while ``ConnectionCore/wantsInput``), ``ConnectionCore/transportWritable()`` when it can take output again, and
/// ``ConnectionCore/transportEnded(error:)`` when the peer is gone. A client's connect is SwiftNIO's: the core is
/// attached to a channel that has connected, and ``ConnectionCore/connectCompleted(error:)`` comes from
/// ``HTTP2ClientConnection``, not from the driver.
protocol ConnectionDriver: AnyObject {
    /// Starts delivering to `core`, watching for `interest` (``IOEvents`` bits). Throws when it cannot (then the
    /// core closes it).
    func attach(_ core: ConnectionCore, interest: UInt32) throws(HTTP2Error)
    /// Takes up to `count` bytes of output: returns how many it took (0: none now, it will say when it can take
    /// more), or -1 when the transport failed.
    func write(_ pointer: UnsafeRawPointer, _ count: Int) -> Int
    /// What the core waits for now: ``IOEvents/input`` set while it takes bytes. Writability is the driver's to report
    /// (``ConnectionCore/transportWritable()``), not the core's to ask for.
    func setInterest(_ events: UInt32)
    /// Ends the transport and lets go of the core. Called once, by the core's `close()`.
    func close()
}
