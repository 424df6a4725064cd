/// What one connection's last header list was found to satisfy, for a server to hand back with the next request.
///
/// A sender repeats its header list (token, topic, push type, priority…) on every request of a connection, and the
/// HTTP/2 transport then hands over the very same array. The rules that read headers alone (duplicates; for device
/// pushes the push type, topic, `apns-id`, expiration, priority and collapse ID) give the same answer for the same
/// list and credential, so they are applied once per list, not once per request. Only that exact array (one storage,
/// not merely equal contents) and an equal credential reuse an answer; everything else (route, credential checks
/// and their times, device token, body, registry, faults) is decided every time.
public struct HeaderListMemo: Sendable {
    private var headers: [HeaderField] = []
    /// The list has no duplicate APNs header.
    var distinct = false
    /// The device-push header facts for `deviceCredential` (only when the push type was sent, not inferred from the body).
    var deviceFacts: DeviceHeaderFacts?
    var deviceCredential: ProviderCredential?

    /// An empty memo.
    public init() {}

    /// Whether the memo is about `headers` (the same array); if not, it starts over for them.
    mutating func focus(on headers: [HeaderField]) {
        if !headers.isEmpty && headers.sharesStorage(with: self.headers) { return }
        self = HeaderListMemo()
        self.headers = headers
    }

    /// The device header facts remembered for `credential`, if any.
    func deviceFacts(for credential: ProviderCredential) -> DeviceHeaderFacts? {
        guard let deviceFacts, let deviceCredential, Self.same(deviceCredential, credential) else { return nil }
        return deviceFacts
    }

    /// Whether two credentials are equal, cheaply for tokens: token facts are derived from the token text alone
    /// (with the server's fixed key set), so equal text means equal facts; the text is compared first, which for
    /// a connection repeating its token is one pointer comparison.
    private static func same(_ a: ProviderCredential, _ b: ProviderCredential) -> Bool {
        switch (a, b) {
        case (.token(let x), .token(let y)): return x.token == y.token && x == y
        case (.certificate, .certificate): return a == b
        case (.none, .none), (.malformedToken, .malformedToken): return true
        default: return false
        }
    }
}
