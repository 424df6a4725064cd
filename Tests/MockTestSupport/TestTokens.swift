import APNsCrypto
import Foundation
import ModelTestSupport

/// A device token and provider tokens signed by the bundled keys, for requests to a mock that trusts them.
public enum TestTokens {
    /// A 64-digit device token.
    public static let token64 = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"

    /// A valid provider token from a bundled key, issued `offset` seconds from now.
    public static func jwt(keyID: String = "TESTKEY001", teamID: String = "TESTTEAM01", offset: Int64 = 0) throws -> String {
        let pem = try String(contentsOfFile: RepoPaths.cert("AuthKey_\(keyID).p8"), encoding: .utf8)
        let key = try P256PrivateKey(pemRepresentation: pem)
        return try JWTSigner.makeToken(teamID: teamID, keyID: keyID, issuedAt: Int64(Date().timeIntervalSince1970) + offset, key: key)
    }
}
