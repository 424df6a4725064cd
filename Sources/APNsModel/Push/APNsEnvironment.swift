/// Which APNs a request is meant for. Device tokens, keys and certificates can each be tied to one.
public enum APNsEnvironment: String, CaseIterable, Sendable, Hashable, Codable {
    /// The sandbox, `api.sandbox.push.apple.com`: apps signed for development.
    case development
    /// `api.push.apple.com`: shipping apps.
    case production
}
