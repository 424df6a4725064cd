/// What moves a ``ConnectionCore``'s bytes: a socket on the loop's poller (``SocketDriver``) or memory
/// (``EmbeddedDriver``). The core never sees a descriptor; the driver never sees a frame.
///
/// The driver calls the core back on the loop thread: ``ConnectionCore/receive(_:)`` with bytes that arrived
/// (while ``ConnectionCore/wantsInput``), ``ConnectionCore/transportWritable()`` when it can take output again,
/// ``ConnectionCore/transportEnded(error:)`` when the peer is gone, and, for a client that was connecting,
/// ``ConnectionCore/connectCompleted(error:)``.
protocol ConnectionDriver: AnyObject {
    /// Starts delivering to `core`, watching for `interest` (``IOEvents`` bits). Throws when it cannot (then the
    /// core closes it).
    func attach(_ core: ConnectionCore, interest: UInt32) throws(HTTP2Error)
    /// Takes up to `count` bytes of output: returns how many it took (0: none now, it will say when it can take
    /// more), or -1 when the transport failed.
    func write(_ pointer: UnsafeRawPointer, _ count: Int) -> Int
    /// What the core waits for now (``IOEvents/input``: it takes bytes; ``IOEvents/output``: it has bytes queued).
    func setInterest(_ events: UInt32)
    /// Ends the transport and lets go of the core. Called once, by the core's `close()`.
    func close()
}
