#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a control-plane or HTTP/1.1 endpoint server could not start.
public enum ControlServerError: Error, Equatable, CustomStringConvertible {
    /// A non-loopback bind address was asked for without a control token.
    case tokenRequiredForNonLoopback(host: String)
    /// `start()` was called on a server that is already running.
    case alreadyStarted
    /// The socket could not be bound (address in use, no such interface, permission…).
    case couldNotListen(host: String, port: Int, reason: String)

    /// A sentence saying what went wrong and what to do about it.
    public var description: String {
        switch self {
        case .tokenRequiredForNonLoopback(let host):
            return "Refusing to expose the control plane on \(host) without a token: anyone who can reach it could read and change the mock. "
                + "Pass --control-token <secret> (clients then send 'authorization: Bearer <secret>'), or bind to 127.0.0.1."
        case .alreadyStarted:
            return "This server is already running; call stop() before starting it again."
        case .couldNotListen(let host, let port, let reason):
            return "Could not listen on \(host):\(port): \(reason). Pick another port (0 chooses a free one) or stop the process using it."
        }
    }

    /// `error` as a sentence. NIO's socket errors read "bind(descriptor:ptr:bytes:): Address already in use)
    /// (errno: 98)" (its own stray parenthesis): those become the system's text and number.
    static func sentence(for error: any Error) -> String {
        let text = String(describing: error)
        guard let match = text.firstMatch(of: /\(errno: (\d+)\)/), let code = Int32(match.1) else { return text }
        let call = text.prefix { $0 != "(" }
        return "\(call.isEmpty ? "" : call + ": ")\(String(cString: strerror(code))) (errno \(code))"
    }
}
