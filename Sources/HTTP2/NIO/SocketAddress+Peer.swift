import NIOCore

extension SocketAddress {
    /// A peer as requests and logs name it: "1.2.3.4:5678" or "[::1]:5678"; "unknown" without an IP address and port.
    public static func peerText(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress, let port = address.port else { return "unknown" }
        if case .v6 = address { return "[\(ip)]:\(port)" }
        return "\(ip):\(port)"
    }
}
