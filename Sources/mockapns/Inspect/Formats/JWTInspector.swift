import APNsModel
import Foundation

/// Reads the header and claims of the bearer JWT in an `authorization` header — decoding only, no
/// signature check (the server already judged the token; this shows what was sent).
struct JWTInspector {
    /// The decoded JOSE header.
    let header: JSONValue
    /// The decoded claims.
    let claims: JSONValue

    /// Decodes `bearer <jwt>`; nil when the value is not a bearer token with two readable JSON segments.
    init?(authorization: String) {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let segments = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let header = Self.decodeSegment(segments[0]),
              let claims = Self.decodeSegment(segments[1])
        else { return nil }
        self.header = header
        self.claims = claims
    }

    /// A base64url segment as JSON.
    static func decodeSegment(_ segment: Substring) -> JSONValue? {
        var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONValue.parse(Array(data))
    }
}
