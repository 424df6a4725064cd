/// The SETTINGS_MAX_CONCURRENT_STREAMS a server connection announces. Raising it is immediate. Lowering it while
/// streams are open waits until they are all closed: nghttp2 enforces a submitted limit at once (REFUSED_STREAM for
/// every stream the peer opens past it, even streams it sent before it could read the SETTINGS), so submitting
/// during a burst would refuse the rest of the burst. RFC 9113 §5.1.2 lets a server that lowers the limit let open
/// streams complete; waiting lets every stream the peer opened before the change be answered on its own merits, and
/// only streams opened after it (beyond the new limit) are refused.
struct StreamLimitGate {
    /// The limit last submitted.
    private(set) var announced: UInt32 = .max
    /// A lower limit held back until the streams open when it was asked for are closed.
    private(set) var held: UInt32?

    /// The connection's first SETTINGS carried `value`.
    mutating func announcedInitially(_ value: UInt32) {
        announced = value
        held = nil
    }

    /// The handler asks for `value` while `openStreams` streams are open: the limit to submit now, or nil when there
    /// is nothing to send (no change, or a lower limit held until the open streams close).
    mutating func request(_ value: UInt32, openStreams: Int) -> UInt32? {
        if value < announced, openStreams > 0 {
            held = value
            return nil
        }
        held = nil
        return submit(value)
    }

    /// The last open stream closed: the held limit to submit now, if any.
    mutating func streamsDrained() -> UInt32? {
        guard let value = held else { return nil }
        held = nil
        return submit(value)
    }

    private mutating func submit(_ value: UInt32) -> UInt32? {
        guard value != announced else { return nil }
        announced = value
        return value
    }
}
