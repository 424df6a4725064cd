#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything that can go wrong setting up or running the HTTP/2 transport, with a sentence a user can act on.
public enum HTTP2Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address is already bound by another socket (EADDRINUSE).
    case addressInUse(host: String, port: Int)
    /// The host could not be resolved to a local address to listen on.
    case invalidAddress(host: String, port: Int, reason: String)
    /// The host a client connects to could not be resolved (a name that does not exist, no DNS).
    case unresolvableHost(host: String, port: Int, reason: String)
    /// Binding or listening failed for another reason (permission, address not available…).
    case bindFailed(host: String, port: Int, reason: String)
    /// A system call failed.
    case system(operation: String, errno: Int32)
    /// TLS setup failed (bad certificate, key, CA, or mismatch); `reason` includes OpenSSL's message.
    case tls(String)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted
    /// The server is not running.
    case notStarted
    /// nghttp2 could not be set up.
    case nghttp2(operation: String, code: Int32)

    public var description: String {
        switch self {
        case let .addressInUse(host, port):
            return "port \(port) on \(host) is already in use: stop the other process or pick another port (0 = any free port)"
        case let .invalidAddress(host, port, reason):
            return "cannot use \(host):\(port) as a listening address (\(reason)): use an IP address such as 127.0.0.1, ::1, 0.0.0.0 or a resolvable host name"
        case let .unresolvableHost(host, port, reason):
            return "the host \(host) (port \(port)) does not resolve (\(reason)): check the host name in the URL, or use an IP address"
        case let .bindFailed(host, port, reason):
            return "cannot listen on \(host):\(port): \(reason)"
        case let .system(operation, code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .tls(reason):
            return "TLS setup failed: \(reason)"
        case .alreadyStarted:
            return "the HTTP/2 server was already started (or shut down); create a new HTTP2Server to listen again"
        case .notStarted:
            return "the HTTP/2 server is not running; call start() first"
        case let .nghttp2(operation, code):
            return "nghttp2 \(operation) failed: \(String(cString: nghttp2StrError(code)))"
        }
    }
}

import CNghttp2

private func nghttp2StrError(_ code: Int32) -> UnsafePointer<CChar> {
    nghttp2_strerror(code)
}
