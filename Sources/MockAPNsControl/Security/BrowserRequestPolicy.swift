/// Which requests a web page may make to the control plane: none but its own pages'.
///
/// A browser sends requests wherever a page tells it to, so any site the developer visits could stall their
/// tests with a `text/plain` POST to `/api/v1/faults` (a "simple" request needs no CORS preflight) or, by
/// pointing a name of its own at 127.0.0.1 (DNS rebinding), read records that hold bearer tokens. Two checks
/// stop that and leave scripts, curl and test clients, which send no `Origin`, untouched:
///
/// - **Host** (only without a control token): the request must be addressed to a loopback name —
///   `localhost`, `*.localhost`, `127.0.0.0/8` or `[::1]`, any port. A rebinding page's requests carry its own
///   name. With a token the control plane may listen on other addresses, and a rebinding page cannot know the
///   token, so any `Host` is accepted.
/// - **Origin** (always): when present, it must be the control plane's own origin, `http://` plus the request's
///   `Host` (same host, same port). Browsers send `Origin` on every cross-origin request and on same-origin
///   ones other than GET/HEAD, so a page served by the control plane itself (the dashboard at `/`) passes and
///   every other page — including other ports on localhost, `null` origins and CORS preflights — is refused.
///   The control plane never sends `Access-Control-Allow-Origin`, so a refused page cannot read answers either.
struct BrowserRequestPolicy: Sendable {
    /// True when the control plane has no token: then `Host` must name loopback.
    let requiresLoopbackHost: Bool

    /// Nil when the request may proceed, else a sentence saying why not and what to do instead.
    /// - Parameters:
    ///   - host: the request's `Host` (HTTP/1.1) or `:authority`; nil when it had none (HTTP/1.0 tools).
    ///   - origins: every `Origin` value the request carried.
    func refusal(host: String?, origins: [String]) -> String? {
        // The host is parsed only when a rule needs it: the HTTP/1.1 APNs endpoint asks this for every push, and
        // APNs clients send neither a foreign Host rule nor an Origin.
        if requiresLoopbackHost, let host, HostAuthority(host)?.isLoopback != true {
            return "Refused: this request is addressed to '\(host)', which is not a loopback name. Without --control-token "
                + "the control plane answers only requests for localhost, 127.0.0.1 or [::1], so that a web page cannot "
                + "point a name of its own at this machine and read it. Use http://127.0.0.1:<port>, or start mockapns "
                + "with --control-token to reach the control plane under other names."
        }
        guard let origin = origins.first else { return nil }
        let own = host.map { "http://" + $0 } ?? "the address it listens on"
        let refusal = "Refused: a web page from '\(origin)' may not use the control plane; only pages it serves itself "
            + "(\(own)) may. Scripts, curl and test clients send no Origin header and are not affected; to call the "
            + "control plane from a web app of your own, make the calls from that app's server."
        guard origins.count == 1, let authority = host.flatMap(HostAuthority.init), Self.isSameOrigin(origin, as: authority) else {
            return refusal
        }
        return nil
    }

    /// Whether `origin` (`scheme://host[:port]`) is `http://` + `authority`, with default ports spelled out.
    static func isSameOrigin(_ origin: String, as authority: HostAuthority) -> Bool {
        let lowered = origin.lowercased()
        guard let separator = lowered.range(of: "://") else { return false }
        let scheme = String(lowered[..<separator.lowerBound])
        guard scheme == "http", let originAuthority = HostAuthority(String(lowered[separator.upperBound...])) else {
            return false
        }
        return originAuthority.host == authority.host
            && originAuthority.port(defaultFor: scheme) == authority.port(defaultFor: "http")
    }
}
