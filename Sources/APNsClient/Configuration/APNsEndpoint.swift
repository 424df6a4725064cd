import Foundation

/// Which APNs server to talk to.
public enum APNsEndpoint: Sendable, Hashable {
    /// `https://api.push.apple.com:443`.
    case production
    /// `https://api.sandbox.push.apple.com:443`.
    case development
    /// Any server, e.g. a local mock: `https://127.0.0.1:2197` (TLS) or `http://127.0.0.1:2197`
    /// (HTTP/2 over cleartext, prior knowledge). The port defaults to 443 for https and 80 for http.
    case custom(url: String)

    /// Host, port and whether to use TLS, parsed from the endpoint.
    public struct Address: Sendable, Hashable {
        /// Host name or IP address (IPv6 without brackets).
        public var host: String
        /// TCP port.
        public var port: Int
        /// `true` for https, `false` for http (h2c).
        public var usesTLS: Bool

        /// Creates an address.
        public init(host: String, port: Int, usesTLS: Bool) {
            self.host = host
            self.port = port
            self.usesTLS = usesTLS
        }
    }

    /// The endpoint's host, port and scheme, or a description of what is wrong with a custom URL.
    public func address() throws(APNsClientError) -> Address {
        switch self {
        case .production: return Address(host: "api.push.apple.com", port: 443, usesTLS: true)
        case .development: return Address(host: "api.sandbox.push.apple.com", port: 443, usesTLS: true)
        case let .custom(url):
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  var host = components.host, !host.isEmpty
            else {
                throw .invalidConfiguration("\(url) is not a URL like https://host:port")
            }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            switch scheme {
            case "https": return Address(host: host, port: components.port ?? 443, usesTLS: true)
            case "http": return Address(host: host, port: components.port ?? 80, usesTLS: false)
            default: throw .invalidConfiguration("\(url): the scheme must be https (TLS) or http (h2c), not \(scheme)")
            }
        }
    }
}
