import APNsCrypto
import Foundation
import Support

/// Mints provider tokens (ES256 JWTs) and reuses each for `refreshInterval` (50 minutes): APNs rejects a token
/// older than an hour, and answers `429 TooManyProviderTokenUpdates` when a connection sees a new token less than
/// 20 minutes after the previous one. Every connection of a client shares one cache, so no connection ever sees the
/// token change faster than the cache changes it, and the cache never changes it faster than `minimumInterval`.
///
/// The clock is injectable so tests can move time: it returns seconds since 1970.
public final class ProviderTokenCache: Sendable {
    /// A minted token and when it was issued.
    public struct Token: Sendable, Hashable {
        /// The compact JWT.
        public var jwt: String
        /// Its `iat` claim, seconds since 1970.
        public var issuedAt: Int64
        /// The `authorization` header value: `bearer <jwt>`.
        public var authorization: String { "bearer " + jwt }
    }

    private let key: P256PrivateKey
    private let keyID: String
    private let teamID: String
    private let clock: @Sendable () -> Int64
    /// Age after which a token is replaced on next use.
    public let refreshInterval: Int64
    /// Minimum age before a token may be replaced, even when APNs rejects it.
    public let minimumInterval: Int64
    private let current = Locked<(token: Token, authorization: String)?>(nil)

    /// The wall clock, in whole seconds since 1970.
    public static let systemClock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// A cache for the `.p8` key `privateKeyPEM` (key `keyID` of team `teamID`).
    public init(
        privateKeyPEM: String, keyID: String, teamID: String,
        refreshInterval: Duration = .seconds(50 * 60), minimumInterval: Duration = .seconds(20 * 60),
        clock: @escaping @Sendable () -> Int64 = ProviderTokenCache.systemClock
    ) throws(APNsClientError) {
        do {
            key = try P256PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw .invalidConfiguration("the token signing key is not a P-256 private key in PEM (.p8): \(error)")
        }
        self.keyID = keyID
        self.teamID = teamID
        self.clock = clock
        self.refreshInterval = refreshInterval.components.seconds
        self.minimumInterval = minimumInterval.components.seconds
    }

    /// The token to send now: the cached one while younger than `refreshInterval`, else a new one.
    public func token() throws(APNsClientError) -> Token {
        try withCurrent(force: false).token
    }

    /// The `authorization` header value for the current token (cached string, no per-request allocation).
    public func authorization() throws(APNsClientError) -> String {
        try withCurrent(force: false).authorization
    }

    /// After APNs rejected the token (`ExpiredProviderToken`): mints a new one if the current one is at least
    /// `minimumInterval` old. Returns whether the token changed (and a retry can help).
    @discardableResult
    public func refreshAfterRejection() throws(APNsClientError) -> Bool {
        let before = current.withLock { $0?.token }
        let after = try withCurrent(force: true).token
        return before != after
    }

    private func withCurrent(force: Bool) throws(APNsClientError) -> (token: Token, authorization: String) {
        let now = clock()
        let result: Result<(token: Token, authorization: String), APNsClientError> = current.withLock { current in
            if let existing = current {
                let age = now - existing.token.issuedAt
                let due = force ? age >= minimumInterval : age >= refreshInterval
                if !due { return .success(existing) }
            }
            do {
                let jwt = try JWTSigner.makeToken(teamID: teamID, keyID: keyID, issuedAt: now, key: key)
                let token = Token(jwt: jwt, issuedAt: now)
                current = (token, token.authorization)
                return .success((token, token.authorization))
            } catch {
                return .failure(.invalidConfiguration("could not sign a provider token: \(error)"))
            }
        }
        return try result.get()
    }
}
