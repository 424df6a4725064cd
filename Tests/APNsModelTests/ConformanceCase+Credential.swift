import Foundation
import APNsModel
import ModelTestSupport

extension ConformanceCase {
    /// Converts an auth block to the credential the server would derive, at time `now` of the final request.
    static func credential(_ auth: JSONValue, now: Int64) throws -> ProviderCredential {
        switch auth["kind"]?.stringValue {
        case "none":
            return .none
        case "malformed":
            return .malformedToken
        case "certificate":
            guard let name = auth["cert"]?.stringValue, let facts = TestCredentials.certificates[name] else {
                throw LoadError(description: "unknown certificate \(auth["cert"]?.jsonText() ?? "nil")")
            }
            return .certificate(facts)
        case "token":
            let omitted = Set((auth["omit"]?.arrayElements ?? []).compactMap(\.stringValue))
            let keyID = omitted.contains("kid") ? nil : auth["key_id"]?.stringValue
            let issuer = omitted.contains("iss") ? nil : auth["team_id"]?.stringValue
            let iat: ProviderTokenFacts.IssuedAt = omitted.contains("iat")
                ? .missing : issuedAt(claimText: issuedAtClaimText(auth, now: now))
            let signature: ProviderTokenFacts.SignatureCheck
            switch auth["signature"]?.stringValue ?? "valid" {
            case "valid", "der": signature = .valid  // DER signatures verify too (lenient; APNsCrypto checks both)
            case "tampered", "other-key": signature = .invalid
            case let other: throw LoadError(description: "unknown signature \(other)")
            }
            let algorithm = auth["alg"]?.stringValue ?? "ES256"
            return .token(ProviderTokenFacts(
                token: auth.jsonText(sortedKeys: true), algorithm: algorithm, keyID: keyID, issuer: issuer,
                issuedAt: iat, signature: signature, key: keyID.flatMap { TestCredentials.keys[$0] }))
        default:
            throw LoadError(description: "unknown auth kind")
        }
    }

    /// What the crypto layer reads from an `iat` claim's JSON text (JWT.IssuedAt, RFC 7519 NumericDate): a JSON
    /// integer or fraction, or a string holding one, rounded down to Int64 seconds; anything else is invalid.
    /// The model corpus has no crypto layer, so this mirrors it; the wire runner sends the text itself.
    static func issuedAt(claimText: String) -> ProviderTokenFacts.IssuedAt {
        func seconds(_ text: String) -> ProviderTokenFacts.IssuedAt {
            if let whole = Int64(text) { return .seconds(whole) }
            let jsonNumber = text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#,
                                        options: .regularExpression) != nil
            guard jsonNumber, let value = Double(text), value.isFinite,
                  let whole = Int64(exactly: value.rounded(.down)) else { return .invalid }
            return .seconds(whole)
        }
        if claimText.hasPrefix("\"") {
            guard let inner = (try? JSONValue.parse(Array(claimText.utf8)))?.stringValue else { return .invalid }
            return seconds(inner.trimmingCharacters(in: .whitespaces))
        }
        return seconds(claimText)
    }
}
