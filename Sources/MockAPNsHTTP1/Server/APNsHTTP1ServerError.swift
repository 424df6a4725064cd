/// Why the HTTP/1.1 APNs endpoint could not start, in words a stranger can act on.
public enum APNsHTTP1ServerError: Error, CustomStringConvertible, Sendable {
    /// Binding `host:port` failed (address in use, not an address of this machine, …).
    case couldNotListen(host: String, port: Int, reason: String)
    /// `start()` was called on a server that is running or was stopped.
    case notStartable

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case .couldNotListen(let host, let port, let reason):
            "The HTTP/1.1 APNs endpoint could not listen on \(host):\(port): \(reason). Pick another port (0 picks a "
                + "free one) or an address of this machine."
        case .notStartable:
            "The HTTP/1.1 APNs endpoint was already started or stopped; make a new APNsHTTP1Server to listen again."
        }
    }
}
