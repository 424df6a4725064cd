import APNsCrypto
import APNsModel

/// Reads the header and claims of the bearer JWT in an `authorization` header — decoding only, no
/// signature check (the server already judged the token; this shows what was sent). The token is split and
/// decoded by `JWT.parse`, the server's own reader, so both agree on what a token says.
struct JWTInspector {
    /// The decoded JOSE header.
    let header: JSONValue
    /// The decoded claims.
    let claims: JSONValue

    /// Decodes `bearer <jwt>`; nil when the value is not a bearer token with two readable JSON segments.
    init?(authorization: String) {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
              let jwt = try? JWT.parse(String(parts[1])),
              let header = try? JSONValue.parse(Array(jwt.headerJSON.utf8)),
              let claims = try? JSONValue.parse(Array(jwt.claimsJSON.utf8))
        else { return nil }
        self.header = header
        self.claims = claims
    }
}
