import MockAPNs

/// A `host[:port]` as found in a `Host` header or after `scheme://` in an `Origin`, split and lowercased.
///
/// IPv6 literals keep no brackets (`[::1]:2198` → host `::1`, port 2198). Anything that is not a plain
/// authority (a path, user info, a port that is not a number up to 65535, an unbracketed IPv6 literal) does
/// not parse: callers treat that as foreign.
struct HostAuthority: Equatable {
    /// The host name or address literal, lowercased, without brackets or a trailing dot.
    let host: String
    /// The port, when the authority names one.
    let port: UInt16?

    /// Parses `text`; nil when it is not a bare `host[:port]`.
    init?(_ text: String) {
        let lowered = text.lowercased()
        guard !lowered.isEmpty, !lowered.contains(where: { $0 == "/" || $0 == "@" || $0 == " " || $0 == "?" || $0 == "#" }) else {
            return nil
        }
        var name: Substring
        var portText: Substring?
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            name = lowered[lowered.index(after: lowered.startIndex)..<close]
            let rest = lowered[lowered.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else {
            let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            name = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty else { return nil }
        if let portText {
            // UInt16(_:) answers nil past 65535 or on a sign, so no arithmetic on the header's digits here.
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                  let number = UInt16(portText) else { return nil }
            port = number
        } else {
            port = nil
        }
        host = String(name)
    }

    /// Whether the host can only be this machine: `localhost` and its subdomains (RFC 6761 reserves them for
    /// loopback, and browsers resolve them so), `127.0.0.0/8` and `::1`. A DNS-rebinding page has a name of
    /// its own in `Host`, never one of these.
    var isLoopback: Bool {
        host.hasSuffix(".localhost") || LoopbackAddress.isLoopback(host)
    }

    /// The port, or the scheme's default one (80 for http, 443 for https) when the authority names none.
    func port(defaultFor scheme: String) -> UInt16? {
        if let port { return port }
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
