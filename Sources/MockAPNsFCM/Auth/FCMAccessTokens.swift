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

    private struct State {
        var grants: [String: Grant] = [:]
        /// The token looked up last and its grant: a sender sends every message of the hour with one token, and
        /// comparing it costs less than hashing it again. Cleared when a grant is let go.
        var last: (token: String, grant: Grant)?
    }
    private let state = Locked(State())

    /// No tokens.
    public init() {}

    /// A new token for `project`'s account, valid from `now` for ``lifetimeSeconds``.
    public func issue(project: String, clientEmail: String, now: Int64) -> String {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let tail = String(decoding: (0..<120).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }, as: UTF8.self)
        let token = "ya29.mockapns." + tail
        let grant = Grant(project: project, clientEmail: clientEmail, expiresAt: now.addingReportingOverflow(Self.lifetimeSeconds).partialValue)
        state.withLock { state in
            if state.grants.count >= Self.maxTokens {
                state.last = nil
                state.grants = state.grants.filter { $0.value.expiresAt > now }
                if state.grants.count >= Self.maxTokens, let oldest = state.grants.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
                    state.grants.removeValue(forKey: oldest.key)
                }
            }
            state.grants[token] = grant
        }
        return token
    }

    /// What `token` was issued for, when the mock issued it (expired or not).
    public func grant(for token: String) -> Grant? {
        state.withLock { state in
            if let last = state.last, last.token == token { return last.grant }
            guard let grant = state.grants[token] else { return nil }
            state.last = (token, grant)
            return grant
        }
    }
}
