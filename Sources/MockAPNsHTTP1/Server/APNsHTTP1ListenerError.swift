import MockAPNs

/// Why the HTTP/1.1 APNs endpoint could not start, in words a stranger can act on.
public enum APNsHTTP1ListenerError: Error, CustomStringConvertible, Sendable {
    /// Binding `host:port` failed (address in use, not an address of this machine, …).
    case couldNotListen(host: String, port: Int, reason: String)
    /// `start()` was called on a server that is running or was stopped.
    case notStartable
    /// The configuration asks for what only the HTTP/2 listener serves: TLS, or Apple's host names.
    case unsupported(ListenerConfiguration)

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case .couldNotListen(let host, let port, let reason):
            "The HTTP/1.1 APNs endpoint could not listen on \(host):\(port): \(reason). Pick another port (0 picks a "
                + "free one) or an address of this machine."
        case .notStartable:
            "The HTTP/1.1 APNs endpoint was already started or stopped; make a new APNsHTTP1Listener to listen again."
        case .unsupported(let configuration):
            "The HTTP/1.1 APNs endpoint serves plain HTTP only, so it takes no "
                + (configuration.tls != nil ? "TLS identity" : "Apple host names")
                + ": set `tls` and `appleHosts` to nil (ListenerConfiguration.plainHTTP1), and serve TLS with the HTTP/2 listener."
        }
    }
}
