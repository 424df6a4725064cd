/// What a connection's earlier requests were found to satisfy, for a server to hand back with the next request.
///
/// A sender repeats its header list (token, topic, push type, priority…) on every request of a connection, often
/// its payload too, and the HTTP/2 transport then hands over the very same arrays. The rules that read headers alone
/// (duplicates; for device pushes the push type, topic, `apns-id`, expiration, priority and collapse ID) give the
/// same answer for the same list and credential, so they are applied once per list; a body already found to be a
/// JSON object is not parsed again. Only the exact arrays (one storage, not merely equal contents) and an equal
/// credential reuse an answer; everything else (route, credential checks and their times, device token, body size,
/// registry, faults) is decided every time.
public struct RepeatMemo: Sendable {
    private var headers: [HeaderField] = []
    /// The list has no duplicate APNs header.
    var distinct = false
    /// The device-push header facts for `deviceCredential` (only when the push type was sent, not inferred from the body).
    var deviceFacts: DeviceHeaderFacts?
    var deviceCredential: ProviderCredential?
    /// The last device-push body found to be a JSON object (kept when the header list changes).
    var objectBody: [UInt8] = []

    /// An empty memo.
    public init() {}

    /// Whether the header facts are about `headers` (the same array); if not, they start over for them.
    mutating func focus(on headers: [HeaderField]) {
        if !headers.isEmpty && headers.sharesStorage(with: self.headers) { return }
        self.headers = headers
        distinct = false
        deviceFacts = nil
        deviceCredential = nil
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
