/// What a connection waits for, as bits of the interest it hands its driver (``ConnectionDriver/setInterest(_:)``).
enum IOEvents {
    /// It takes bytes from the peer. Writability is the driver's to report (SwiftNIO's `channelWritabilityChanged`).
    static let input: UInt32 = 1
}
