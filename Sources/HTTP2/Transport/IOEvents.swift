/// What a connection waits for, as bits of the interest it hands its driver (``ConnectionDriver/setInterest(_:)``).
enum IOEvents {
    /// It takes bytes from the peer.
    static let input: UInt32 = 1
    /// It has bytes queued for the peer (or, while connecting, waits for the connect to finish).
    static let output: UInt32 = 2
}
