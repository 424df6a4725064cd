import Foundation
import Support

/// The OAuth access tokens the front door's `POST /token` issued, and what each stands for: the project of the
/// service account that asked, and until when (fcm-rules §2). Bounded: expired ones go first, then the oldest.
public final class FCMAccessTokens: Sendable {
    /// What a bearer token was issued for.
    public struct Grant: Sendable, Equatable {
        /// The service account's project.
        public var project: String
        /// The service account's email.
        public var clientEmail: String
        /// Seconds since 1970 after which it is refused.
        public var expiresAt: Int64
    }

    /// How long a token lives, as Google's `expires_in`.
    public static let lifetimeSeconds: Int64 = 3599
    /// Tokens kept at most.
    public static let maxTokens = 50_000

    private let grants = Locked<[String: Grant]>([:])

    /// No tokens.
    public init() {}

    /// A new token for `project`'s account, valid from `now` for ``lifetimeSeconds``.
    public func issue(project: String, clientEmail: String, now: Int64) -> String {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let tail = String(decoding: (0..<120).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }, as: UTF8.self)
        let token = "ya29.mockapns." + tail
        let grant = Grant(project: project, clientEmail: clientEmail, expiresAt: now.addingReportingOverflow(Self.lifetimeSeconds).partialValue)
        grants.withLock { grants in
            if grants.count >= Self.maxTokens {
                grants = grants.filter { $0.value.expiresAt > now }
                if grants.count >= Self.maxTokens, let oldest = grants.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
                    grants.removeValue(forKey: oldest.key)
                }
            }
            grants[token] = grant
        }
        return token
    }

    /// What `token` was issued for, when the mock issued it (expired or not).
    public func grant(for token: String) -> Grant? {
        grants.withLock { $0[token] }
    }
}
